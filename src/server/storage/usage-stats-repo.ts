import type { Db } from './database.js';

/** Per-account counts for the agency summary (contract §3), over the numbers, messages and ledger tables. */
export class UsageStatsRepo {
  private readonly numbersStmt;
  private readonly messagesStmt;
  private readonly spendStmt;
  constructor(db: Db) {
    this.numbersStmt = db.prepare("SELECT COUNT(*) AS n FROM numbers WHERE account_id = ? AND status != 'released'");
    this.messagesStmt = db.prepare('SELECT COUNT(*) AS n FROM messages WHERE account_id = ? AND created_at >= ?');
    this.spendStmt = db.prepare("SELECT COALESCE(-SUM(amount_cents), 0) AS n FROM ledger WHERE account_id = ? AND kind = 'charge' AND created_at >= ?");
  }

  ownedNumbers(accountId: string): number {
    return (this.numbersStmt.get(accountId) as { n: number }).n;
  }
  messagesSince(accountId: string, since: number): number {
    return (this.messagesStmt.get(accountId, since) as { n: number }).n;
  }
  spendSince(accountId: string, since: number): number {
    return (this.spendStmt.get(accountId, since) as { n: number }).n;
  }
}
