import type { Dialect, Statements } from './statements.js';
import type { HoldStatus } from '../../../api/values/billing.js';
import type { HoldRecord, HoldsRepo } from '../holds-repo.js';
import { HoldRow, toRecord } from '../rows/holds.js';

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
    this.insertStmt = db.prepare('INSERT INTO holds (id, account_id, category, amount_cents, ref, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.openByRefStmt = db.prepare("SELECT * FROM holds WHERE ref = ? AND status = 'open'");
    this.closeStmt = db.prepare("UPDATE holds SET status = ?, closed_at = ? WHERE id = ? AND status = 'open'");
  }

  async insert(h: HoldRecord): Promise<void> {
    await this.insertStmt.run(h.id, h.accountId, h.category, h.amountCents, h.ref, h.status, h.createdAt);
  }

  /** The open hold for what `ref` names (a message id), if any. */
  async openFor(ref: string): Promise<HoldRecord | undefined> {
    const row = await this.openByRefStmt.get(ref) as HoldRow | undefined;
    return row && toRecord(row);
  }

  /** Money reserved and not yet charged: it counts against the spend limit like a charge. */
  async openTotal(accountId: string): Promise<number> {
    return (await this.openTotalStmt.get(accountId) as { n: number }).n;
  }

  /** Closes an open hold; false when it was not open (settled or released already). */
  async close(id: string, status: Exclude<HoldStatus, 'open'>, at: number): Promise<boolean> {
    return (await this.closeStmt.run(status, at, id)).changes > 0;
  }
}
