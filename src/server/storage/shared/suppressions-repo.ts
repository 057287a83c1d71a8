import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import { asIs, table, type Row } from './table.js';
import type { Page } from '../../../api/schemas/page.js';
import type { SuppressionReason } from '../../../api/values/email.js';
import type { SuppressionRecord, SuppressionsRepo } from '../suppressions-repo.js';

const SUPPRESSIONS = table<SuppressionRecord>('email_suppressions', {
  accountId: asIs,
  address: asIs,
  reason: asIs,
  emailId: asIs,
  createdAt: asIs,
});

export class SqlSuppressionsRepo implements SuppressionsRepo {
  private readonly findStmt;
  private readonly insertStmt;
  private readonly complaintStmt;
  private readonly removeStmt;
  constructor(
    private readonly db: Statements,
    protected readonly d: Dialect,
  ) {
    this.findStmt = db.prepare('SELECT * FROM email_suppressions WHERE account_id = ? AND address = ?');
    this.insertStmt = db.prepare(`${SUPPRESSIONS.insertSql()} ON CONFLICT (account_id, address) DO NOTHING`);
    // contract §8: a complaint outranks an earlier bounce or unsubscribe (it can never be removed).
    this.complaintStmt = db.prepare(
      "UPDATE email_suppressions SET reason = 'complaint', email_id = ?, created_at = ? WHERE account_id = ? AND address = ? AND reason <> 'complaint'",
    );
    this.removeStmt = db.prepare('DELETE FROM email_suppressions WHERE account_id = ? AND address = ?');
  }

  async find(accountId: string, address: string): Promise<SuppressionRecord | undefined> {
    const row = (await this.findStmt.get(accountId, address)) as Row | undefined;
    return row && SUPPRESSIONS.read(row);
  }

  async add(s: SuppressionRecord): Promise<boolean> {
    const inserted = (await this.insertStmt.run(...SUPPRESSIONS.values(s, this.d))).changes > 0;
    if (inserted || s.reason !== 'complaint') return inserted;
    return (await this.complaintStmt.run(s.emailId, s.createdAt, s.accountId, s.address)).changes > 0;
  }

  async remove(accountId: string, address: string): Promise<boolean> {
    return (await this.removeStmt.run(accountId, address)).changes > 0;
  }

  async list(accountId: string, limit: number, cursor?: string, reason?: SuppressionReason): Promise<Page<SuppressionRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (reason) {
      where.push('reason = ?');
      params.push(reason);
    }
    return await keysetPage(this.db, { from: 'email_suppressions', where, params, limit, cursor, map: SUPPRESSIONS.read });
  }
}
