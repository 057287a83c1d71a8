import type { Db } from './database.js';
import { keysetPage } from './pagination.js';
import type { Page } from '../../api/schemas/page.js';
import type { DeliveryStatus } from '../../api/schemas/webhooks.js';

export interface AttemptRecord {
  attempt: number;
  at: number;
  outcome: 'succeeded' | 'failed';
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
}

export interface DeliveryRecord {
  seq: number;
  id: string;
  endpointId: string;
  accountId: string;
  eventId: string;
  eventType: string;
  /** Set only for samples that are not in the events table (POST /test). */
  body: string | null;
  isTest: boolean;
  maxAttempts: number;
  /** Attempts made so far. */
  attempt: number;
  status: DeliveryStatus;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number | null;
  error: string | null;
  /** Set exactly while another attempt is scheduled. */
  nextAttemptAt: number | null;
  attempts: AttemptRecord[];
  createdAt: number;
  updatedAt: number;
}

interface DeliveryRow {
  seq: number;
  id: string;
  endpoint_id: string;
  account_id: string;
  event_id: string;
  event_type: string;
  body: string | null;
  is_test: number;
  max_attempts: number;
  attempt: number;
  status: DeliveryStatus;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  error: string | null;
  next_attempt_at: number | null;
  attempts: string;
  created_at: number;
  updated_at: number;
}

