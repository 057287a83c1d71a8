import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import { asIs, table, yesNo, type Row } from './table.js';
import type { HeldReads } from './statements.js';
import type { Page } from '../../../api/schemas/page.js';
import type { AccountRecord, AccountsRepo } from '../accounts-repo.js';

export const ACCOUNTS = table<AccountRecord>('accounts', {
  id: asIs,
  name: asIs,
  parentId: asIs,
  isAgency: yesNo,
  status: asIs,
  mode: asIs,
  createdAt: asIs,
  updatedAt: asIs,
});
const toRecord = ACCOUNTS.read;

export class SqlAccountsRepo implements AccountsRepo {
  private readonly byIdStmt;
  /** Accounts by id (Dialect.heldReads): every request reads its key's account. */
  readonly cache: HeldReads;
  constructor(
    private readonly db: Statements,
    private readonly d: Dialect,
  ) {
    this.byIdStmt = db.prepare('SELECT * FROM accounts WHERE id = ?');
    this.cache = d.heldReads(db, 'accounts');
  }

  async insert(a: AccountRecord): Promise<void> {
    this.cache.changed();
    await this.db
      .prepare(ACCOUNTS.insertSql())
      .run(...ACCOUNTS.values(a, this.d));
  }

  async get(id: string): Promise<AccountRecord | undefined> {
    // Held values are shared: each caller gets its own copy to change.
    const held = await this.cache.get(id, async () => (await this.byIdStmt.get(id)) as Row | undefined);
    return held && toRecord(held);
  }

  /** A direct child of `parentId`, or undefined (another agency's child is as good as missing). */
  async getChild(parentId: string, id: string): Promise<AccountRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM accounts WHERE id = ? AND parent_id = ?').get(id, parentId) as
      | Row
      | undefined;
    return row && toRecord(row);
  }

  async listChildren(parentId: string, limit: number, cursor?: string): Promise<Page<AccountRecord>> {
    return await keysetPage(this.db, {
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
      await this.db.prepare('SELECT * FROM accounts WHERE parent_id = ? ORDER BY created_at DESC, seq DESC').all(parentId) as Row[]
    ).map(toRecord);
  }

  async update(id: string, patch: { name?: string; status?: 'active' | 'suspended' }, now: number): Promise<void> {
    this.cache.changed();
    await this.db
      .prepare('UPDATE accounts SET name = COALESCE(?, name), status = COALESCE(?, status), updated_at = ? WHERE id = ?')
      .run(patch.name ?? null, patch.status ?? null, now, id);
  }

  async all(): Promise<AccountRecord[]> {
    return (await this.db.prepare('SELECT * FROM accounts ORDER BY seq').all() as Row[]).map(toRecord);
  }

  async first(): Promise<AccountRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM accounts WHERE parent_id IS NULL ORDER BY seq LIMIT 1').get() as
      | Row
      | undefined;
    return row && toRecord(row);
  }
}
