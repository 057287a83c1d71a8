import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import { asIs, table, type Row } from './table.js';
import type { HeldReads } from './statements.js';
import type { Page } from '../../../api/schemas/page.js';
import type { KeyRecord, KeysRepo } from '../keys-repo.js';
import type { AccountRecord, AccountsRepo } from '../accounts-repo.js';

export const KEYS = table<KeyRecord>('api_keys', {
  id: asIs,
  accountId: asIs,
  name: asIs,
  mode: asIs,
  prefix: asIs,
  hash: asIs,
  createdAt: asIs,
  lastUsedAt: asIs,
  revokedAt: asIs,
});
const toRecord = KEYS.read;

export class SqlKeysRepo implements KeysRepo {
  private readonly byHash;
  private readonly touch;
  /** Keys by hash (Dialect.heldReads): every request authenticates with one. */
  readonly cache: HeldReads;
  constructor(
    protected readonly db: Statements,
    protected readonly d: Dialect,
    /** The engine's one accounts repository: its held reads are the ones a write to an account empties. */
    private readonly accounts: Pick<AccountsRepo, 'get'>,
  ) {
    this.cache = d.heldReads(db, 'api-keys-by-hash');
    // Prepared once: authentication runs on every request.
    this.byHash = db.prepare('SELECT * FROM api_keys WHERE hash = ?');
    // A row another transaction is writing is skipped (SKIP LOCKED), a newer value kept (the WHERE,
    // re-checked on the row's latest version at READ COMMITTED): at a minute's turn every request in
    // flight on every replica refreshes the same key's row, and at SERIALIZABLE each of them waited
    // for the one before and then failed (40001) and ran again: 41 in a 100,000-event run.
    this.touch = db.prepare(
      `UPDATE api_keys SET last_used_at = ? WHERE id IN (
         SELECT id FROM api_keys WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?) ${d.skipLocked})`,
    );
  }

  async insert(k: KeyRecord): Promise<void> {
    this.cache.changed();
    await this.db
      .prepare(KEYS.insertSql())
      .run(...KEYS.values(k, this.d));
  }

  async all(): Promise<KeyRecord[]> {
    return (await this.db.prepare('SELECT * FROM api_keys ORDER BY seq').all() as Row[]).map(toRecord);
  }

  async deleteByHash(hash: string): Promise<void> {
    this.cache.changed();
    await this.db.prepare('DELETE FROM api_keys WHERE hash = ?').run(hash);
  }

  async findByHash(hash: string): Promise<KeyRecord | undefined> {
    // Held values are shared: each caller gets its own copy to change.
    const held = await this.cache.get(hash, async () => (await this.byHash.get(hash)) as Row | undefined);
    return held && toRecord(held);
  }

  /** Two reads, each from its cache where the engine keeps one (postgres/keys-repo.ts makes it one statement). */
  async findWithAccount(hash: string): Promise<{ key: KeyRecord; account: AccountRecord | undefined } | undefined> {
    const key = await this.findByHash(hash);
    return key && { key, account: await this.accounts.get(key.accountId) };
  }

  async get(accountId: string, id: string): Promise<KeyRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM api_keys WHERE id = ? AND account_id = ?').get(id, accountId) as
      | Row
      | undefined;
    return row && toRecord(row);
  }

  async list(accountId: string, limit: number, cursor?: string): Promise<Page<KeyRecord>> {
    return await keysetPage(this.db, {
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
    await this.touch.run(at, id, at);
  }

  async revoke(id: string, at: number): Promise<void> {
    this.cache.changed();
    await this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
  }
}
