import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import { uncached, type RowCache } from './row-cache.js';
import type { Page } from '../../../api/schemas/page.js';
import type { AccountRecord, AccountsRepo } from '../accounts-repo.js';
import { AccountRow, toRecord } from '../rows/accounts.js';

export class SqlAccountsRepo implements AccountsRepo {
  private readonly byIdStmt;
  constructor(
    private readonly db: Statements,
    private readonly d: Dialect,
    /** Accounts by id: every request reads its key's account (row-cache.ts says where one is kept). */
    readonly cache: RowCache<AccountRecord> = uncached(),
  ) {
    this.byIdStmt = db.prepare('SELECT * FROM accounts WHERE id = ?');
  }

  async insert(a: AccountRecord): Promise<void> {
    this.cache.changed();
    await this.db
      .prepare(
        'INSERT INTO accounts (id, name, parent_id, is_agency, status, mode, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(a.id, a.name, a.parentId, this.d.flag(a.isAgency), a.status, a.mode, a.createdAt, a.updatedAt);
  }

  async get(id: string): Promise<AccountRecord | undefined> {
    return await this.cache.get(id, async () => {
      const row = await this.byIdStmt.get(id) as AccountRow | undefined;
      return row && toRecord(row);
    });
  }

  /** A direct child of `parentId`, or undefined (another agency's child is as good as missing). */
  async getChild(parentId: string, id: string): Promise<AccountRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM accounts WHERE id = ? AND parent_id = ?').get(id, parentId) as
      | AccountRow
      | undefined;
    return row && toRecord(row);
  }

  async listChildren(parentId: string, limit: number, cursor?: string): Promise<Page<AccountRecord>> {
    return await keysetPage<AccountRow, AccountRecord>(this.db, {
      from: 'accounts',
      where: ['parent_id = ?'],
      params: [parentId],
      limit,
      cursor,
      map: toRecord,
    });
  }

  async allChildren(parentId: string): Promise<AccountRecord[]> {
    return (
      await this.db.prepare('SELECT * FROM accounts WHERE parent_id = ? ORDER BY created_at DESC, seq DESC').all(parentId) as AccountRow[]
    ).map(toRecord);
  }

  async update(id: string, patch: { name?: string; status?: 'active' | 'suspended' }, now: number): Promise<void> {
    this.cache.changed();
    await this.db
      .prepare('UPDATE accounts SET name = COALESCE(?, name), status = COALESCE(?, status), updated_at = ? WHERE id = ?')
      .run(patch.name ?? null, patch.status ?? null, now, id);
  }

  async all(): Promise<AccountRecord[]> {
    return (await this.db.prepare('SELECT * FROM accounts ORDER BY seq').all() as AccountRow[]).map(toRecord);
  }

  async first(): Promise<AccountRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM accounts WHERE parent_id IS NULL ORDER BY seq LIMIT 1').get() as
      | AccountRow
      | undefined;
    return row && toRecord(row);
  }
}
