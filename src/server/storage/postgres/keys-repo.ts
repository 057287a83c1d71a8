import type { Sql } from './sql.js';
import { keysetPage } from '../shared/keyset-page.js';
import type { Page } from '../../../api/schemas/page.js';
import type { KeyRecord, KeysRepo } from '../keys-repo.js';
import { KeyRow, toRecord } from '../rows/keys.js';
import type { AccountRecord } from '../accounts-repo.js';
import { toRecord as toAccount, type AccountRow } from '../rows/accounts.js';

export class PgKeysRepo implements KeysRepo {
  private readonly byHash;
  private readonly touch;
  private readonly withAccount;
  constructor(private readonly db: Sql) {
    // Prepared once: authentication runs on every request.
    this.byHash = db.prepare('SELECT * FROM api_keys WHERE hash = ?');
    // A row another transaction is writing is skipped (SKIP LOCKED), a newer value kept (the WHERE,
    // re-checked on the row's latest version at READ COMMITTED): at a minute's turn every request in
    // flight on every replica refreshes the same key's row, and at SERIALIZABLE each of them waited
    // for the one before and then failed (40001) and ran again: 41 in a 100,000-event run.
    this.touch = db.prepare(
      `UPDATE api_keys SET last_used_at = ? WHERE id IN (
         SELECT id FROM api_keys WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?) FOR UPDATE SKIP LOCKED)`,
    );
    // One statement, so one consistent snapshot with no transaction around it. Each row as
    // jsonb: the two tables share column names, and every column keeps its name and type (bigint
    // times are far inside JSON's exact integers; the flag stays a boolean).
    this.withAccount = db.prepare('SELECT to_jsonb(k) AS key, to_jsonb(a) AS account FROM api_keys k LEFT JOIN accounts a ON a.id = k.account_id WHERE k.hash = ?');
  }

  async insert(k: KeyRecord): Promise<void> {
    await this.db
      .prepare(
        'INSERT INTO api_keys (id, account_id, name, mode, prefix, hash, created_at, last_used_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(k.id, k.accountId, k.name, k.mode, k.prefix, k.hash, k.createdAt, k.lastUsedAt, k.revokedAt);
  }

  async all(): Promise<KeyRecord[]> {
    return (await this.db.prepare('SELECT * FROM api_keys ORDER BY seq').all() as KeyRow[]).map(toRecord);
  }

  async deleteByHash(hash: string): Promise<void> {
    await this.db.prepare('DELETE FROM api_keys WHERE hash = ?').run(hash);
  }

  async findByHash(hash: string): Promise<KeyRecord | undefined> {
    const row = await this.byHash.get(hash) as KeyRow | undefined;
    return row && toRecord(row);
  }

  async findWithAccount(hash: string): Promise<{ key: KeyRecord; account: AccountRecord | undefined } | undefined> {
    const row = (await this.withAccount.get(hash)) as { key: KeyRow; account: AccountRow | null } | undefined;
    return row && { key: toRecord(row.key), account: row.account ? toAccount(row.account) : undefined };
  }

  async get(accountId: string, id: string): Promise<KeyRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM api_keys WHERE id = ? AND account_id = ?').get(id, accountId) as
      | KeyRow
      | undefined;
    return row && toRecord(row);
  }

  async list(accountId: string, limit: number, cursor?: string): Promise<Page<KeyRecord>> {
    return await keysetPage<KeyRow, KeyRecord>(this.db, {
      from: 'api_keys',
      where: ['account_id = ?'],
      params: [accountId],
      limit,
      cursor,
      map: toRecord,
    });
  }

  async markUsed(id: string, at: number): Promise<void> {
    await this.touch.run(at, id, at);
  }

  async revoke(id: string, at: number): Promise<void> {
    await this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
  }
}
