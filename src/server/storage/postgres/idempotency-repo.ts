import type { Sql } from './sql.js';
import type { IdempotencyScope, IdempotencyRecord, IdempotencyRepo } from '../idempotency-repo.js';
import { IDEMPOTENCY_COLUMNS, toIdempotencyRecord, type IdempotencyRow } from '../rows/idempotency.js';

export class PgIdempotencyRepo implements IdempotencyRepo {
  constructor(private readonly db: Sql) {}

  async get(s: IdempotencyScope): Promise<IdempotencyRecord | undefined> {
    const row = await this.db
      .prepare(
        `SELECT ${IDEMPOTENCY_COLUMNS} FROM idempotency_keys WHERE account_id = ? AND mode = ? AND method = ? AND path = ? AND key = ?`,
      )
      .get(s.accountId, s.mode, s.method, s.path, s.key) as IdempotencyRow | undefined;
    return row && toIdempotencyRecord(row);
  }

  /**
   * Inserts the key in flight unless a row holds it (no read of the index gap first: an absent key's
   * read would take a predicate lock on the page that concurrent sends' keys are inserted into, and
   * SERIALIZABLE aborted one of each such pair). A row committed by a concurrent transaction after
   * this one's snapshot makes the insert fail with a serialization failure: the write runs again and
   * finds it. Only when a row is there is it read.
   */
  async claim(s: IdempotencyScope, requestHash: string, now: number): Promise<IdempotencyRecord | undefined> {
    const inserted = await this.db
      .prepare(
        `INSERT INTO idempotency_keys (account_id, mode, method, path, key, request_hash, state, created_at) VALUES (?, ?, ?, ?, ?, ?, 'in_flight', ?)
         ON CONFLICT (account_id, mode, method, path, key) DO NOTHING`,
      )
      .run(s.accountId, s.mode, s.method, s.path, s.key, requestHash, now);
    return inserted.changes === 1 ? undefined : await this.get(s);
  }

  async begin(s: IdempotencyScope, requestHash: string, now: number): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO idempotency_keys (account_id, mode, method, path, key, request_hash, state, created_at) VALUES (?, ?, ?, ?, ?, ?, 'in_flight', ?)
         ON CONFLICT (account_id, mode, method, path, key) DO UPDATE SET request_hash = excluded.request_hash, state = 'in_flight', status = NULL, body = NULL, created_at = excluded.created_at, answered_at = NULL`,
      )
      .run(s.accountId, s.mode, s.method, s.path, s.key, requestHash, now);
  }

  /**
   * Records a finished request's answer in one write, for a request that never held the key in
   * flight (its whole write ran in the transaction that records it: `commitOnce`). Replaces a row
   * past its 24 h only; the caller has checked there is no live one in the same transaction. Sent
   * without waiting for its answer (one wait less per send): it is the write's last
   * statement, and the COMMIT sent next waits for it (`Statement.later`).
   */
  async record(s: IdempotencyScope, requestHash: string, status: number, body: string, now: number, answeredAt?: number): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO idempotency_keys (account_id, mode, method, path, key, request_hash, state, status, body, created_at, answered_at) VALUES (?, ?, ?, ?, ?, ?, 'done', ?, ?, ?, ?)
         ON CONFLICT (account_id, mode, method, path, key) DO UPDATE SET request_hash = excluded.request_hash, state = 'done', status = excluded.status, body = excluded.body, created_at = excluded.created_at, answered_at = excluded.answered_at`,
      )
      .later(s.accountId, s.mode, s.method, s.path, s.key, requestHash, status, body, now, answeredAt ?? null);
  }

  /** As `record`, with no ON CONFLICT: a row of the key fails the transaction, at its COMMIT at the latest. */
  async recordFirst(s: IdempotencyScope, requestHash: string, status: number, body: string, now: number, answeredAt?: number): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO idempotency_keys (account_id, mode, method, path, key, request_hash, state, status, body, created_at, answered_at) VALUES (?, ?, ?, ?, ?, ?, 'done', ?, ?, ?, ?)`,
      )
      .later(s.accountId, s.mode, s.method, s.path, s.key, requestHash, status, body, now, answeredAt ?? null);
  }

  async complete(s: IdempotencyScope, status: number, body: string): Promise<void> {
    await this.db
      .prepare(
        "UPDATE idempotency_keys SET state = 'done', status = ?, body = ? WHERE account_id = ? AND mode = ? AND method = ? AND path = ? AND key = ?",
      )
      .run(status, body, s.accountId, s.mode, s.method, s.path, s.key);
  }

  async abandon(s: IdempotencyScope): Promise<void> {
    await this.db
      .prepare("DELETE FROM idempotency_keys WHERE account_id = ? AND mode = ? AND method = ? AND path = ? AND key = ? AND state = 'in_flight'")
      .run(s.accountId, s.mode, s.method, s.path, s.key);
  }

  /** A fresh process owns no in-flight request: those rows were cut off by a crash and changed nothing. */
  async clearInFlight(): Promise<void> {
    await this.db.prepare("DELETE FROM idempotency_keys WHERE state = 'in_flight'").run();
  }

  async purgeOlderThan(cutoff: number): Promise<number> {
    return (await this.db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?').run(cutoff)).changes;
  }
}
