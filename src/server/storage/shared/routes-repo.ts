import type { Dialect, Statements } from './statements.js';
import type { RouteRecord, RoutesRepo } from '../routes-repo.js';
import { RouteRow, toRecord } from '../rows/routes.js';

export class SqlRoutesRepo implements RoutesRepo {
  private readonly getStmt;
  private readonly upsertStmt;
  constructor(
    private readonly db: Statements,
    protected readonly d: Dialect,
  ) {
    this.getStmt = db.prepare('SELECT * FROM number_routes WHERE number_id = ?');
    this.upsertStmt = db.prepare(
      `INSERT INTO number_routes (number_id, account_id, route, greeting_media, version, created_at, updated_at)
       VALUES (@number_id, @account_id, @route, @greeting_media, @version, @created_at, @updated_at)
       ON CONFLICT (number_id) DO UPDATE SET route = excluded.route, greeting_media = excluded.greeting_media,
         version = excluded.version, updated_at = excluded.updated_at`,
    );
  }

  async get(numberId: string): Promise<RouteRecord | undefined> {
    const row = await this.getStmt.get(numberId) as RouteRow | undefined;
    return row && toRecord(row);
  }

  /** The rows of these numbers (one query for a page of numbers). */
  async getMany(numberIds: readonly string[]): Promise<Map<string, RouteRecord>> {
    const out = new Map<string, RouteRecord>();
    if (numberIds.length === 0) return out;
    const rows = await this.db
      .prepare(`SELECT * FROM number_routes WHERE number_id IN (${numberIds.map(() => '?').join(', ')})`)
      .all(...numberIds) as RouteRow[];
    for (const r of rows) out.set(r.number_id, toRecord(r));
    return out;
  }

  /** Every greeting file name a row records: the media store serves these and no others. */
  async greetingMediaNames(): Promise<string[]> {
    return (await this.db.prepare('SELECT greeting_media FROM number_routes WHERE greeting_media IS NOT NULL').all() as Array<{ greeting_media: string }>).map(
      (r) => r.greeting_media,
    );
  }

  /** Inserts or replaces the number's row as given (the caller raised `version`). */
  async save(r: RouteRecord): Promise<void> {
    await this.upsertStmt.run({
      number_id: r.numberId,
      account_id: r.accountId,
      route: r.route === null ? null : JSON.stringify(r.route),
      greeting_media: r.greetingMedia,
      version: r.version,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
    });
  }
}
