// The blocked-numbers family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL (a flag column reads through `flag`: 0/1 in SQLite, a boolean in PostgreSQL).
import type { KeyMode } from '../../../api/values/keys.js';
import type { BlockedNumberRecord } from '../blocked-numbers-repo.js';
import { flag, type StoredFlag } from './stored-flag.js';

// spec: Blocked number. One row per account and number (UNIQUE in migration 6).

export interface BlockedNumberRow {
  seq: number;
  id: string;
  account_id: string;
  phone_number: string;
  reason: string | null;
  auto_suggested: StoredFlag;
  blocked_call_count: number;
  last_blocked_at: number | null;
  created_at: number;
  updated_at: number;
  mode: KeyMode;
}

export const toRecord = (r: BlockedNumberRow): BlockedNumberRecord => ({
  id: r.id,
  accountId: r.account_id,
  phoneNumber: r.phone_number,
  reason: r.reason,
  autoSuggested: flag(r.auto_suggested),
  blockedCallCount: r.blocked_call_count,
  lastBlockedAt: r.last_blocked_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  mode: r.mode,
});
