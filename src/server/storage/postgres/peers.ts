import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { ChangeHint, EventHint, StorePeers } from '../store.js';
import { DB_NOW_MS, Sql } from './sql.js';
import { sequenceStragglers } from './feed-order.js';
import { CHANGES_CHANNEL, EVENTS_CHANNEL, STATE_CHANNEL, SYNC_CHANNEL } from './channels.js';
import { Reachability } from './reachability.js';
import { PG_CONNECT_TIMEOUT_MS } from './database.js';

/** The payload of a service_state write's notification: sender, key. */
export const stateNotice = (sender: string, key: string): string => `${sender} ${key}`;
/** The payload of a change's notification: sender, account, kind, id, and a message's status when it has one. */
export const changeNotice = (sender: string, c: ChangeHint): string => [sender, c.accountId, c.kind, c.id, ...(c.status ? [c.status] : [])].join(' ');
/** The key of STATE_CHANNEL's notice that a replica joined or left: the others count again at once. */
export const REPLICAS_NOTICE_KEY = 'replicas';

export interface PgPeersOptions {
  /** How often this replica notes itself in `replicas` and counts the others (default 2 s). */
  heartbeatMs?: number;
  /** Whether the server answers, shared with the store: the heartbeat and the listening connection note what they see. */
  reachability?: Reachability;
}

/** A replica not seen for this many heartbeats is counted gone. */
const MISSED_HEARTBEATS = 3;
/**
 * The longest `sync` waits for a replica counted alive that does not answer (its listening connection
 * lost and coming back; one that died stops being waited for once it is counted gone).
 */
const SYNC_BOUND_MS = 5000;
/** Pauses between attempts to get the listening connection back: growing, at most 5 s. */
const RECONNECT_MAX_MS = 5000;

/**
 * The replicas sharing a PostgreSQL database, as this one sees them.
 *
 * - Notifications: a dedicated client (not the pool's: LISTEN belongs to a session) listens on
 *   EVENTS_CHANNEL and STATE_CHANNEL. Writers notify inside a transaction (the service_state
 *   repository; an event's notice, `sender account type id`, by the numbering that gives it its feed
 *   position: feed-order.ts), so a notification arrives only after its commit, and never for a
 *   write rolled back. Its own notifications are dropped by the sender id. A lost connection (the
 *   server stopped or restarted, the link cut) is opened again (growing pauses, at most
 *   RECONNECT_MAX_MS); once back, `onResync` listeners re-read what they hold, since notifications
 *   sent meanwhile are gone, and the replica beats and tells the others at once, so they count it
 *   again without waiting for its next beat.
 * - Heartbeats: every `heartbeatMs` the replica writes its row in `replicas` (the database's clock)
 *   and counts the rows seen within MISSED_HEARTBEATS beats: `count()` answers from that, with no
 *   query per request (the rate limits read it on every request).
 */
export class PgPeers implements StorePeers {
  /** Replicas: each runs jobs and makes attempts on the one database. */
  readonly shared = true;
  readonly processId = randomUUID();
  private readonly eventListeners: Array<(hint: EventHint) => void> = [];
  private readonly stateListeners: Array<(key: string) => void | Promise<unknown>> = [];
  /** What this replica's state listeners are still doing (a clock being read): a sync answer waits for it. */
  private readonly handling = new Set<Promise<unknown>>();
  /** This replica's syncs under way, by token: who answered, and what to call once all did. */
  private readonly syncs = new Map<string, { answered: Set<string>; check(): void }>();
  private readonly changeListeners: Array<(hint: ChangeHint) => void> = [];
  private readonly resyncListeners: Array<() => void> = [];
  private readonly quiesceHooks: Array<() => Promise<void>> = [];
  private client: pg.Client | undefined;
  private closed = false;
  private reconnectDelay = 50;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private alive = 1;
  private readonly heartbeatMs: number;
  private readonly reachability: Reachability;

  constructor(
    private readonly url: string,
    private readonly pool: pg.Pool,
    opts: PgPeersOptions = {},
  ) {
    this.heartbeatMs = opts.heartbeatMs ?? 2000;
    this.reachability = opts.reachability ?? new Reachability();
  }

  /** Listens and beats once before resolving: a replica that serves already counts the others. */
  async start(): Promise<void> {
    await this.listen();
    await this.beat();
    // The others count this one now, not at their next beat: until then each would enforce a share
    // too large, and a client alternating between replicas would get more than the limit.
    await this.tellOthers();
    // A beat that fails (the server unreachable) is noted and tried again at the next; one that
    // succeeds says the server is back, idle or not.
    this.heartbeatTimer = setInterval(() => void this.beatNoted(), this.heartbeatMs);
    this.heartbeatTimer.unref();
  }

