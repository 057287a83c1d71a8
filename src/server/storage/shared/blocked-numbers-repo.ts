import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import type { Page } from '../../../api/schemas/page.js';
import { asIs, table, yesNo, type Row } from './table.js';
import type { BlockedNumberRecord, BlockedNumbersRepo } from '../blocked-numbers-repo.js';

// spec: Blocked number. One row per account and number (UNIQUE in migration 6).
const BLOCKED_NUMBERS = table<BlockedNumberRecord>('blocked_numbers', {
  id: asIs,
  accountId: asIs,
  phoneNumber: asIs,
  reason: asIs,
  autoSuggested: yesNo,
  blockedCallCount: asIs,
  lastBlockedAt: asIs,
  createdAt: asIs,
  updatedAt: asIs,
  mode: asIs,
});

/** What an update writes: the editable fields and updatedAt. */
const EDITABLE = ['reason', 'autoSuggested', 'updatedAt'] as const;

export class SqlBlockedNumbersRepo implements BlockedNumbersRepo {
  private readonly findStmt;
  private readonly countBlockedStmt;
  constructor(
    private readonly db: Statements,
    private readonly dialect: Dialect,
  ) {
    this.findStmt = db.prepare('SELECT * FROM blocked_numbers WHERE account_id = ? AND phone_number = ?');
    this.countBlockedStmt = db.prepare(
      'UPDATE blocked_numbers SET blocked_call_count = blocked_call_count + 1, last_blocked_at = ?, updated_at = ? WHERE id = ?',
    );
  }

  async recordBlockedCall(id: string, at: number): Promise<void> {
    await this.countBlockedStmt.run(at, at, id);
  }

  async insertIfAbsent(e: BlockedNumberRecord): Promise<boolean> {
    const res = await this.db
      .prepare(`${BLOCKED_NUMBERS.insertSql()} ON CONFLICT (account_id, phone_number) DO NOTHING`)
      .run(...BLOCKED_NUMBERS.values(e, this.dialect));
    return res.changes === 1;
  }

  async get(accountId: string, id: string): Promise<BlockedNumberRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM blocked_numbers WHERE account_id = ? AND id = ?').get(accountId, id) as Row | undefined;
    return row && BLOCKED_NUMBERS.read(row);
  }

  async list(accountId: string, q: { limit: number; cursor?: string; autoSuggested?: boolean }): Promise<Page<BlockedNumberRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (q.autoSuggested !== undefined) {
      where.push('auto_suggested = ?');
      params.push(this.dialect.flag(q.autoSuggested));
    }
    return await keysetPage(this.db, { from: 'blocked_numbers', where, params, limit: q.limit, cursor: q.cursor, map: BLOCKED_NUMBERS.read });
  }

  async update(e: BlockedNumberRecord): Promise<void> {
    await this.db
      .prepare(`UPDATE blocked_numbers SET ${BLOCKED_NUMBERS.setSql(EDITABLE)} WHERE id = ?`)
      .run(...BLOCKED_NUMBERS.values(e, this.dialect, EDITABLE), e.id);
  }

  async delete(id: string): Promise<void> {
    await this.db.prepare('DELETE FROM blocked_numbers WHERE id = ?').run(id);
  }

  async countShortOrUnansweredInbound(accountId: string, fromNumber: string, sinceMs: number, shortCallSecs: number): Promise<{ n: number; live: boolean }> {
    const row = await this.db
      .prepare(
        `SELECT COUNT(*) AS n, ${this.dialect.anyOf("mode = 'live'")} AS live FROM calls
         WHERE account_id = ? AND from_number = ? AND direction = 'inbound' AND started_at >= ?
           AND (status = 'missed' OR (status = 'completed' AND duration_seconds IS NOT NULL AND duration_seconds < ?))`,
      )
      .get(accountId, fromNumber, sinceMs, shortCallSecs) as { n: number; live: unknown };
    return { n: row.n, live: yesNo.read(row.live) as boolean };
  }

  async findByNumber(accountId: string, phoneNumber: string): Promise<BlockedNumberRecord | undefined> {
    const row = await this.findStmt.get(accountId, phoneNumber) as Row | undefined;
    return row && BLOCKED_NUMBERS.read(row);
  }
}
