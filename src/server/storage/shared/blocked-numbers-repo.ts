import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import type { Page } from '../../../api/schemas/page.js';
import type { BlockedNumberRecord, BlockedNumbersRepo } from '../blocked-numbers-repo.js';
import { BlockedNumberRow, toRecord } from '../rows/blocked-numbers.js';
import { flag, type StoredFlag } from '../rows/stored-flag.js';

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

  /** spec: Blocked number — `blockedCallCount` and `lastBlockedAt` count the inbound calls this entry rejected. */
  async recordBlockedCall(id: string, at: number): Promise<void> {
    await this.countBlockedStmt.run(at, at, id);
  }

  /**
   * Adds an entry unless the account already has one for the number (the UNIQUE index decides, so two
   * writers racing cannot both add it). True when this call inserted it.
   */
  async insertIfAbsent(e: BlockedNumberRecord): Promise<boolean> {
    const res = await this.db
      .prepare(
        `INSERT INTO blocked_numbers (id, account_id, phone_number, reason, auto_suggested, blocked_call_count, last_blocked_at, created_at, updated_at, mode)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account_id, phone_number) DO NOTHING`,
      )
      .run(e.id, e.accountId, e.phoneNumber, e.reason, this.dialect.flag(e.autoSuggested), e.blockedCallCount, e.lastBlockedAt, e.createdAt, e.updatedAt, e.mode);
    return res.changes === 1;
  }

  /** The account's entry with this id (another account's entry is not found). */
  async get(accountId: string, id: string): Promise<BlockedNumberRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM blocked_numbers WHERE account_id = ? AND id = ?').get(accountId, id) as BlockedNumberRow | undefined;
    return row && toRecord(row);
  }

  /** Newest first; `autoSuggested` keeps only suggestions (true) or confirmed entries (false). */
  async list(accountId: string, q: { limit: number; cursor?: string; autoSuggested?: boolean }): Promise<Page<BlockedNumberRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (q.autoSuggested !== undefined) {
      where.push('auto_suggested = ?');
      params.push(this.dialect.flag(q.autoSuggested));
    }
    return await keysetPage<BlockedNumberRow, BlockedNumberRecord>(this.db, { from: 'blocked_numbers', where, params, limit: q.limit, cursor: q.cursor, map: toRecord });
  }

  /** Writes an entry's editable fields (reason, autoSuggested) and updatedAt. */
  async update(e: BlockedNumberRecord): Promise<void> {
    await this.db
      .prepare('UPDATE blocked_numbers SET reason = ?, auto_suggested = ?, updated_at = ? WHERE id = ?')
      .run(e.reason, this.dialect.flag(e.autoSuggested), e.updatedAt, e.id);
  }

  async delete(id: string): Promise<void> {
    await this.db.prepare('DELETE FROM blocked_numbers WHERE id = ?').run(id);
  }

  /**
   * contract §6 (the auto-suggestion rule): how many of the account's inbound calls from this number
   * started at or after `sinceMs` and ended unanswered (status `missed`) or answered and shorter
   * than `shortCallSecs`. Blocked, failed and still-running calls do not count.
   */
  async countShortOrUnansweredInbound(accountId: string, fromNumber: string, sinceMs: number, shortCallSecs: number): Promise<{ n: number; live: boolean }> {
    const row = await this.db
      .prepare(
        `SELECT COUNT(*) AS n, ${this.dialect.anyOf("mode = 'live'")} AS live FROM calls
         WHERE account_id = ? AND from_number = ? AND direction = 'inbound' AND started_at >= ?
           AND (status = 'missed' OR (status = 'completed' AND duration_seconds IS NOT NULL AND duration_seconds < ?))`,
      )
      .get(accountId, fromNumber, sinceMs, shortCallSecs) as { n: number; live: StoredFlag };
    return { n: row.n, live: flag(row.live) };
  }


  /** The account's entry for this number (confirmed or suggested), if any: what the call engine's blocklist check reads. */
  async findByNumber(accountId: string, phoneNumber: string): Promise<BlockedNumberRecord | undefined> {
    const row = await this.findStmt.get(accountId, phoneNumber) as BlockedNumberRow | undefined;
    return row && toRecord(row);
  }
}
