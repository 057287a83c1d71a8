// The opt-outs family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.
import type { OptOutStatus } from '../../../api/values/opt-outs.js';
import type { OptOutRecord } from '../opt-outs-repo.js';

// contract §4, "Opt-out keywords": who opted out of which of the account's numbers (migration 14).
// A lifted opt-out keeps its row (status 'lifted'); reads of "is this consumer opted out" and the
// list see the active ones.

export interface OptOutRow {
  seq: number;
  id: string;
  account_id: string;
  number_id: string | null;
  from_number: string;
  phone_number: string;
  keyword: string;
  status: OptOutStatus;
  created_at: number;
  lifted_at: number | null;
  lifted_keyword: string | null;
}

export const toRecord = (r: OptOutRow): OptOutRecord => ({
  id: r.id,
  accountId: r.account_id,
  numberId: r.number_id,
  from: r.from_number,
  phoneNumber: r.phone_number,
  keyword: r.keyword,
  status: r.status,
  createdAt: r.created_at,
  liftedAt: r.lifted_at,
  liftedKeyword: r.lifted_keyword,
});