const toRecord = (r: DeliveryRow): DeliveryRecord => ({
  seq: r.seq,
  id: r.id,
  endpointId: r.endpoint_id,
  accountId: r.account_id,
  eventId: r.event_id,
  eventType: r.event_type,
  body: r.body,
  isTest: r.is_test === 1,
  maxAttempts: r.max_attempts,
  attempt: r.attempt,
  status: r.status,
  responseStatus: r.response_status,
  responseBody: r.response_body,
  durationMs: r.duration_ms,
  error: r.error,
  nextAttemptAt: r.next_attempt_at,
  attempts: JSON.parse(r.attempts) as AttemptRecord[],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** What an attempt needs to know, and the exact bytes to POST (null: the event is no longer stored). */
export interface DeliveryAttemptState {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  isTest: boolean;
  maxAttempts: number;
  attempt: number;
  nextAttemptAt: number | null;
  rawBody: string | null;
}

export interface DueDelivery {
  id: string;
  endpointId: string;
}

/** What the outbox writes; the attempt fields start empty. */
export type NewDelivery = Pick<DeliveryRecord, 'id' | 'endpointId' | 'accountId' | 'eventId' | 'eventType' | 'body' | 'isTest' | 'maxAttempts' | 'createdAt'>;

/** An attempt's result: the delivery's latest-attempt fields, plus the attempt for its history. */
export type AttemptOutcomeUpdate = Pick<DeliveryRecord, 'attempt' | 'status' | 'responseStatus' | 'responseBody' | 'durationMs' | 'error' | 'nextAttemptAt'> & {
  history: AttemptRecord;
  now: number;
};

export class WebhookDeliveriesRepo {
  private readonly insertStmt;
  private readonly byIdStmt;
  private readonly dueForEventStmt;
  private readonly dueStmt;
  private readonly eventBodyStmt;
  private readonly recordStmt;
  private readonly jobAtStmt;
  private readonly attemptStateStmt;
  private readonly stateOnlyStmt;
  constructor(private readonly db: Db) {
    this.attemptStateStmt = db.prepare(
      `SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.is_test, d.max_attempts, d.attempt, d.next_attempt_at,
         COALESCE(d.body, (SELECT e.body FROM events e WHERE e.id = d.event_id)) AS raw_body
       FROM webhook_deliveries d WHERE d.id = ?`,
    );
    this.stateOnlyStmt = db.prepare(
      `SELECT d.id, d.endpoint_id, d.event_id, d.event_type, d.is_test, d.max_attempts, d.attempt, d.next_attempt_at, NULL AS raw_body
       FROM webhook_deliveries d WHERE d.id = ?`,
    );
    this.jobAtStmt = db.prepare('SELECT 1 FROM jobs WHERE run_at = ? AND kind = ? LIMIT 1');
    this.insertStmt = db.prepare(
      `INSERT INTO webhook_deliveries (id, endpoint_id, account_id, event_id, event_type, body, is_test, max_attempts, attempt, status, next_attempt_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 'pending', ?, ?, ?)`,
    );
    this.byIdStmt = db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?');
    this.dueForEventStmt = db.prepare(
      'SELECT id, endpoint_id FROM webhook_deliveries WHERE event_id = ? AND next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY seq',
    );
    this.dueStmt = db.prepare(
      'SELECT id, endpoint_id FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?',
    );
    this.eventBodyStmt = db.prepare('SELECT body FROM events WHERE id = ?');
    this.recordStmt = db.prepare(
      `UPDATE webhook_deliveries SET attempt = ?, status = ?, response_status = ?, response_body = ?, duration_ms = ?, error = ?,
         next_attempt_at = ?, attempts = json_insert(attempts, '$[#]', json(?)), updated_at = ? WHERE id = ?`,
    );
  }

  /** A new delivery is pending, attempt 0, due at once (its creation time). */
  insert(d: NewDelivery): void {
    this.insertStmt.run(d.id, d.endpointId, d.accountId, d.eventId, d.eventType, d.body, d.isTest ? 1 : 0, d.maxAttempts, d.createdAt, d.createdAt, d.createdAt);
  }

  getById(id: string): DeliveryRecord | undefined {
    const row = this.byIdStmt.get(id) as DeliveryRow | undefined;
    return row && toRecord(row);
  }

  /**
   * The delivery's attempt state without its log fields (no attempt history parsed). `body: false`
   * leaves out the bytes to send (rawBody null): recording an outcome needs the state only, and the
   * body is the event's, read from another table (issue 13: two reads of it per attempt).
   */
  attemptState(id: string, opts: { body: boolean } = { body: true }): DeliveryAttemptState | undefined {
    const r = (opts.body ? this.attemptStateStmt : this.stateOnlyStmt).get(id) as
      | { id: string; endpoint_id: string; event_id: string; event_type: string; is_test: number; max_attempts: number; attempt: number; next_attempt_at: number | null; raw_body: string | null }
      | undefined;
    return (
      r && {
        id: r.id,
        endpointId: r.endpoint_id,
        eventId: r.event_id,
        eventType: r.event_type,
        isTest: r.is_test === 1,
        maxAttempts: r.max_attempts,
        attempt: r.attempt,
        nextAttemptAt: r.next_attempt_at,
        rawBody: r.raw_body,
      }
    );
  }

  get(accountId: string, endpointId: string, id: string): DeliveryRecord | undefined {
    const d = this.getById(id);
    return d && d.accountId === accountId && d.endpointId === endpointId ? d : undefined;
  }

  /** The delivery log: newest first, keyset-paged, only rows created at or after `since`. */
  list(endpointId: string, opts: { since: number; limit: number; cursor?: string; status?: DeliveryStatus }): Page<DeliveryRecord> {
    const where = ['endpoint_id = ?', 'created_at >= ?'];
    const params: unknown[] = [endpointId, opts.since];
    if (opts.status) {
      where.push('status = ?');
      params.push(opts.status);
    }
    return keysetPage<DeliveryRow, DeliveryRecord>(this.db, { from: 'webhook_deliveries', where, params, limit: opts.limit, cursor: opts.cursor, map: toRecord });
  }

  dueForEvent(eventId: string, now: number): DueDelivery[] {
    return (this.dueForEventStmt.all(eventId, now) as Array<{ id: string; endpoint_id: string }>).map((r) => ({ id: r.id, endpointId: r.endpoint_id }));
  }

  /** Deliveries whose next attempt is due, oldest due first. */
  due(now: number, limit = 10_000): DueDelivery[] {
    return (this.dueStmt.all(now, limit) as Array<{ id: string; endpoint_id: string }>).map((r) => ({ id: r.id, endpointId: r.endpoint_id }));
  }

  /** The exact bytes to POST: the stored event body (identical to the feed's), or the sample's. */
  rawBody(d: DeliveryRecord): string | undefined {
    if (d.body !== null) return d.body;
    return (this.eventBodyStmt.get(d.eventId) as { body: string } | undefined)?.body;
  }

  recordAttempt(id: string, u: AttemptOutcomeUpdate): void {
    this.recordStmt.run(u.attempt, u.status, u.responseStatus, u.responseBody, u.durationMs, u.error, u.nextAttemptAt, JSON.stringify(u.history), u.now, id);
  }

  /** Schedules one more attempt (a manual retry): due at `at`. */
  scheduleAttempt(id: string, at: number, status: DeliveryStatus, now: number): void {
    this.db.prepare('UPDATE webhook_deliveries SET next_attempt_at = ?, status = ?, updated_at = ? WHERE id = ?').run(at, status, now, id);
  }

  /** Stops every scheduled attempt of an endpoint (it was disabled): they become abandoned. */
  abandonScheduled(endpointId: string, error: string, now: number): number {
    return this.db
      .prepare(
        "UPDATE webhook_deliveries SET status = 'abandoned', next_attempt_at = NULL, error = ?, updated_at = ? WHERE endpoint_id = ? AND next_attempt_at IS NOT NULL",
      )
      .run(error, now, endpointId).changes;
  }

  /** Abandons one delivery whose next attempt can no longer be made (event gone, endpoint disabled). */
  abandon(id: string, error: string, now: number): void {
    this.db.prepare("UPDATE webhook_deliveries SET status = 'abandoned', next_attempt_at = NULL, error = ?, updated_at = ? WHERE id = ?").run(error, now, id);
  }

  /** spec: Limits — the delivery log keeps 7 days; finished rows older than that are dropped. */
  purgeFinishedBefore(cutoff: number): number {
    return this.db.prepare('DELETE FROM webhook_deliveries WHERE created_at < ? AND next_attempt_at IS NULL').run(cutoff).changes;
  }

  /** Whether the scheduler already holds a job of `kind` at exactly `runAt` (one tick job per boundary). */
  hasJobAt(kind: string, runAt: number): boolean {
    return this.jobAtStmt.get(runAt, kind) !== undefined;
  }
}
