import type { Dialect, HeldReads, Statements } from './statements.js';
import type { WebhookEndpointRecord, EndpointRoute, EndpointTarget, WebhookEndpointPatch, WebhookEndpointsRepo } from '../webhooks-repo.js';
import { EndpointRow, toRecord, COLUMNS } from '../rows/webhooks.js';

export class SqlWebhookEndpointsRepo implements WebhookEndpointsRepo {
  private readonly enabledStmt;
  private readonly byIdStmt;
  private readonly successStmt;
  private readonly failureStmt;
  /**
   * An account's routes (`r `) and an endpoint's target (`t `), frozen (Dialect.heldReads). Only
   * insert, update and delete change them; the streak counters (`recordOutcome`, written on every
   * attempt) are part of neither and do not forget them.
   */
  readonly cache: HeldReads;
  constructor(
    private readonly db: Statements,
    private readonly d: Dialect,
  ) {
    this.cache = d.heldReads(db, 'webhook-endpoints');
    this.successStmt = db.prepare('UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL, last_success_at = ? WHERE id = ?');
    this.failureStmt = db.prepare(
      'UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1, failing_since = COALESCE(failing_since, ?) WHERE id = ?',
    );
    // Prepared once: the outbox reads the account's endpoints inside every event's transaction.
    this.enabledStmt = db.prepare('SELECT * FROM webhook_endpoints WHERE account_id = ? AND enabled ORDER BY seq');
    this.byIdStmt = db.prepare('SELECT * FROM webhook_endpoints WHERE id = ?');
  }

  async insert(e: WebhookEndpointRecord): Promise<void> {
    this.cache.changed();
    await this.db
      .prepare(
        `INSERT INTO webhook_endpoints (id, account_id, url, events, description, secret, enabled, disabled_at, disabled_reason,
           consecutive_failures, failing_since, last_success_at, mode, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        e.id, e.accountId, e.url, JSON.stringify(e.events), e.description, e.secret, this.d.flag(e.enabled), e.disabledAt, e.disabledReason,
        e.consecutiveFailures, e.failingSince, e.lastSuccessAt, e.mode, e.createdAt, e.updatedAt,
      );
  }

  /** Scoped to the account: another account's endpoint is as good as missing (spec: Authentication 6). */
  async get(accountId: string, id: string): Promise<WebhookEndpointRecord | undefined> {
    const row = await this.byIdStmt.get(id) as EndpointRow | undefined;
    return row && row.account_id === accountId ? toRecord(row) : undefined;
  }

  /** Unscoped. */
  async getById(id: string): Promise<WebhookEndpointRecord | undefined> {
    const row = await this.byIdStmt.get(id) as EndpointRow | undefined;
    return row && toRecord(row);
  }

  /**
   * Unscoped, for the delivery worker's every attempt: held like the routes below (reading and parsing
   * the row per attempt was 3.1 % of a delivery burst's profile on SQLite).
   */
  async targetById(id: string): Promise<EndpointTarget | undefined> {
    return await this.cache.get(`t ${id}`, async () => {
      const row = await this.byIdStmt.get(id) as EndpointRow | undefined;
      if (!row) return undefined;
      const { accountId, url, events, secret, createdAt, enabled, disabledReason } = toRecord(row);
      return Object.freeze({ id, accountId, url, events: Object.freeze(events) as string[], secret, createdAt, enabled, disabledReason });
    });
  }

  /** Every endpoint of the account, newest first (a bounded list). */
  async listEnabled(): Promise<WebhookEndpointRecord[]> {
    return (await this.db.prepare('SELECT * FROM webhook_endpoints WHERE enabled ORDER BY seq').all() as EndpointRow[]).map(toRecord);
  }

  async listForAccount(accountId: string): Promise<WebhookEndpointRecord[]> {
    return (await this.db.prepare('SELECT * FROM webhook_endpoints WHERE account_id = ? ORDER BY created_at DESC, seq DESC').all(accountId) as EndpointRow[]).map(toRecord);
  }

  async countForAccount(accountId: string): Promise<number> {
    return (await this.db.prepare('SELECT COUNT(*) AS n FROM webhook_endpoints WHERE account_id = ?').get(accountId) as { n: number }).n;
  }

  /**
   * The account's enabled endpoints, as routes, oldest first. Read for every event (the outbox, in
   * the event's transaction), so they are held (reading and parsing them each time is 5.7 % of the
   * service's time in a delivery burst on SQLite; a send's two events read them once on PostgreSQL).
   * Only routing fields are given.
   */
  async enabledForAccount(accountId: string): Promise<EndpointRoute[]> {
    return await this.cache.get(`r ${accountId}`, async () =>
      Object.freeze((await this.enabledStmt.all(accountId) as EndpointRow[]).map((r): EndpointRoute => {
        const { id, accountId: owner, url, events, secret, createdAt } = toRecord(r);
        return Object.freeze({ id, accountId: owner, url, events: Object.freeze(events) as string[], secret, createdAt });
      })) as EndpointRoute[],
    );
  }

  async update(id: string, patch: WebhookEndpointPatch, now: number): Promise<void> {
    this.cache.changed();
    const sets: string[] = ['updated_at = ?'];
    const params: unknown[] = [now];
    for (const [key, value] of Object.entries(patch) as Array<[keyof WebhookEndpointPatch, unknown]>) {
      if (value === undefined) continue;
      sets.push(`${COLUMNS[key]} = ?`);
      params.push(key === 'events' ? JSON.stringify(value) : typeof value === 'boolean' ? this.d.flag(value) : value);
    }
    await this.db.prepare(`UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE id = ?`).run(...params, id);
  }

  /** Streak bookkeeping that must not bump updatedAt (it is not a change the user made). */
  async recordOutcome(id: string, succeeded: boolean, at: number): Promise<void> {
    if (succeeded) await this.successStmt.run(at, id);
    else await this.failureStmt.run(at, id);
  }

  async delete(id: string): Promise<void> {
    this.cache.changed();
    await this.db.prepare('DELETE FROM webhook_endpoints WHERE id = ?').run(id);
  }
}
