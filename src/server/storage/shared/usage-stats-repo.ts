import type { Dialect, Statements } from './statements.js';
import type { UsageStatsRepo } from '../usage-stats-repo.js';

export class SqlUsageStatsRepo implements UsageStatsRepo {
  private readonly numbersStmt;
  private readonly messagesStmt;
  constructor(
    db: Statements,
    protected readonly d: Dialect,
  ) {
    this.numbersStmt = db.prepare("SELECT COUNT(*) AS n FROM numbers WHERE account_id = ? AND status != 'released'");
    this.messagesStmt = db.prepare('SELECT COUNT(*) AS n FROM messages WHERE account_id = ? AND created_at >= ?');
  }

  async ownedNumbers(accountId: string): Promise<number> {
    return (await this.numbersStmt.get(accountId) as { n: number }).n;
  }
  async messagesSince(accountId: string, since: number): Promise<number> {
    return (await this.messagesStmt.get(accountId, since) as { n: number }).n;
  }
}
