import { ReadCache } from './read-cache.js';
import type { Db } from './database.js';
import { keysetPage } from './pagination.js';
import type { Page } from '../../../api/schemas/page.js';
import type { KeyRecord, KeysRepo } from '../keys-repo.js';
import type { AccountRecord, AccountsRepo } from '../accounts-repo.js';
import { KeyRow, toRecord } from '../rows/keys.js';

export class SqliteKeysRepo implements KeysRepo {
  private readonly byHash;
  private readonly touch;
  /** Keys by hash, between transactions (read-cache.ts): every request authenticates with one. */
  readonly cache = new ReadCache<KeyRecord>();
  constructor(
    private readonly db: Db,
    /** The engine's one accounts repository: its cache is the one a write to an account empties. */
    private readonly accounts: Pick<AccountsRepo, 'get'>,
  ) {
    // Prepared once: authentication runs on every request.
    this.byHash = db.prepare('SELECT * FROM api_keys WHERE hash = ?');
    this.touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)');
  }

  async insert(k: KeyRecord): Promise<void> {
    this.cache.changed();
    this.db
      .prepare(
        'INSERT INTO api_keys (id, account_id, name, mode, prefix, hash, created_at, last_used_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(k.id, k.accountId, k.name, k.mode, k.prefix, k.hash, k.createdAt, k.lastUsedAt, k.revokedAt);
  }

  async all(): Promise<KeyRecord[]> {
    return (this.db.prepare('SELECT * FROM api_keys ORDER BY seq').all() as KeyRow[]).map(toRecord);
  }

  async deleteByHash(hash: string): Promise<void> {
    this.cache.changed();
    this.db.prepare('DELETE FROM api_keys WHERE hash = ?').run(hash);
  }

  async findByHash(hash: string): Promise<KeyRecord | undefined> {
    return this.cache.get(hash, async () => {
      const row = this.byHash.get(hash) as KeyRow | undefined;
      return row && toRecord(row);
    });
  }

  /** Both from their caches (read-cache.ts): on this engine's one connection, a read is a lookup. */
  async findWithAccount(hash: string): Promise<{ key: KeyRecord; account: AccountRecord | undefined } | undefined> {
    const key = await this.findByHash(hash);
    return key && { key, account: await this.accounts.get(key.accountId) };
  }

  async get(accountId: string, id: string): Promise<KeyRecord | undefined> {
    const row = this.db.prepare('SELECT * FROM api_keys WHERE id = ? AND account_id = ?').get(id, accountId) as
      | KeyRow
      | undefined;
    return row && toRecord(row);
  }

  async list(accountId: string, limit: number, cursor?: string): Promise<Page<KeyRecord>> {
    return keysetPage<KeyRow, KeyRecord>(this.db, {
      from: 'api_keys',
      where: ['account_id = ?'],
      params: [accountId],
      limit,
      cursor,
      map: toRecord,
    });
  }

  async markUsed(id: string, at: number): Promise<void> {
    this.cache.changed();
    this.touch.run(at, id, at);
  }

  async revoke(id: string, at: number): Promise<void> {
    this.cache.changed();
    this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
  }
}
