import type { Dialect, HeldReads, Statements } from './statements.js';
import type { WebhookEndpointRecord, EndpointRoute, EndpointTarget, WebhookEndpointPatch, WebhookEndpointsRepo } from '../webhooks-repo.js';
import { asIs, json, table, yesNo, type Row } from './table.js';

const ENDPOINTS = table<WebhookEndpointRecord>('webhook_endpoints', {
  id: asIs,
  accountId: asIs,
  url: asIs,
  events: json,
  description: asIs,
  secret: asIs,
  enabled: yesNo,
  disabledAt: asIs,
  disabledReason: asIs,
  consecutiveFailures: asIs,
  failingSince: asIs,
  lastSuccessAt: asIs,
  mode: asIs,
  createdAt: asIs,
  updatedAt: asIs,
});

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
    await this.db.prepare(ENDPOINTS.insertSql()).run(...ENDPOINTS.values(e, this.d));
  }

  async get(accountId: string, id: string): Promise<WebhookEndpointRecord | undefined> {
    const row = (await this.byIdStmt.get(id)) as Row | undefined;
    return row && row.account_id === accountId ? ENDPOINTS.read(row) : undefined;
  }

  async getById(id: string): Promise<WebhookEndpointRecord | undefined> {
    const row = (await this.byIdStmt.get(id)) as Row | undefined;
    return row && ENDPOINTS.read(row);
  }

  /**
   * Unscoped, for the delivery worker's every attempt: held like the routes below (reading and parsing
   * the row per attempt was 3.1 % of a delivery burst's profile on SQLite).
   */
  async targetById(id: string): Promise<EndpointTarget | undefined> {
    return await this.cache.get(`t ${id}`, async () => {
      const row = (await this.byIdStmt.get(id)) as Row | undefined;
      if (!row) return undefined;
      const { accountId, url, events, secret, createdAt, enabled, disabledReason } = ENDPOINTS.read(row);
      return Object.freeze({ id, accountId, url, events: Object.freeze(events) as string[], secret, createdAt, enabled, disabledReason });
    });
  }

  async listEnabled(): Promise<WebhookEndpointRecord[]> {
    return ((await this.db.prepare('SELECT * FROM webhook_endpoints WHERE enabled ORDER BY seq').all()) as Row[]).map(ENDPOINTS.read);
  }

  async listForAccount(accountId: string): Promise<WebhookEndpointRecord[]> {
    return ((await this.db.prepare('SELECT * FROM webhook_endpoints WHERE account_id = ? ORDER BY created_at DESC, seq DESC').all(accountId)) as Row[]).map(ENDPOINTS.read);
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
      Object.freeze(((await this.enabledStmt.all(accountId)) as Row[]).map((r): EndpointRoute => {
        const { id, accountId: owner, url, events, secret, createdAt } = ENDPOINTS.read(r);
        return Object.freeze({ id, accountId: owner, url, events: Object.freeze(events) as string[], secret, createdAt });
      })) as EndpointRoute[],
    );
  }

  async update(id: string, patch: WebhookEndpointPatch, now: number): Promise<void> {
    this.cache.changed();
    const fields: Array<keyof WebhookEndpointRecord> = ['updatedAt', ...(Object.keys(patch) as Array<keyof WebhookEndpointPatch>).filter((k) => patch[k] !== undefined)];
    await this.db
      .prepare(`UPDATE webhook_endpoints SET ${ENDPOINTS.setSql(fields)} WHERE id = ?`)
      .run(...ENDPOINTS.values({ ...patch, updatedAt: now }, this.d, fields), id);
  }

  async recordOutcome(id: string, succeeded: boolean, at: number): Promise<void> {
    if (succeeded) await this.successStmt.run(at, id);
    else await this.failureStmt.run(at, id);
  }

  async delete(id: string): Promise<void> {
    this.cache.changed();
    await this.db.prepare('DELETE FROM webhook_endpoints WHERE id = ?').run(id);
  }
}
