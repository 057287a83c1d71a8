import type { Dialect, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import type { Page } from '../../../api/schemas/page.js';
import type { DeliveryStatus } from '../../../api/schemas/webhooks.js';
import type { DeliveryRecord, DeliveryAttemptState, DueCursor, DueDelivery, DuePage, NewDelivery, AttemptOutcomeUpdate, AttemptOutcomeWrite, WebhookDeliveriesRepo } from '../webhook-deliveries-repo.js';
import { asIs, json, table, yesNo, type Row } from './table.js';

const DELIVERIES = table<DeliveryRecord>('webhook_deliveries', {
  seq: asIs,
  id: asIs,
  endpointId: asIs,
  accountId: asIs,
  eventId: asIs,
  eventType: asIs,
  body: asIs,
  isTest: yesNo,
  maxAttempts: asIs,
  attempt: asIs,
  status: asIs,
  responseStatus: asIs,
  responseBody: asIs,
  durationMs: asIs,
  error: asIs,
  nextAttemptAt: asIs,
  attempts: json,
  createdAt: asIs,
  updatedAt: asIs,
});

/** An attempt's state without its log fields (no attempt history parsed); its body is read beside it (`raw_body`). */
const STATES = table<Omit<DeliveryAttemptState, 'rawBody'>>('webhook_deliveries', {
  id: asIs,
  endpointId: asIs,
  eventId: asIs,
  eventType: asIs,
  isTest: yesNo,
  maxAttempts: asIs,
  attempt: asIs,
  nextAttemptAt: asIs,
});
const toAttemptState = (row: Row): DeliveryAttemptState => ({ ...STATES.read(row), rawBody: row.raw_body as string | null });

const DUE = table<DueDelivery>('webhook_deliveries', { id: asIs, endpointId: asIs });
const toDue = (rows: unknown[]): DueDelivery[] => (rows as Row[]).map(DUE.read);

/** What an attempt's outcome sets of the delivery, beside its history, the claim and `updated_at`. */
const OUTCOME = ['attempt', 'status', 'responseStatus', 'responseBody', 'durationMs', 'error', 'nextAttemptAt'] as const;

const STATE_COLUMNS = STATES.columns.map((c) => `d.${c}`).join(', ');
const RAW_BODY = 'COALESCE(d.body, (SELECT e.body FROM events e WHERE e.id = d.event_id))';

/**
 * An attempt appended to the history as text, the `?` being its JSON: jsonb would reorder each
 * attempt's keys, and parsing the whole history to append one is work for nothing.
 */
const APPEND_ATTEMPT = (history: string, attempt: string) =>
  `CASE WHEN ${history} = '[]' THEN '[' || ${attempt} || ']' ELSE substr(${history}, 1, length(${history}) - 1) || ',' || ${attempt} || ']' END`;

/** The fields of one outcome in a batch (recordAttempts), read from its JSON as rows. */
const OUTCOME_FIELDS = [
  ['delivery_id', 'text'], ['attempt', 'bigint'], ['status', 'text'], ['response_status', 'bigint'], ['response_body', 'text'], ['duration_ms', 'bigint'],
  ['error', 'text'], ['next_attempt_at', 'bigint'], ['history', 'text'], ['now', 'bigint'],
] as const;

export class SqlWebhookDeliveriesRepo implements WebhookDeliveriesRepo {
  private readonly insertStmt;
  private readonly byIdStmt;
  private readonly dueForEventStmt;
  private readonly dueStmt;
  private readonly claimStmt;
  private readonly leaseExpiredStmt;
  private readonly unclaimedDueStmt;
  private readonly eventBodyStmt;
  private readonly recordStmt;
  private readonly jobAtStmt;
  private readonly attemptStateStmt;
  private readonly stateOnlyStmt;
  private readonly statesStmt;
  private readonly statesOnlyStmt;
  private readonly duePageStmt;
  private readonly duePageAfterStmt;
  private readonly dueForEventsStmt;
  private readonly claimManyStmt;
  private readonly renewStmt;
  private readonly recordManyStmt;
  private readonly recordOnceStmt;
  /** Leases are on the database's wall clock (Dialect.wallMs): a process dies in real time, whatever the service clock says. */
  constructor(
    private readonly db: Statements,
    private readonly d: Dialect,
  ) {
    const now = d.wallMs;
    this.statesStmt = db.prepare(`SELECT ${STATE_COLUMNS}, ${RAW_BODY} AS raw_body FROM webhook_deliveries d WHERE ${d.inList('d.id')}`);
    this.statesOnlyStmt = db.prepare(`SELECT ${STATE_COLUMNS}, NULL AS raw_body FROM webhook_deliveries d WHERE ${d.inList('d.id')}`);
    this.attemptStateStmt = db.prepare(`SELECT ${STATE_COLUMNS}, ${RAW_BODY} AS raw_body FROM webhook_deliveries d WHERE d.id = ?`);
    this.stateOnlyStmt = db.prepare(`SELECT ${STATE_COLUMNS}, NULL AS raw_body FROM webhook_deliveries d WHERE d.id = ?`);
    this.duePageStmt = db.prepare(
      `SELECT id, endpoint_id, next_attempt_at, seq FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?`,
    );
    this.duePageAfterStmt = db.prepare(
      `SELECT id, endpoint_id, next_attempt_at, seq FROM webhook_deliveries
       WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? AND (next_attempt_at, seq) > (CAST(? AS BIGINT), CAST(? AS BIGINT)) ORDER BY next_attempt_at, seq LIMIT ?`,
    );
    this.dueForEventsStmt = db.prepare(
      `SELECT id, endpoint_id FROM webhook_deliveries WHERE ${d.inList('event_id')} AND next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY seq`,
    );
    // On PostgreSQL the rows another claimant's open write has locked are skipped, not waited for:
    // that claimant wins them. A row whose claim committed after this transaction's snapshot fails
    // the write with 40001 and the store runs it again, when the claim is seen live.
    this.claimManyStmt = db.prepare(
      `UPDATE webhook_deliveries SET claimed_by = ?, lease_until = ${now} + ?
       WHERE id IN (
         SELECT id FROM webhook_deliveries
         WHERE ${d.inList('id')} AND next_attempt_at IS NOT NULL AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ${now} OR claimed_by = ?)
         ${d.skipLocked})
       RETURNING id`,
    );
    // Two replicas claiming one attempt at once both update the row: the later one waits for the
    // first to commit and then fails with 40001 (SERIALIZABLE); its rerun sees the live lease and
    // claims nothing.
    this.claimStmt = db.prepare(
      `UPDATE webhook_deliveries SET claimed_by = ?, lease_until = ${now} + ?
       WHERE id = ? AND next_attempt_at IS NOT NULL AND (? OR next_attempt_at <= ?) AND (lease_until IS NULL OR lease_until <= ${now} OR claimed_by = ?)`,
    );
    this.renewStmt = db.prepare(`UPDATE webhook_deliveries SET lease_until = ${now} + ? WHERE claimed_by = ? AND lease_until > ${now} AND ${d.inList('id')} RETURNING id`);
    this.leaseExpiredStmt = db.prepare(
      `SELECT id, endpoint_id FROM webhook_deliveries WHERE lease_until IS NOT NULL AND lease_until <= ${now} AND next_attempt_at IS NOT NULL ORDER BY lease_until LIMIT ?`,
    );
    this.unclaimedDueStmt = db.prepare(
      `SELECT id, endpoint_id FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? AND lease_until IS NULL ORDER BY next_attempt_at, seq LIMIT ?`,
    );
    // One statement for the batch where the engine reads it as a recordset (Dialect.recordset), else
    // one run per outcome. The outcome's id is `delivery_id`: unqualified in RETURNING, an `id` in
    // `u` would be ambiguous.
    this.recordManyStmt = d.recordset && db.prepare(
      `UPDATE webhook_deliveries AS d SET attempt = u.attempt, status = u.status, response_status = u.response_status, response_body = u.response_body,
         duration_ms = u.duration_ms, error = u.error, next_attempt_at = u.next_attempt_at, claimed_by = NULL, lease_until = NULL,
         attempts = ${APPEND_ATTEMPT('d.attempts', 'u.history')}, updated_at = u.now
       FROM ${d.recordset(OUTCOME_FIELDS)}
       WHERE d.id = u.delivery_id AND d.attempt = u.attempt - 1
       RETURNING id`,
    );
    this.recordOnceStmt = db.prepare(
      `UPDATE webhook_deliveries SET ${DELIVERIES.setSql(OUTCOME)}, claimed_by = NULL, lease_until = NULL, attempts = ${APPEND_ATTEMPT('attempts', '?')}, updated_at = ? WHERE id = ? AND attempt = ?`,
    );
    this.recordStmt = db.prepare(
      `UPDATE webhook_deliveries SET ${DELIVERIES.setSql(OUTCOME)}, claimed_by = NULL, lease_until = NULL, attempts = ${APPEND_ATTEMPT('attempts', '?')}, updated_at = ? WHERE id = ?`,
    );
    this.jobAtStmt = db.prepare('SELECT 1 FROM jobs WHERE run_at = ? AND kind = ? LIMIT 1');
    this.insertStmt = db.prepare(
      `INSERT INTO webhook_deliveries (id, endpoint_id, account_id, event_id, event_type, body, is_test, max_attempts, attempt, status, next_attempt_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 'pending', ?, ?, ?)`,
    );
    this.byIdStmt = db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?');
    this.dueForEventStmt = db.prepare(
      `SELECT id, endpoint_id FROM webhook_deliveries WHERE event_id = ? AND next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY seq`,
    );
    this.dueStmt = db.prepare(
      `SELECT id, endpoint_id FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?`,
    );
    this.eventBodyStmt = db.prepare('SELECT body FROM events WHERE id = ?');
  }

  async insert(d: NewDelivery): Promise<void> {
    await this.insertStmt.run(d.id, d.endpointId, d.accountId, d.eventId, d.eventType, d.body, this.d.flag(d.isTest), d.maxAttempts, d.createdAt, d.createdAt, d.createdAt);
  }

  async getById(id: string): Promise<DeliveryRecord | undefined> {
    const row = (await this.byIdStmt.get(id)) as Row | undefined;
    return row && DELIVERIES.read(row);
  }

  async attemptState(id: string, opts: { body: boolean } = { body: true }): Promise<DeliveryAttemptState | undefined> {
    const row = (await (opts.body ? this.attemptStateStmt : this.stateOnlyStmt).get(id)) as Row | undefined;
    return row && toAttemptState(row);
  }

  async attemptStates(ids: string[], opts: { body: boolean } = { body: true }): Promise<DeliveryAttemptState[]> {
    if (ids.length === 0) return [];
    return ((await (opts.body ? this.statesStmt : this.statesOnlyStmt).all(this.d.list(ids))) as Row[]).map(toAttemptState);
  }

  async get(accountId: string, endpointId: string, id: string): Promise<DeliveryRecord | undefined> {
    const d = await this.getById(id);
    return d && d.accountId === accountId && d.endpointId === endpointId ? d : undefined;
  }

  async list(endpointId: string, opts: { since: number; limit: number; cursor?: string; status?: DeliveryStatus }): Promise<Page<DeliveryRecord>> {
    const where = ['endpoint_id = ?', 'created_at >= ?'];
    const params: unknown[] = [endpointId, opts.since];
    if (opts.status) {
      where.push('status = ?');
      params.push(opts.status);
    }
    return await keysetPage(this.db, { from: 'webhook_deliveries', where, params, limit: opts.limit, cursor: opts.cursor, map: DELIVERIES.read });
  }

  async dueForEvent(eventId: string, now: number): Promise<DueDelivery[]> {
    return toDue(await this.dueForEventStmt.all(eventId, now));
  }

  async due(now: number, limit = 10_000): Promise<DueDelivery[]> {
    return toDue(await this.dueStmt.all(now, limit));
  }

  async duePage(now: number, limit: number, after?: DueCursor): Promise<DuePage> {
    const rows = (await (after ? this.duePageAfterStmt.all(now, after.at, after.seq, limit) : this.duePageStmt.all(now, limit))) as Array<Row & { next_attempt_at: number; seq: number }>;
    const end = rows[rows.length - 1];
    return { deliveries: toDue(rows), last: end && { at: end.next_attempt_at, seq: end.seq } };
  }

  async dueForEvents(eventIds: string[], now: number): Promise<DueDelivery[]> {
    if (eventIds.length === 0) return [];
    return toDue(await this.dueForEventsStmt.all(this.d.list(eventIds), now));
  }

  async claimAttempts(ids: string[], owner: string, leaseMs: number, now: number): Promise<string[]> {
    if (ids.length === 0) return [];
    return ((await this.claimManyStmt.all(owner, leaseMs, this.d.list(ids), now, owner)) as Array<{ id: string }>).map((r) => r.id);
  }

  async releaseClaims(owner?: string): Promise<void> {
    if (owner === undefined) await this.db.prepare('UPDATE webhook_deliveries SET claimed_by = NULL, lease_until = NULL WHERE lease_until IS NOT NULL').run();
    else await this.db.prepare('UPDATE webhook_deliveries SET claimed_by = NULL, lease_until = NULL WHERE lease_until IS NOT NULL AND claimed_by = ?').run(owner);
  }

  async claimAttempt(id: string, owner: string, leaseMs: number, now: number, anyTime: boolean): Promise<boolean> {
    return (await this.claimStmt.run(owner, leaseMs, id, this.d.flag(anyTime), now, owner)).changes === 1;
  }

  async renewClaims(owner: string, ids: string[], leaseMs: number): Promise<string[]> {
    if (ids.length === 0) return [];
    return ((await this.renewStmt.all(leaseMs, owner, this.d.list(ids))) as Array<{ id: string }>).map((r) => r.id);
  }

  async leaseExpired(limit: number): Promise<DueDelivery[]> {
    return toDue(await this.leaseExpiredStmt.all(limit));
  }

  async unclaimedDue(dueBy: number, limit: number): Promise<DueDelivery[]> {
    return toDue(await this.unclaimedDueStmt.all(dueBy, limit));
  }

  async rawBody(d: DeliveryRecord): Promise<string | undefined> {
    if (d.body !== null) return d.body;
    return (await this.eventBodyStmt.get(d.eventId) as { body: string } | undefined)?.body;
  }

  async recordAttempt(id: string, u: AttemptOutcomeUpdate): Promise<void> {
    const history = JSON.stringify(u.history);
    await this.recordStmt.run(...DELIVERIES.values(u, this.d, OUTCOME), history, history, u.now, id);
  }

  /** Each outcome written only where the attempt is still the one before (a rerun writes nothing twice). */
  async recordAttempts(updates: AttemptOutcomeWrite[]): Promise<string[]> {
    if (updates.length === 0) return [];
    if (!this.recordManyStmt) {
      const written: string[] = [];
      for (const u of updates) {
        const history = JSON.stringify(u.history);
        const { changes } = await this.recordOnceStmt.run(...DELIVERIES.values(u, this.d, OUTCOME), history, history, u.now, u.id, u.attempt - 1);
        if (changes === 1) written.push(u.id);
      }
      return written;
    }
    // In id order, as a renewal locks them on PostgreSQL: two writes of one replica's rows lock in one order.
    const rows = [...updates].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((u) => ({
      delivery_id: u.id,
      attempt: u.attempt,
      status: u.status,
      response_status: u.responseStatus,
      response_body: u.responseBody,
      duration_ms: u.durationMs,
      error: u.error,
      next_attempt_at: u.nextAttemptAt,
      history: JSON.stringify(u.history),
      now: u.now,
    }));
    return ((await this.recordManyStmt.all(JSON.stringify(rows))) as Array<{ id: string }>).map((r) => r.id);
  }

  async scheduleAttempt(id: string, at: number, status: DeliveryStatus, now: number): Promise<void> {
    await this.db.prepare('UPDATE webhook_deliveries SET next_attempt_at = ?, status = ?, updated_at = ?, claimed_by = NULL, lease_until = NULL WHERE id = ?').run(at, status, now, id);
  }

  async abandonScheduled(endpointId: string, error: string, now: number): Promise<number> {
    const res = await this.db
      .prepare(
        "UPDATE webhook_deliveries SET status = 'abandoned', next_attempt_at = NULL, claimed_by = NULL, lease_until = NULL, error = ?, updated_at = ? WHERE endpoint_id = ? AND next_attempt_at IS NOT NULL",
      )
      .run(error, now, endpointId);
    return res.changes;
  }

  async abandon(id: string, error: string, now: number): Promise<void> {
    await this.db.prepare("UPDATE webhook_deliveries SET status = 'abandoned', next_attempt_at = NULL, claimed_by = NULL, lease_until = NULL, error = ?, updated_at = ? WHERE id = ?").run(error, now, id);
  }

  async eventsLastIn(endpointId: string, status: DeliveryStatus, since: number, limit: number): Promise<string[]> {
    const sql = `SELECT d.event_id FROM webhook_deliveries d
        WHERE d.endpoint_id = ? AND NOT d.is_test AND d.status = ? AND d.created_at >= ?
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries n WHERE n.event_id = d.event_id AND n.endpoint_id = d.endpoint_id AND n.seq > d.seq)
        ORDER BY d.seq LIMIT ?`;
    return ((await this.db.prepare(sql).all(endpointId, status, since, limit)) as Array<{ event_id: string }>).map((r) => r.event_id);
  }

  async purgeFinishedBefore(cutoff: number): Promise<number> {
    return (await this.db.prepare('DELETE FROM webhook_deliveries WHERE created_at < ? AND next_attempt_at IS NULL').run(cutoff)).changes;
  }

  async hasJobAt(kind: string, runAt: number): Promise<boolean> {
    return await this.jobAtStmt.get(runAt, kind) !== undefined;
  }
}