  onEvent(fn: (hint: EventHint) => void): void {
    this.eventListeners.push(fn);
  }

  onState(fn: (key: string) => void | Promise<unknown>): void {
    this.stateListeners.push(fn);
  }

  onChange(fn: (hint: ChangeHint) => void): void {
    this.changeListeners.push(fn);
  }

  /**
   * Only while another replica is alive (a lone replica pays no query per change); after the commit,
   * outside the transaction: a console page's hint, lost with the process like any live update.
   */
  tellChange(hint: ChangeHint): void {
    if (this.closed || this.alive <= 1) return;
    this.changesToTell.push(changeNotice(this.processId, hint));
    if (!this.tellingChanges) void this.tellChanges();
  }

  /** Hints told since the last statement left; `tellingChanges` while one is in flight. */
  private changesToTell: string[] = [];
  private tellingChanges = false;

  /**
   * One statement in flight at a time, the hints heard meanwhile told by the next, in order: a
   * statement per hint on the pool's clients could arrive in any order (a message's `sending` after
   * the call's change committed later: seen in a CI run), and a burst would take as many clients.
   */
  private async tellChanges(): Promise<void> {
    this.tellingChanges = true;
    while (this.changesToTell.length > 0 && !this.closed) {
      const batch = this.changesToTell;
      this.changesToTell = [];
      await this.pool.query('SELECT pg_notify($1, n) FROM unnest($2::text[]) WITH ORDINALITY AS t(n, i) ORDER BY i', [CHANGES_CHANNEL, batch]).catch(() => undefined);
    }
    this.tellingChanges = false;
  }

  onResync(fn: () => void): void {
    this.resyncListeners.push(fn);
  }

  count(): number {
    return this.alive;
  }

  /**
   * A notice on SYNC_CHANNEL after the caller's commits: PostgreSQL delivers notifications in commit
   * order, so each other replica hears it after what those commits told, and answers once its
   * listeners have handled that (`handling` settled). Resolves when every other replica counted alive
   * answered (a recount that drops a dead one ends the wait too), or after SYNC_BOUND_MS.
   */
  async sync(): Promise<void> {
    await this.ask('', SYNC_BOUND_MS);
  }

  onQuiesce(fn: () => Promise<void>): void {
    this.quiesceHooks.push(fn);
  }

  /** A `sync` whose answers also wait for the others' `onQuiesce` hooks (`<process> <token> quiesce`). */
  async quiesce(boundMs: number): Promise<void> {
    await this.ask(' quiesce', boundMs);
  }

