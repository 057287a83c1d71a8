// The suppressions family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.
import type { SuppressionReason } from '../../../api/values/email.js';
import type { SuppressionRecord } from '../suppressions-repo.js';

// contract §8: the account's suppression list, one row per address (lower-case).

export interface SuppressionRow {
  seq: number;
  account_id: string;
  address: string;
  reason: SuppressionReason;
  email_id: string | null;
  created_at: number;
}

export const toRecord = (r: SuppressionRow): SuppressionRecord => ({
  accountId: r.account_id,
  address: r.address,
  reason: r.reason,
  emailId: r.email_id,
  createdAt: r.created_at,
});
