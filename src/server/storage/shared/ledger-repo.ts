import type { Dialect, Statements } from './statements.js';
import type { UsageCategory } from '../../../api/values/billing.js';
import { asIs, table, type Row } from './table.js';
import type { LedgerEntry, LedgerRepo } from '../ledger-repo.js';

const LEDGER = table<LedgerEntry>('ledger', {
  id: asIs,
  accountId: asIs,
  kind: asIs,
  category: asIs,
  quantity: asIs,
  amountCents: asIs,
  balanceAfterCents: asIs,
  cause: asIs,
  ref: asIs,
  holdId: asIs,
  createdAt: asIs,
});

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
    this.appendStmt = db.prepare(LEDGER.insertSql());
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
    await this.appendStmt.run(...LEDGER.values(e, this.d));
  }

  async sum(accountId: string): Promise<number> {
    return (await this.sumStmt.get(accountId) as { n: number }).n;
  }

  async usage(accountId: string, fromMs: number, toMs: number): Promise<Array<{ category: UsageCategory; quantity: number; amountCents: number }>> {
    return (await this.usageStmt.all(accountId, fromMs, toMs) as Array<{ category: UsageCategory; quantity: number; amount: number }>).map((r) => ({
      category: r.category,
      quantity: r.quantity,
      amountCents: r.amount,
    }));
  }

  async chargedSince(accountId: string, sinceMs: number): Promise<number> {
    return (await this.chargedSinceStmt.get(accountId, sinceMs) as { n: number }).n;
  }

  async hasCharge(ref: string, category: UsageCategory, sinceMs: number): Promise<boolean> {
    return await this.hasChargeStmt.get(ref, category, sinceMs) !== undefined;
  }

  async entries(accountId: string): Promise<LedgerEntry[]> {
    return (await this.db.prepare('SELECT * FROM ledger WHERE account_id = ? ORDER BY seq').all(accountId) as Row[]).map(LEDGER.read);
  }
}
