import type { Dialect, HeldReads, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import { asIs, column, table, type Row } from './table.js';
import type { Page } from '../../../api/schemas/page.js';
import type { OptOutRecord, OptOutFilters, OptOutsRepo } from '../opt-outs-repo.js';

const OPT_OUTS = table<OptOutRecord>('opt_outs', {
  id: asIs,
  accountId: asIs,
  numberId: asIs,
  from: column('from_number'),
  phoneNumber: asIs,
  keyword: asIs,
  status: asIs,
  createdAt: asIs,
  liftedAt: asIs,
  liftedKeyword: asIs,
});

/**
 * A sender's active opt-outs held at once (Dialect.heldReads), for each send's question to be answered
 * from, when there are at most this many; past it, each send reads its own (a number with thousands of
 * opt-outs would read them all at every miss).
 */
export const FEW_OPT_OUTS = 50;

export class SqlOptOutsRepo implements OptOutsRepo {
  private readonly activeOfSenderStmt;
  private readonly activeStmt;
  private readonly insertStmt;
  private readonly liftStmt;
  /** A sender's few active opt-outs, by account and sender; this repository's writes forget them. */
  readonly cache: HeldReads;
  constructor(
    private readonly db: Statements,
    private readonly d: Dialect,
  ) {
    this.cache = d.heldReads(db, 'opt-outs-active');
    // The partial unique index opt_outs_active_pair answers both.
    this.activeStmt = db.prepare("SELECT * FROM opt_outs WHERE account_id = ? AND from_number = ? AND phone_number = ? AND status = 'active'");
    this.activeOfSenderStmt = db.prepare("SELECT * FROM opt_outs WHERE account_id = ? AND from_number = ? AND status = 'active' LIMIT ?");
    this.insertStmt = db.prepare(OPT_OUTS.insertSql());
    this.liftStmt = db.prepare("UPDATE opt_outs SET status = 'lifted', lifted_at = ?, lifted_keyword = ? WHERE id = ? AND status = 'active'");
  }

  /**
   * The consumer's active opt-out of the account's number `from`, if any. Every send asks it: the
   * sender's active opt-outs are held when they are few (FEW_OPT_OUTS), so the sends from one number
   * (a group commit's on PostgreSQL, every one between writes here on SQLite) read them once.
   */
  async findActive(accountId: string, from: string, phoneNumber: string): Promise<OptOutRecord | undefined> {
    const few = await this.cache.get(`${accountId} ${from}`, async () => {
      const rows = (await this.activeOfSenderStmt.all(accountId, from, FEW_OPT_OUTS + 1)) as Row[];
      return rows.length <= FEW_OPT_OUTS ? rows : undefined;
    });
    const row = few ? few.find((r) => r.phone_number === phoneNumber) : ((await this.activeStmt.get(accountId, from, phoneNumber)) as Row | undefined);
    return row && OPT_OUTS.read(row);
  }

  async insert(o: OptOutRecord): Promise<void> {
    this.cache.changed();
    await this.insertStmt.run(...OPT_OUTS.values(o, this.d));
  }

  async lift(id: string, keyword: string, at: number): Promise<boolean> {
    this.cache.changed();
    return (await this.liftStmt.run(at, keyword, id)).changes > 0;
  }

  async list(accountId: string, f: OptOutFilters, limit: number, cursor?: string): Promise<Page<OptOutRecord>> {
    const where = ['account_id = ?', "status = 'active'"];
    const params: unknown[] = [accountId];
    if (f.from !== undefined) {
      where.push('from_number = ?');
      params.push(f.from);
    }
    if (f.phoneNumber !== undefined) {
      where.push('phone_number = ?');
      params.push(f.phoneNumber);
    }
    return await keysetPage(this.db, { from: 'opt_outs', where, params, limit, cursor, map: OPT_OUTS.read });
  }
}
