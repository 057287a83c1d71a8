import type { Dialect, Statements } from './statements.js';
import type { HoldStatus } from '../../../api/values/billing.js';
import { asIs, table, type Row } from './table.js';
import type { HoldRecord, HoldsRepo } from '../holds-repo.js';

const HOLDS = table<HoldRecord>('holds', {
  id: asIs,
  accountId: asIs,
  category: asIs,
  amountCents: asIs,
  ref: asIs,
  status: asIs,
  createdAt: asIs,
  closedAt: asIs,
});

/** A hold is opened before it is closed: its insert leaves closed_at NULL. */
const OPENED = HOLDS.fields.filter((f) => f !== 'closedAt');

export class SqlHoldsRepo implements HoldsRepo {
  private readonly insertStmt;
  private readonly openByRefStmt;
  private readonly closeStmt;
  private readonly openTotalStmt;
  constructor(
    db: Statements,
    protected readonly d: Dialect,
  ) {
    // CAST: PostgreSQL sums a bigint column to a numeric, which its driver reads as text.
    this.openTotalStmt = db.prepare("SELECT CAST(COALESCE(SUM(amount_cents), 0) AS BIGINT) AS n FROM holds WHERE account_id = ? AND status = 'open'");
    this.insertStmt = db.prepare(HOLDS.insertSql(OPENED));
    this.openByRefStmt = db.prepare("SELECT * FROM holds WHERE ref = ? AND status = 'open'");
    this.closeStmt = db.prepare("UPDATE holds SET status = ?, closed_at = ? WHERE id = ? AND status = 'open'");
  }

  async insert(h: HoldRecord): Promise<void> {
    await this.insertStmt.run(...HOLDS.values(h, this.d, OPENED));
  }

  async openFor(ref: string): Promise<HoldRecord | undefined> {
    const row = await this.openByRefStmt.get(ref) as Row | undefined;
    return row && HOLDS.read(row);
  }

  async openTotal(accountId: string): Promise<number> {
    return (await this.openTotalStmt.get(accountId) as { n: number }).n;
  }

  async close(id: string, status: Exclude<HoldStatus, 'open'>, at: number): Promise<boolean> {
    return (await this.closeStmt.run(status, at, id)).changes > 0;
  }
}
