// The idempotency keys' rows as both engines read them, and their records: one codec for SQLite and PostgreSQL.
import type { IdempotencyRecord, IdempotencyState } from '../idempotency-repo.js';

/** The columns a key's record is read from, in both engines' reads. */
export const IDEMPOTENCY_COLUMNS = 'request_hash, state, status, body, created_at, answered_at';

export interface IdempotencyRow {
  request_hash: string;
  state: IdempotencyState;
  status: number | null;
  body: string | null;
  created_at: number;
  answered_at: number | null;
}

export const toIdempotencyRecord = (row: IdempotencyRow): IdempotencyRecord => ({
  requestHash: row.request_hash,
  state: row.state,
  status: row.status,
  body: row.body,
  createdAt: row.created_at,
  ...(row.answered_at === null ? {} : { answeredAt: Number(row.answered_at) }),
});
