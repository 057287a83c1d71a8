import type { Db } from './database.js';

/** Per-account counts for the agency summary (contract §3), over the numbers and messages tables (spend: the ledger). */
export class UsageStatsRepo {
  private readonly numbersStmt;
  private readonly messagesStmt;
  constructor(db: Db) {
    this.numbersStmt = db.prepare("SELECT COUNT(*) AS n FROM numbers WHERE account_id = ? AND status != 'released'");
    this.messagesStmt = db.prepare('SELECT COUNT(*) AS n FROM messages WHERE account_id = ? AND created_at >= ?');
  }

  ownedNumbers(accountId: string): number {
    return (this.numbersStmt.get(accountId) as { n: number }).n;
  }
  messagesSince(accountId: string, since: number): number {
    return (this.messagesStmt.get(accountId, since) as { n: number }).n;
  }
}
