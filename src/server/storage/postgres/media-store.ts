import type pg from 'pg';
import { isConnectionLoss, Reachability } from './reachability.js';
import { assertName, isMediaName, type MediaOwner, type MediaStore } from '../media-store.js';

/**
 * Media in the database (migration 4's `media` table): a replica on another machine serves
 * a greeting any replica was sent, and the data directory holds none. Each call runs on a pooled
 * client of its own, as the file store writes outside the database's transaction: a medium is put
 * before the row naming it commits and deleted again if that write fails (domain/voice/routes.ts).
 * Only a name with a row is served, as only a recorded file is on SQLite.
 */
export class PgMediaStore implements MediaStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly reachability = new Reachability(),
  ) {}

  /**
   * One statement on a pooled client, through the breaker as the store's reads and writes go
   * (reachability.ts): refused at once while the server is lost, its connection loss noted.
   */
  private async query<R extends pg.QueryResultRow>(config: pg.QueryConfig): Promise<pg.QueryResult<R>> {
    let client: pg.PoolClient;
    try {
      client = await this.reachability.checkout(
        () => this.pool.connect(),
        (taken) => taken.release(),
      );
    } catch (err) {
      throw this.reachability.failed(err);
    }
    let broken: Error | undefined;
    try {
      const result = await client.query<R>(config);
      this.reachability.answered();
      return result;
    } catch (err) {
      // A connection lost under the statement is closed by the pool, not reused.
      if (isConnectionLoss(err)) broken = err as Error;
      throw this.reachability.failed(err);
    } finally {
      client.release(broken);
    }
  }

  async put(name: string, bytes: Buffer, owner: MediaOwner): Promise<void> {
    assertName(name);
    await this.query({
      text: 'INSERT INTO media (name, account_id, content_type, size, bytes, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      values: [name, owner.accountId, owner.contentType, bytes.length, bytes, owner.at],
    });
  }

  async get(name: string): Promise<Buffer | undefined> {
    if (!isMediaName(name)) return undefined;
    const { rows } = await this.query<{ bytes: Buffer }>({ text: 'SELECT bytes FROM media WHERE name = $1', values: [name] });
    return rows[0]?.bytes;
  }

  async delete(name: string): Promise<void> {
    assertName(name);
    await this.query({ text: 'DELETE FROM media WHERE name = $1', values: [name] });
  }

  async keepOnly(names: Iterable<string>): Promise<void> {
    await this.query({ text: 'DELETE FROM media WHERE NOT (name = ANY($1::text[]))', values: [[...names]] });
  }
}
