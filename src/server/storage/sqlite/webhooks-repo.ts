import type { Db } from './database.js';
import type { WebhookEndpointRecord, EndpointRoute, EndpointTarget, WebhookEndpointPatch, WebhookEndpointsRepo } from '../webhooks-repo.js';
import { EndpointRow, toRecord, COLUMNS } from '../rows/webhooks.js';

export class SqliteWebhookEndpointsRepo implements WebhookEndpointsRepo {
  private readonly enabledStmt;
  private readonly byIdStmt;
  private readonly successStmt;
  private readonly failureStmt;
  constructor(private readonly db: Db) {
    this.successStmt = db.prepare('UPDATE webhook_endpoints SET consecutive_failures = 0, failing_since = NULL, last_success_at = ? WHERE id = ?');
    this.failureStmt = db.prepare(
      'UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 1, failing_since = COALESCE(failing_since, ?) WHERE id = ?',
    );
    // Prepared once: the outbox reads the account's endpoints inside every event's transaction.
    this.enabledStmt = db.prepare('SELECT * FROM webhook_endpoints WHERE account_id = ? AND enabled = 1 ORDER BY seq');
    this.byIdStmt = db.prepare('SELECT * FROM webhook_endpoints WHERE id = ?');
  }

  async insert(e: WebhookEndpointRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO webhook_endpoints (id, account_id, url, events, description, secret, enabled, disabled_at, disabled_reason,
           consecutive_failures, failing_since, last_success_at, mode, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        e.id, e.accountId, e.url, JSON.stringify(e.events), e.description, e.secret, e.enabled ? 1 : 0, e.disabledAt, e.disabledReason,
        e.consecutiveFailures, e.failingSince, e.lastSuccessAt, e.mode, e.createdAt, e.updatedAt,
      );
    this.routesChanged();
  }

  /** Scoped to the account: another account's endpoint is as good as missing (spec: Authentication 6). */
  async get(accountId: string, id: string): Promise<WebhookEndpointRecord | undefined> {
    const row = this.byIdStmt.get(id) as EndpointRow | undefined;
    return row && row.account_id === accountId ? toRecord(row) : undefined;
  }

  /** Unscoped. */
  async getById(id: string): Promise<WebhookEndpointRecord | undefined> {
    const row = this.byIdStmt.get(id) as EndpointRow | undefined;
    return row && toRecord(row);
  }

  /**
   * Unscoped, for the delivery worker's every attempt: kept in memory like the routes below (reading
   * and parsing the row per attempt was 3.1 % of a delivery burst's profile), and cleared the same way.
   */
  async targetById(id: string): Promise<EndpointTarget | undefined> {
    const cached = this.targets.get(id);
    if (cached) return cached;
    const row = this.byIdStmt.get(id) as EndpointRow | undefined;
    if (!row) return undefined;
    const { accountId, url, events, secret, createdAt, enabled, disabledReason } = toRecord(row);
    const target = Object.freeze({ id, accountId, url, events: Object.freeze(events) as string[], secret, createdAt, enabled, disabledReason });
    if (!this.writeUnsettled) this.targets.set(id, target);
    return target;
  }

  /** Every endpoint of the account, newest first (a bounded list). */
  async listEnabled(): Promise<WebhookEndpointRecord[]> {
    return (this.db.prepare('SELECT * FROM webhook_endpoints WHERE enabled = 1 ORDER BY seq').all() as EndpointRow[]).map(toRecord);
  }

  async listForAccount(accountId: string): Promise<WebhookEndpointRecord[]> {
    return (this.db.prepare('SELECT * FROM webhook_endpoints WHERE account_id = ? ORDER BY created_at DESC, seq DESC').all(accountId) as EndpointRow[]).map(toRecord);
  }

  async countForAccount(accountId: string): Promise<number> {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM webhook_endpoints WHERE account_id = ?').get(accountId) as { n: number }).n;
  }

  /**
   * The account's enabled endpoints, as routes, oldest first. Read for every event (the outbox, in
   * the event's transaction), so they are kept in memory per account (reading and parsing
   * them each time is 5.7 % of the service's time in a delivery burst). Only routing fields are given, and
   * only insert, update and delete change them; the streak counters (`recordOutcome`, written on
   * every attempt) are not part of a route and do not invalidate it.
   *
   * A write clears the cache, and until the transaction that wrote has ended (it may roll back) no
   * read fills it: better-sqlite3's transactions are synchronous, so by the next macrotask it has.
   */
  async enabledForAccount(accountId: string): Promise<EndpointRoute[]> {
    const cached = this.routes.get(accountId);
    if (cached) return cached;
    const routes = (this.enabledStmt.all(accountId) as EndpointRow[]).map((r): EndpointRoute => {
      const { id, accountId: owner, url, events, secret, createdAt } = toRecord(r);
      return Object.freeze({ id, accountId: owner, url, events: Object.freeze(events) as string[], secret, createdAt });
    });
    if (!this.writeUnsettled) this.routes.set(accountId, routes);
    return routes;
  }

  private readonly routes = new Map<string, EndpointRoute[]>();
  private readonly targets = new Map<string, EndpointTarget>();
  private writeUnsettled = false;

  /** Every row may have changed behind the repository's back (a reset point restored: store.ts `exclusive`). */
  forgetCached(): void {
    this.routes.clear();
    this.targets.clear();
  }

  private routesChanged(): void {
    this.routes.clear();
    this.targets.clear();
    if (this.writeUnsettled) return;
    this.writeUnsettled = true;
    const settle = () => {
      if (this.db.inTransaction) {
        setImmediate(settle);
        return;
      }
      // The writing transaction has ended (committed or rolled back): whatever a read finds now is
      // the database's, so reads may fill the cache again. Anything filled meanwhile was not kept.
      this.routes.clear();
      this.targets.clear();
      this.writeUnsettled = false;
    };
    setImmediate(settle);
  }

  async update(id: string, patch: WebhookEndpointPatch, now: number): Promise<void> {
    const sets: string[] = ['updated_at = ?'];
    const params: unknown[] = [now];
    for (const [key, value] of Object.entries(patch) as Array<[keyof WebhookEndpointPatch, unknown]>) {
      if (value === undefined) continue;
      sets.push(`${COLUMNS[key]} = ?`);
      params.push(key === 'events' ? JSON.stringify(value) : key === 'enabled' ? (value ? 1 : 0) : value);
    }
    this.db.prepare(`UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE id = ?`).run(...params, id);
    this.routesChanged();
  }

  /** Streak bookkeeping that must not bump updatedAt (it is not a change the user made). */
  async recordOutcome(id: string, succeeded: boolean, at: number): Promise<void> {
    if (succeeded) this.successStmt.run(at, id);
    else this.failureStmt.run(at, id);
  }

  async delete(id: string): Promise<void> {
    this.db.prepare('DELETE FROM webhook_endpoints WHERE id = ?').run(id);
    this.routesChanged();
  }
}
