import type { Dialect, Statements } from './statements.js';
import type { UsageCategory } from '../../../api/values/billing.js';
import type { LedgerEntry, LedgerRepo } from '../ledger-repo.js';
import { LedgerRow, toEntry } from '../rows/ledger.js';

// CAST … AS BIGINT: PostgreSQL sums a bigint column to a numeric, which its driver reads as text.

export class SqlLedgerRepo implements LedgerRepo {
  private readonly appendStmt;
  private readonly sumStmt;
  private readonly usageStmt;
  private readonly chargedSinceStmt;
  private readonly hasChargeStmt;
  constructor(
    private readonly db: Statements,
    protected readonly d: Dialect,
  ) {
    this.appendStmt = db.prepare(
      `INSERT INTO ledger (id, account_id, kind, category, quantity, amount_cents, balance_after_cents, cause, ref, hold_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.sumStmt = db.prepare('SELECT CAST(COALESCE(SUM(amount_cents), 0) AS BIGINT) AS n FROM ledger WHERE account_id = ?');
    // A settled hold's charge row carries the category; holds and releases are not usage.
    this.usageStmt = db.prepare(
      `SELECT category, CAST(SUM(quantity) AS BIGINT) AS quantity, CAST(-SUM(amount_cents) AS BIGINT) AS amount FROM ledger
        WHERE account_id = ? AND kind IN ('charge', 'refund') AND category IS NOT NULL AND created_at >= ? AND created_at < ?
        GROUP BY category`,
    );
    this.hasChargeStmt = db.prepare("SELECT 1 FROM ledger WHERE ref = ? AND category = ? AND kind = 'charge' AND created_at >= ? LIMIT 1");
    this.chargedSinceStmt = db.prepare(
      "SELECT CAST(COALESCE(-SUM(amount_cents), 0) AS BIGINT) AS n FROM ledger WHERE account_id = ? AND kind IN ('charge', 'refund') AND category IS NOT NULL AND created_at >= ?",
    );
  }

  async append(e: LedgerEntry): Promise<void> {
    await this.appendStmt.run(e.id, e.accountId, e.kind, e.category, e.quantity, e.amountCents, e.balanceAfterCents, e.cause, e.ref, e.holdId, e.createdAt);
  }

  /** The balance the ledger says (the wallet must always equal it). */
  async sum(accountId: string): Promise<number> {
    return (await this.sumStmt.get(accountId) as { n: number }).n;
  }

  /** Charges net of refunds per category in [from, to) (contract §11 `GET /v1/usage`). */
  async usage(accountId: string, fromMs: number, toMs: number): Promise<Array<{ category: UsageCategory; quantity: number; amountCents: number }>> {
    return (await this.usageStmt.all(accountId, fromMs, toMs) as Array<{ category: UsageCategory; quantity: number; amount: number }>).map((r) => ({
      category: r.category,
      quantity: r.quantity,
      amountCents: r.amount,
    }));
  }

  /** Spend (usage charges net of refunds; not sandbox adjustments) since a time: the month to date against the spend limit. */
  async chargedSince(accountId: string, sinceMs: number): Promise<number> {
    return (await this.chargedSinceStmt.get(accountId, sinceMs) as { n: number }).n;
  }

  /** True when `ref` already carries a charge of `category` at or after `since` (a monthly fee paid once). */
  async hasCharge(ref: string, category: UsageCategory, sinceMs: number): Promise<boolean> {
    return await this.hasChargeStmt.get(ref, category, sinceMs) !== undefined;
  }

  /** Every row of an account, oldest first (tests recompute the balance from it). */
  async entries(accountId: string): Promise<LedgerEntry[]> {
    return (await this.db.prepare('SELECT * FROM ledger WHERE account_id = ? ORDER BY seq').all(accountId) as LedgerRow[]).map(toEntry);
  }
}
