import type { Db } from './database.js';

// spec: Blocked number. One row per account and number (UNIQUE in migration 6).

export interface BlockedNumberRecord {
  id: string;
  accountId: string;
  phoneNumber: string;
  reason: string | null;
  autoSuggested: boolean;
  blockedCallCount: number;
  lastBlockedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

interface BlockedNumberRow {
  seq: number;
  id: string;
  account_id: string;
  phone_number: string;
  reason: string | null;
  auto_suggested: number;
  blocked_call_count: number;
  last_blocked_at: number | null;
  created_at: number;
  updated_at: number;
}

const toRecord = (r: BlockedNumberRow): BlockedNumberRecord => ({
  id: r.id,
  accountId: r.account_id,
  phoneNumber: r.phone_number,
  reason: r.reason,
  autoSuggested: r.auto_suggested === 1,
  blockedCallCount: r.blocked_call_count,
  lastBlockedAt: r.last_blocked_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class BlockedNumbersRepo {
  private readonly findStmt;
  private readonly countBlockedStmt;
  constructor(private readonly db: Db) {
    this.findStmt = db.prepare('SELECT * FROM blocked_numbers WHERE account_id = ? AND phone_number = ?');
    this.countBlockedStmt = db.prepare(
      'UPDATE blocked_numbers SET blocked_call_count = blocked_call_count + 1, last_blocked_at = ?, updated_at = ? WHERE id = ?',
    );
  }

  /** spec: Blocked number — `blockedCallCount` and `lastBlockedAt` count the inbound calls this entry rejected. */
  recordBlockedCall(id: string, at: number): void {
    this.countBlockedStmt.run(at, at, id);
  }

  /** The account's entry for this number (confirmed or suggested), if any: what the call engine's blocklist check reads. */
  findByNumber(accountId: string, phoneNumber: string): BlockedNumberRecord | undefined {
    const row = this.findStmt.get(accountId, phoneNumber) as BlockedNumberRow | undefined;
    return row && toRecord(row);
  }
}