  private async ask(kind: '' | ' quiesce', boundMs: number): Promise<void> {
    if (this.closed || this.alive <= 1) return;
    const token = randomUUID();
    await new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(bound);
        this.syncs.delete(token);
        resolve();
      };
      const bound = setTimeout(finish, boundMs);
      const entry = { answered: new Set<string>(), check: () => entry.answered.size >= this.alive - 1 && finish() };
      this.syncs.set(token, entry);
      this.pool.query('SELECT pg_notify($1, $2)', [SYNC_CHANNEL, `${this.processId} ${token}${kind}`]).catch(finish);
    });
  }

  /** Stops listening and beating, and removes this replica's row (the others' shares grow at once). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeatTimer);
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
    await this.pool.query('DELETE FROM replicas WHERE id = $1', [this.processId]).catch(() => undefined);
    await this.tellOthers().catch(() => undefined);
  }

  /** Notifies the other replicas that this one joined or left (REPLICAS_NOTICE_KEY). */
  private async tellOthers(): Promise<void> {
    await this.pool.query('SELECT pg_notify($1, $2)', [STATE_CHANNEL, stateNotice(this.processId, REPLICAS_NOTICE_KEY)]);
  }

  /** Counts the replicas seen within MISSED_HEARTBEATS beats (`count()` answers from it). */
  private async recount(): Promise<void> {
    const window = this.heartbeatMs * MISSED_HEARTBEATS;
    const { rows } = await this.pool.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM replicas WHERE seen_at > ${DB_NOW_MS} - $1`, [window]);
    this.alive = Math.max(1, rows[0]!.n);
    for (const waiting of [...this.syncs.values()]) waiting.check();
  }

  private async beatNoted(): Promise<void> {
    await this.beat().then(
      () => this.reachability.answered(),
      (err: unknown) => void this.reachability.failed(err),
    );
  }

  private async beat(): Promise<void> {
    if (this.closed) return;
    await this.pool.query(`INSERT INTO replicas (id, seen_at) VALUES ($1, ${DB_NOW_MS}) ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`, [this.processId]);
    await this.recount();
    // Rows of replicas long gone (each start is a new id) are dropped; the table stays a few rows.
    await this.pool.query(`DELETE FROM replicas WHERE seen_at < ${DB_NOW_MS} - 3600000`);
    // Events a process committed but died before numbering join the feed (feed-order.ts).
    await sequenceStragglers(new Sql(this.pool));
  }

  private async listen(): Promise<void> {
    // Bounded in connecting, and probed when idle, as the pool's clients are (database.ts).
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    // Always listened to: an 'error' with no listener would end the process.
    client.on('error', (err) => {
      this.reachability.failed(err);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    client.on('notification', (n) => this.heard(n.channel, n.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}; LISTEN ${STATE_CHANNEL}; LISTEN ${CHANGES_CHANNEL}; LISTEN ${SYNC_CHANNEL}`);
    } catch (err) {
      this.reachability.failed(err);
      await client.end().catch(() => undefined);
      throw err;
    }
    this.reachability.answered();
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.reconnectDelay = 50;
  }

  private lost(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    void client.end().catch(() => undefined);
    this.reconnectSoon();
  }

  /**
   * Listening again after a loss: what was held is read again (notifications sent meanwhile are
   * gone), and the others hear of this replica at once (a beat, then a notice: they may have counted
   * it gone while it could not beat).
   */
  private rejoined(): void {
    for (const fn of this.resyncListeners) fn();
    void this.beatNoted().then(() => (this.closed ? undefined : this.tellOthers().catch(() => undefined)));
  }

  private reconnectSoon(): void {
    if (this.closed) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
    this.reconnectTimer = setTimeout(() => {
      this.listen().then(
        () => this.rejoined(),
        () => this.reconnectSoon(),
      );
    }, delay);
    this.reconnectTimer.unref();
  }

  private heard(channel: string, payload: string): void {
    const parts = payload.split(' ');
    if (parts[0] === this.processId) return; // its own commit: heard in process already
    if (channel === SYNC_CHANNEL) return this.heardSync(parts);
    if (channel === EVENTS_CHANNEL && parts.length === 4) {
      const hint = { accountId: parts[1]!, type: parts[2]!, id: parts[3]! };
      for (const fn of this.eventListeners) fn(hint);
    } else if (channel === CHANGES_CHANNEL && (parts.length === 4 || parts.length === 5) && (parts[2] === 'call' || parts[2] === 'message' || parts[2] === 'sink')) {
      const hint: ChangeHint = { accountId: parts[1]!, kind: parts[2], id: parts[3]!, ...(parts[4] ? { status: parts[4] } : {}) };
      for (const fn of this.changeListeners) fn(hint);
    } else if (channel === STATE_CHANNEL && parts.length === 2 && parts[1] === REPLICAS_NOTICE_KEY) {
      if (!this.closed) void this.recount().catch(() => undefined); // the next beat counts again anyway
    } else if (channel === STATE_CHANNEL && parts.length === 2) {
      for (const fn of this.stateListeners) this.track(fn(parts[1]!));
    }
  }

  private track(work: void | Promise<unknown>): void {
    if (!work) return;
    const settled: Promise<unknown> = work.then(
      (): void => void this.handling.delete(settled),
      (): void => void this.handling.delete(settled),
    );
    this.handling.add(settled);
  }

  /** Another replica's sync or quiesce request (answered once what was heard before it is handled, and a quiesce's hooks), or an answer to ours. */
  private heardSync(parts: string[]): void {
    if (parts.length === 2 || (parts.length === 3 && parts[2] === 'quiesce')) {
      const token = parts[1]!;
      const quiesce = parts.length === 3;
      void Promise.allSettled([...this.handling])
        .then(() => (quiesce ? Promise.allSettled(this.quiesceHooks.map((fn) => fn())) : undefined))
        .then(() => {
          if (!this.closed) void this.pool.query('SELECT pg_notify($1, $2)', [SYNC_CHANNEL, `${this.processId} ${token} done`]).catch(() => undefined);
        });
    } else if (parts.length === 3 && parts[2] === 'done') {
      const entry = this.syncs.get(parts[1]!);
      entry?.answered.add(parts[0]!);
      entry?.check();
    }
  }
}
