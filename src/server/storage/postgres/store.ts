import { PgMediaStore } from './media-store.js';
import { NO_NOTICES, alonePeers } from '../process-alone.js';
import type { MediaStore } from '../media-store.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { ReadOptions, Repositories, Store, StorePeers, Transaction, WriteOptions } from '../store.js';
import { pgRepositories } from './repositories.js';
import { Sql, type Queryable } from './sql.js';
import { ContentionError, DatabaseUnavailableError } from '../storage-errors.js';
import { Reachability } from './reachability.js';
import { FeedNumbering, sequenceFeed } from './feed-order.js';

/**
 * SQLSTATEs that mean "this transaction lost a race, run it again": a serialization failure
 * (40001) and a deadlock the server broke by aborting this side (40P01).
 */
const RETRYABLE = new Set(['40001', '40P01']);
const isRetryable = (err: unknown): boolean => RETRYABLE.has((err as { code?: string } | null)?.code ?? '');

/**
 * Attempts of one write before its conflict is reported (each after a short, growing, random pause).
 * Sized for a burst on one hot record (a wallet) from every replica's pool: the last writes of the
 * burst wait for all the others to commit. Measured: 200 concurrent sends on one wallet
 * through two replicas (2 × 10 connections) took up to 12 attempts; 10 left 5-11 of them a 429.
 */
export const MAX_WRITE_ATTEMPTS = 30;

export interface PgStoreOptions {
  /** As SqliteStoreOptions: refuse outside calls, and top-level reads and writes, from inside a transaction (tests). */
  guardOutsideCalls?: boolean;
  /** The other replicas on this database; this one's writes notify them under its id. */
  peers?: StorePeers & { close(): Promise<void> };
  /** Write groups run at once (`PgStore.startGroups`); `groupSlotsFor` the pool's size by default. */
  groupSlots?: number;
  /** Whether the server answers, shared with `peers` (its heartbeat and listening connection see it too). */
  reachability?: Reachability;
  /** GROUP_JOIN_WINDOW_MS but in tests of the groups themselves. */
  groupJoinWindowMs?: number;
  /** Called once when the store closes (a diagnostic watcher stopping: open.ts). */
  onClose?: () => void;
}

/**
 * What this store's transactions cost: counted in the process, no server extension
 * needed. Read by the benchmark (bench/messages.mjs, BENCH_STORE=postgres) to tell round trips per
 * request and lost races apart; nothing in the service reads it.
 */
export interface PgStoreCounters {
  /** `write` calls. */
  writes: number;
  /** Write transactions run: a write lost to a concurrent one (40001/40P01) runs again; a group is one. */
  attempts: number;
  /** Writes run again after losing a race (a group's lost race counts once, in `groupsUndone`). */
  retries: number;
  /** `read` calls. */
  reads: number;
  /**
   * Waits for the server: a statement sent while none of its client's was in flight starts one;
   * statements sent while one is (a transaction's BEGIN with its first statement, its COMMIT with the
   * feed numbering, reads the domain asks for at once) share it. A read's end, not waited for, is none.
   */
  roundTrips: number;
  /** Statements sent, BEGIN and COMMIT included (each costs the server a parse of its message and an answer). */
  statements: number;
  /** Writes to the server's sockets, as the sockets make them: the statements a client is asked for in one turn leave in one (`Tracked.corkForTurn`). */
  socketWrites: number;
  /** Feed numbering calls (`svc_sequence_feed`): one per account per batch of writes committed together (feed-order.ts). */
  numberings: number;
  /** Groups of writes committed together (`PgStore.startGroups`), and groups rolled back to run their writes alone. */
  groups: number;
  groupsUndone: number;
}

/**
 * A pooled client in pipeline mode (database.ts) that counts its round trips and statements, notes a
 * retryable failure even when the domain catches the error it caused, and sends its transaction's
 * BEGIN with the first statement (every wait for the server costs the send ~100-200 µs of
 * this process's CPU in socket writes and reads, and BEGIN's answer carries nothing to wait for).
 */
class Tracked implements Queryable {
  conflict = false;
  /** A BEGIN not sent yet: it goes out with the first statement, in the same socket write. */
  private pendingBegin: string | undefined;
  /**
   * Statements waited for, sent and not answered yet: one sent while none is starts a round trip. A
   * statement no one waits for (a read's ROLLBACK) is not one: the client outlives the read (bind),
   * and the next transaction's first statement, queued behind it, is still a wait of its own.
   */
  private waiting = 0;
  constructor(
    private readonly client: pg.PoolClient,
    private readonly counters: PgStoreCounters,
  ) {
    // Counted where the socket writes (a corked flush is one _writev; an uncorked write one _write).
    const socket = (client as unknown as { connection?: { stream?: Record<'_write' | '_writev', ((...args: unknown[]) => unknown) | undefined> } }).connection?.stream;
    for (const method of ['_write', '_writev'] as const) {
      const original = socket?.[method];
      if (!socket || typeof original !== 'function') continue;
      socket[method] = (...args: unknown[]) => {
        counters.socketWrites++;
        return original.apply(socket, args);
      };
    }
  }

  /** Ready for the client's next transaction or read: what the last one left is forgotten. */
  reset(): void {
    this.conflict = false;
    this.pendingBegin = undefined;
    this.left = Infinity;
  }

  /** Opens the transaction with the first statement (a transaction that sends none never opens). */
  deferBegin(text: string): void {
    this.pendingBegin = text;
  }

  /** Refuses a second statement: a read run with no transaction has no snapshot to share between two. */
  allowOneStatement(): void {
    this.left = 1;
  }
  private left = Infinity;

  /** Whether a statement was sent since `deferBegin`: a transaction that sent none has nothing to commit. */
  get begun(): boolean {
    return this.pendingBegin === undefined;
  }

  /**
   * Runs `send`, whose statements are all asked for synchronously, with the socket corked: they leave
   * in one write, and the server answers them in order (pipeline mode: each still has its own Sync,
   * so a failing one fails alone and, inside a transaction, aborts it as it would sent alone).
   */
  together<T>(send: () => T): T {
    const stream = (this.client as unknown as { connection?: { stream?: { cork?: () => void; uncork?: () => void } } }).connection?.stream;
    stream?.cork?.();
    try {
      return send();
    } finally {
      stream?.uncork?.();
    }
  }

  async query(config: { text: string; values: unknown[]; name?: string }): Promise<pg.QueryResult> {
    const begin = this.pendingBegin;
    if (begin !== undefined) {
      this.pendingBegin = undefined;
      const [opened, result] = this.together(() => [this.send({ text: begin, values: [] }), this.send(config)] as const);
      // Both settle; BEGIN's failure (a broken connection) is the one to report.
      await opened.catch(async (err: unknown) => {
        await result.catch(() => undefined);
        throw err;
      });
      return await result;
    }
    return await this.send(config);
  }

  /**
   * Holds what this client writes until the microtasks of the current turn have run, then sends it in
   * one socket write. pg writes each statement to the socket as it is asked for; a
   * statement asked for once the one before it returned (a write's answer recorded unawaited, then the
   * next write of its group starting) was a socket write of its own, and each write to the database
   * server's socket woke one of its processes, which on a busy machine took the CPU from this one
   * there and then: 38 % of the API process's samples were spent inside those writes under send load.
   */
  private corkForTurn(): void {
    if (this.corkedForTurn) return;
    const stream = (this.client as unknown as { connection?: { stream?: { cork?: () => void; uncork?: () => void } } }).connection?.stream;
    if (!stream?.cork || !stream.uncork) return;
    stream.cork();
    this.corkedForTurn = true;
    process.nextTick(() => {
      this.corkedForTurn = false;
      stream.uncork!();
    });
  }

  /** A statement whose answer no one waits for (its failure is a lost connection, which the pool drops). */
  sendUnanswered(text: string): void {
    void this.send({ text, values: [] }, false).catch(() => undefined);
  }

  /** Whether the socket is corked until the current turn's microtasks have run (`send`). */
  private corkedForTurn = false;

  private send(config: { text: string; values: unknown[]; name?: string }, waited = true): Promise<pg.QueryResult> {
    if (this.left-- <= 0) return Promise.reject(new Error('a read of one statement (oneStatement) sent a second: it would not see the same snapshot'));
    this.corkForTurn();
    this.counters.statements++;
    if (waited && this.waiting++ === 0) this.counters.roundTrips++;
    const sent = this.client.query(config);
    const answered = () => void (waited && this.waiting--);
    sent.then(answered, (err: unknown) => {
      answered();
      if (isRetryable(err)) this.conflict = true;
    });
    return sent;
  }
}

/** A write waiting for a group (`PgStore.startGroups`). */
interface QueuedWrite {
  /** When it was asked for (performance.now()): its wait, for extra groups and the pool diagnostic. */
  at: number;
  fn: (tx: Transaction) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/**
 * Groups run at once by default (`PgStoreOptions.groupSlots`): a fifth of the pool (2 of the default
 * 10; `--pool-size` raises both), at least two, so that one write held open (by a test, or a slow
 * statement) never keeps every other from committing. Fewer, longer groups cost the server and this process
 * less per write; more overlap their waits. Measured (bench/messages on PostgreSQL, 50
 * connections, a 2-core machine shared with the server): with 16 writes a group at most, 10 slots ran
 * ~3 writes per transaction and 6.5 statements per send, 4 slots ~12 and 4.5 (10-20 % more sends a
 * second); with 32 at most and the opt-outs read once per group, 2 slots ran ~24 per transaction,
 * 3.4 statements per send, ×0.60 of the floor against ×0.48 with 4 slots and 16 (one replica; two
 * replicas ×0.51 against ×0.42, ~12 writes per transaction each). The pool's other clients serve
 * reads, row-guarded writes and the feed's numbering.
 */
export const groupSlotsFor = (poolSize: number): number => Math.max(2, Math.floor(poolSize / 5));

/**
 * Writes one group commits at most: a longer transaction holds its locks, and its first writes'
 * answers, longer (measured above: at 16, two slots' groups were all full).
 */
export const MAX_GROUP_WRITES = 32;

/**
 * A write asked for while a group runs joins that group only while the group is younger than this
 * (ms), and writes that have waited longer than this make extra groups when the pool has clients to
 * spare (`PgStore.startGroups`). A group's writes are answered at its COMMIT: at ease a write takes a
 * millisecond or two and a group of 32 is done well inside this, so nothing changes; on a machine so
 * busy that each round trip waits for a CPU, a write took ~1 s, and a group that kept taking writes
 * held its first ones 13-19 s (past a client's patience) while the pool's other clients sat idle.
 */
export const GROUP_JOIN_WINDOW_MS = 250;

/** Thrown inside a write whose statement hit a conflict the domain swallowed: the write runs again. */
class ConflictSeen extends Error {
  readonly code = '40001';
}

/** A pooled client's tracker, SQL runner and repositories (`PgStore.bind`). */
interface BoundClient {
  tracked: Tracked;
  sql: Sql;
  repos: Repositories;
}

/**
 * The PostgreSQL engine's store: each `write` is one transaction on a pooled client, each `read`
 * a read-only snapshot on another.
 *
 * Isolation. The domain reads, checks and then writes (a wallet's balance read, the
 * spend limit checked, the charge written; a number looked up, then bought; an idempotency key
 * looked up, then recorded). The SQLite engine makes that correct by running one write at a time.
 * Here writes run concurrently, so each runs at SERIALIZABLE: PostgreSQL then guarantees the
 * outcome of every committed write is that of some serial order, and aborts one side of a race with
 * a serialization failure (40001) or a deadlock (40P01) instead of letting both commit a check the
 * other invalidated. Such a write is rolled back and its whole function run again on a fresh
 * snapshot, up to MAX_WRITE_ATTEMPTS times. Chosen over READ COMMITTED with `SELECT … FOR UPDATE`
 * in each repository because it needs no per-call-site locking discipline (a missed lock would be a
 * silent lost update); the price is that `fn` must be re-runnable: everything it changes outside
 * the database is done in `afterCommit` (the unit of work and the HTTP idempotency layer do so).
 *
 * A write's promise settles after its COMMIT (its answer is durable) and after its afterCommit
 * hooks ran. Writes are not batched into a shared commit as on SQLite: the server commits
 * concurrent transactions in parallel.
 */
export class PgStore implements Store {
  /**
   * Each pooled client's repositories, made once per connection and reset for each transaction or
   * read: made per transaction, their ~200 statement objects would be a third of what a send
   * allocates (~80 KB of ~300 KB), and the unit of work's join of them with the domain's deps
   * (domain/unit-of-work.ts) would miss its cache every time. A client the pool closes takes its own.
   */
  private readonly bound = new WeakMap<pg.PoolClient, BoundClient>();
  private readonly context: AsyncLocalStorage<{ open: boolean }> | undefined;
  /** Transactions under way: `close` waits for them. */
  private readonly running = new Set<Promise<unknown>>();
  /** Groups run at once (`groupSlotsFor` the pool's size by default). */
  private readonly groupSlots: number;
  /** Groups run at once at most, while writes wait and the pool has clients to spare (`startGroups`): all but two of the pool's. */
  private readonly maxGroups: number;
  private closed = false;
  readonly peers: StorePeers;
  private readonly closePeers: () => Promise<void>;
  /** Replicas hear each other by notification (`peers`): no notice is left in the database. */
  readonly notices = NO_NOTICES;
  /** Names this replica in its writes' notifications. */
  private readonly sender: string;
  readonly counters: PgStoreCounters = { writes: 0, attempts: 0, retries: 0, reads: 0, roundTrips: 0, statements: 0, socketWrites: 0, numberings: 0, groups: 0, groupsUndone: 0 };
  /** The events feed's numbering calls, one in flight per account (feed-order.ts). */
  readonly numbering = new FeedNumbering();

  constructor(
    readonly pool: pg.Pool,
    opts: PgStoreOptions = {},
  ) {
    this.context = opts.guardOutsideCalls ? new AsyncLocalStorage<{ open: boolean }>() : undefined;
    this.peers = opts.peers ?? alonePeers();
    this.closePeers = opts.peers ? () => opts.peers!.close() : () => Promise.resolve();
    this.poolSize = (pool.options as { max?: number }).max ?? 10;
    this.groupSlots = opts.groupSlots ?? groupSlotsFor(this.poolSize);
    this.maxGroups = Math.max(this.groupSlots, this.poolSize - 2);
    this.joinWindowMs = opts.groupJoinWindowMs ?? GROUP_JOIN_WINDOW_MS;
    this.sender = opts.peers?.processId ?? '';
    this.reachability = opts.reachability ?? new Reachability();
    this.onClose = opts.onClose;
  }

  private readonly onClose: (() => void) | undefined;
  private readonly joinWindowMs: number;
  /** The pool's size: the clients it may open. */
  private readonly poolSize: number;

  /** What the pool and the store hold at this moment (the pool diagnostic, open.ts). */
  poolState(): { total: number; idle: number; waiting: number; reachable: boolean; running: number; queuedWrites: number; groups: number; groupSizes: string; oldestWriteMs: number } {
    const now = performance.now();
    const oldest = Math.min(now, ...[...this.groupsTaken].map((t) => t[0]?.at ?? now), this.waitingWrites[0]?.at ?? now);
    return {
      total: this.pool.totalCount,
      idle: this.pool.idleCount,
      waiting: this.pool.waitingCount,
      reachable: this.reachability.reachable,
      running: this.running.size,
      queuedWrites: this.waitingWrites.length,
      groups: this.groupsRunning,
      groupSizes: [...this.groupsTaken].map((t) => t.length).join('+'),
      oldestWriteMs: Math.round(now - oldest),
    };
  }

  private readonly reachability: Reachability;

  /**
   * Whether the server answered when last asked (a statement, the heartbeat, the listening
   * connection): the readiness check reads it, so a load balancer stops routing here while it cannot.
   */
  databaseReachable(): boolean {
    return this.reachability.reachable;
  }

  /**
   * A read's or write's outcome, noted: an answer says the server is reachable; a lost connection
   * (refused, reset, ended by a shutdown) is reported as DatabaseUnavailableError, no driver text.
   */
  private noted<T>(work: Promise<T>): Promise<T> {
    return work.then(
      (value) => {
        this.reachability.answered();
        return value;
      },
      (err: unknown) => {
        throw this.reachability.failed(err);
      },
    );
  }

  write<T>(fn: (tx: Transaction) => Promise<T>, opts: WriteOptions = {}): Promise<T> {
    if (this.inTransaction()) {
      return Promise.reject(new Error('a write was asked for from inside an open transaction: use tx.savepoint (it would wait for its own commit)'));
    }
    this.counters.writes++;
    if (opts.rowGuarded === true) return this.track(this.noted(this.writeWithRetry(fn, 'BEGIN ISOLATION LEVEL READ COMMITTED')));
    return this.track(
      this.noted(
        new Promise<T>((resolve, reject) => {
          this.waitingWrites.push({ at: performance.now(), fn: fn as (tx: Transaction) => Promise<unknown>, resolve: resolve as (value: unknown) => void, reject });
          this.startGroups();
        }),
      ),
    );
  }

  /** SERIALIZABLE writes not yet taken by a group (`startGroups`). */
  private readonly waitingWrites: QueuedWrite[] = [];
  /** Groups under way, each on a client of its own. */
  private groupsRunning = 0;
  /** The writes each group under way has taken. */
  private readonly groupsTaken = new Set<QueuedWrite[]>();

  /**
   * Group commit: a write waiting while every group's slot is taken joins a group, the
   * writes of one group run one after another in one transaction and commit together. One at a
   * time, so each sees the one before it as the SQLite engine's batches do: the domain's
   * read-check-write needs no more isolation than a serial order gives it, and a savepoint, a
   * guarded statement or a once-per-transaction read works as in a write alone. What a group saves
   * is the BEGIN, the COMMIT and its flush, the pooled client's checkout and the feed numbering, per
   * write. A write arriving while a slot is free starts a group at once: nothing waits for company.
   *
   * When each statement's answer is slow to come (GROUP_JOIN_WINDOW_MS says when), a group stops
   * taking writes once it is older than the window, and a write that has waited longer than it
   * starts a group of its own while the pool has clients to spare (idle, or room to open one, beyond
   * one kept for reads and the feed's numbering), up to `maxGroups`: a replica's writes a second are
   * then its groups divided by a write's time, where two groups fell behind a steady stream while the
   * pool's other clients sat idle (bench/hosts beside a second database's write load). At ease no
   * write waits that long, and the groups stay few and full (writes per transaction in bench/messages).
   */
  private startGroups(): void {
    while (this.waitingWrites.length > 0 && (this.groupsRunning < this.groupSlots || (this.groupsRunning < this.maxGroups && this.overdue() && this.clientsToSpare() > 1))) {
      this.groupsRunning++;
      void this.runGroup().finally(() => {
        this.groupsRunning--;
        this.startGroups();
      });
    }
  }

  /** Whether the oldest waiting write has waited longer than a group may take writes in. */
  private overdue(): boolean {
    return performance.now() - this.waitingWrites[0]!.at >= this.joinWindowMs;
  }

  /** Clients the pool could hand out now without a wait: idle ones and room for new ones, less the checkouts waiting. */
  private clientsToSpare(): number {
    return this.pool.idleCount + (this.poolSize - this.pool.totalCount) - this.pool.waitingCount;
  }

  private async runGroup(): Promise<void> {
    // The first write is the group's before anything is asked of the server: a failure to reach it
    // (no client) is that write's to report, and the writes behind it wait for a group of their own.
    const taken: QueuedWrite[] = [this.waitingWrites.shift()!];
    this.groupsTaken.add(taken);
    try {
      await this.runTaken(taken, performance.now());
    } finally {
      this.groupsTaken.delete(taken);
    }
  }

  /** `began`: when the group began (performance.now()); writes join it only while it is younger than the window. */
  private async runTaken(taken: QueuedWrite[], began: number): Promise<void> {
    let values: unknown[];
    try {
      values = await this.writeOnce(async (tx) => {
        const out: unknown[] = [];
        for (let i = 0; i < taken.length || (taken.length < MAX_GROUP_WRITES && this.waitingWrites.length > 0 && performance.now() - began < this.joinWindowMs); i++) {
          // Writes that arrive while the group is young join it, one after another.
          if (i === taken.length) taken.push(this.waitingWrites.shift()!);
          out.push(await taken[i]!.fn(tx));
        }
        return out;
      }, 'BEGIN ISOLATION LEVEL SERIALIZABLE');
    } catch (caught) {
      // A connection loss is noted as soon as it is seen (the breaker, reachability.ts), and every
      // write of the group fails with it: run again alone, each would take a client of its own and
      // wait out a connect or a statement bound again, past a client's patience.
      const err = this.reachability.failed(caught);
      if (err instanceof DatabaseUnavailableError) {
        for (const w of taken) w.reject(err);
        return;
      }
      if (taken.length === 1) {
        // A group of one is a write alone: it fails, or runs again, as one.
        const [only] = taken as [QueuedWrite];
        if (isRetryable(err)) {
          this.counters.retries++;
          await this.writeWithRetry(only.fn, 'BEGIN ISOLATION LEVEL SERIALIZABLE', 1).then(only.resolve, only.reject);
        }
        else only.reject(err);
        return;
      }
      // A group that failed (one of its writes refused, or it lost a race) is rolled back whole: each
      // of its writes runs again alone, with its own retries, and meets its own outcome there.
      if (taken.length > 1) this.counters.groupsUndone++;
      await Promise.all(taken.map((w) => this.writeWithRetry(w.fn, 'BEGIN ISOLATION LEVEL SERIALIZABLE').then(w.resolve, w.reject)));
      return;
    }
    if (taken.length > 1) this.counters.groups++;
    taken.forEach((w, i) => w.resolve(values[i]));
  }

  read<T>(fn: (tx: Repositories) => Promise<T>, opts: ReadOptions = {}): Promise<T> {
    if (this.inTransaction()) {
      return Promise.reject(new Error('a read was asked for from inside an open transaction: read through the transaction (it would wait for its own commit)'));
    }
    this.counters.reads++;
    return this.track(this.noted(this.readOnce(fn, opts.oneStatement === true)));
  }

  readonly readsAreRoundTrips = true;

  /** A poller cannot tell from here whether another replica committed: it looks every time. */
  otherWritersSeen(): undefined {
    return undefined;
  }

  private media: PgMediaStore | undefined;
  /** Media in the `media` table: every replica on the database serves them. */
  mediaStore(): MediaStore {
    return (this.media ??= new PgMediaStore(this.pool, this.reachability));
  }

  assertNoTransaction(what: string): void {
    if (this.inTransaction()) throw new Error(`${what} called while a transaction is open: commit first, then call the outside world, then write its outcome`);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onClose?.();
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    this.reachability.close();
    await this.closePeers();
    await this.pool.end();
  }

  /**
   * A pooled client, refused at once while the server is known lost, and given up when it is found
   * lost while this waits (the breaker, reachability.ts): a request then meets a 503 at once rather
   * than a place in the queue behind connects that hang.
   */
  private checkout(): Promise<pg.PoolClient> {
    return this.reachability.checkout(
      () => this.pool.connect(),
      (client) => client.release(),
    );
  }

  private inTransaction(): boolean {
    return this.context?.getStore()?.open === true;
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.running.add(p);
    const done = () => this.running.delete(p);
    p.then(done, done);
    return p;
  }

  /** `lost`: attempts already made and lost to a race (a group of one write's). */
  private async writeWithRetry<T>(fn: (tx: Transaction) => Promise<T>, begin: string, lost = 0): Promise<T> {
    for (let attempt = lost + 1; ; attempt++) {
      if (attempt > 1) {
        // Apart a little, at random: two writes that collided would collide again in lockstep.
        await new Promise((r) => setTimeout(r, Math.random() * Math.min(2 ** (attempt - 1), 100)));
      }
      try {
        return await this.writeOnce(fn, begin);
      } catch (err) {
        if (!isRetryable(err)) throw err;
        if (attempt >= MAX_WRITE_ATTEMPTS) throw new ContentionError(attempt);
        this.counters.retries++;
      }
    }
  }

  private async writeOnce<T>(fn: (tx: Transaction) => Promise<T>, begin: string): Promise<T> {
    this.counters.attempts++;
    const client = await this.checkout();
    const { tracked, sql, repos } = this.bind(client);
    const hooks: Array<() => void> = [];
    let broken: Error | undefined;
    let commitSent = false;
    let value: T;
    // The events feed's numbering (feed-order.ts): the accounts whose calls this write runs on its
    // client (it claimed them), those calls, and the next calls of the others', waited for once its
    // client is back in the pool.
    const number = (accountId: string) => {
      this.counters.numberings++;
      return sequenceFeed(sql, accountId, this.sender);
    };
    const owned: string[] = [];
    const ownCalls: Array<Promise<unknown>> = [];
    const awaited: Array<Promise<void>> = [];
    try {
      tracked.deferBegin(begin);
      try {
        value = await this.inSavepoint(sql, repos, fn, hooks, 0);
        // A conflict the function caught and went past still dooms the transaction: run it again.
        if (tracked.conflict) throw new ConflictSeen('a conflicting write was seen inside this transaction');
        if (tracked.begun) {
          // The COMMIT and the numbering calls this write claimed leave together (one wait, not
          // two): each call is a transaction of its own, run by the server after the COMMIT, so it
          // numbers what this one committed; a COMMIT that fails leaves it nothing of ours.
          for (const accountId of sql.feedsWritten) if (this.numbering.claim(accountId)) owned.push(accountId);
          commitSent = true;
          const committed = tracked.together(() => {
            const commit = tracked.query({ text: 'COMMIT', values: [] });
            ownCalls.push(...owned.map(number));
            return commit;
          });
          for (const c of ownCalls) c.catch(() => undefined);
          committed.catch(() => undefined);
          // A statement sent without waiting (Statement.later) that failed aborted the transaction:
          // its error is the write's, and the COMMIT behind it only rolled back.
          await sql.answered();
          await committed;
        }
      } catch (err) {
        // A COMMIT refused for a serialization failure has ended the transaction: a ROLLBACK after it
        // would cost a round trip for a warning (bench/replicas: 1,963 of them in a run). Any other
        // failure is rolled back as ever (a broken connection shows itself there).
        if (tracked.begun && !(commitSent && isRetryable(err))) await tracked.query({ text: 'ROLLBACK', values: [] }).catch((e: Error) => (broken = e));
        throw tracked.conflict && !isRetryable(err) ? new ConflictSeen('a conflicting write was seen inside this transaction') : err;
      }
      // Committed: the events it appended get their feed positions before anyone hears of them
      // (feed-order.ts), so a reader woken by this write finds them. A call in flight for an account
      // when this write claimed it may have begun before this COMMIT: the next one is waited for,
      // or run here if that one ended meanwhile.
      for (const accountId of sql.feedsWritten) {
        if (owned.includes(accountId)) continue;
        if (this.numbering.claim(accountId)) {
          owned.push(accountId);
          ownCalls.push(number(accountId));
        } else {
          awaited.push(this.numbering.next(accountId));
        }
      }
      // A failure here must not fail the write (it committed; running it again would do it twice):
      // the heartbeat numbers what is left.
      for (const c of ownCalls) await c.catch((e: Error) => (broken = e));
    } finally {
      if (owned.length === 0) {
        // A client whose ROLLBACK failed is in an unknown state: the pool closes it rather than reuse it.
        client.release(broken);
      } else {
        // The accounts it claimed: the writes that waited meanwhile are numbered on this client,
        // after this write's answer, and the client is released once none waits.
        const serving = Promise.allSettled(ownCalls).then(async () => {
          // Each account at once (pipelined on the client): one account's steady stream of waiting
          // writes must not hold another's back.
          await Promise.all(owned.map((accountId) => this.numbering.drive(accountId, () => number(accountId)).catch((e: Error) => (broken = e))));
          client.release(broken);
        });
        void this.track(serving);
      }
    }
    // Another write's call numbers this one's events: a failure of it is the heartbeat's to mend.
    for (const w of awaited) await w.catch(() => undefined);
    for (const hook of hooks) hook();
    return value;
  }

  private async readOnce<T>(fn: (tx: Repositories) => Promise<T>, oneStatement: boolean): Promise<T> {
    const client = await this.checkout();
    const { tracked, repos } = this.bind(client);
    try {
      // A snapshot of committed data only; read-only, so it never conflicts with a write. Opened
      // with the first statement; a read of one statement needs none (the statement is its snapshot).
      if (oneStatement) tracked.allowOneStatement();
      else tracked.deferBegin('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      // Not marked as inside a transaction (as on SQLite, whose reads are no transaction): code
      // under a read may read or write again, each on a client of its own. Every such nesting
      // holds two clients of the pool at once, so routes read once where they can.
      return await fn(repos);
    } finally {
      // Ended without waiting for the answer: a read-only transaction changed nothing for COMMIT to
      // confirm, and the client's next statements queue behind it on the connection (pipeline
      // mode); one that fails there (the connection lost) is closed by the pool (`error`).
      if (tracked.begun) tracked.sendUnanswered('ROLLBACK');
      client.release();
    }
  }

  /** The client's repositories, ready for a transaction or read of its own (`bound`). */
  private bind(client: pg.PoolClient): BoundClient {
    let found = this.bound.get(client);
    if (found === undefined) {
      const tracked = new Tracked(client, this.counters);
      const sql = new Sql(tracked);
      found = { tracked, sql, repos: pgRepositories(sql, this.sender) };
      this.bound.set(client, found);
    }
    found.tracked.reset();
    found.sql.reset();
    return found;
  }

  /** With `guardOutsideCalls`: marks the async context as inside a transaction while `fn` runs. */
  private async inScope<T>(fn: () => Promise<T>): Promise<T> {
    const scope = { open: true };
    try {
      return await this.context!.run(scope, fn);
    } finally {
      scope.open = false;
    }
  }

  /**
   * Runs fn at `depth` (0: the transaction itself; deeper: a savepoint); its after-commit hooks join
   * `hooks` only if it completes. Nested writes of one transaction run one at a time, in order.
   */
  private async inSavepoint<T>(sql: Sql, repos: Repositories, fn: (tx: Transaction) => Promise<T>, hooks: Array<() => void>, depth: number): Promise<T> {
    const name = `w${depth}`;
    const own: Array<() => void> = [];
    let chain: Promise<unknown> = Promise.resolve();
    const tx = Object.create(repos) as Transaction;
    tx.afterCommit = (hook) => void own.push(hook);
    tx.savepoint = <U>(inner: (t: Transaction) => Promise<U>): Promise<U> => {
      const run = chain.then(() => this.inSavepoint(sql, repos, inner, own, depth + 1));
      chain = run.catch(() => undefined);
      return run;
    };
    if (depth > 0) {
      // What the transaction sent unawaited so far is its own (Statement.later), not this savepoint's.
      await sql.answered();
      await sql.exec(`SAVEPOINT ${name}`);
    }
    try {
      const value = this.context && depth === 0 ? await this.inScope(() => fn(tx)) : await fn(tx);
      await chain;
      if (depth > 0) {
        await sql.answered();
        await sql.exec(`RELEASE SAVEPOINT ${name}`);
      }
      hooks.push(...own);
      return value;
    } catch (err) {
      // The savepoint's own failure is the one to report; a connection too broken to roll back to it
      // fails the transaction's next statement, or its COMMIT, anyway.
      if (depth > 0) {
        // What it sent unawaited is undone with it, a failure of it included.
        await sql.answered().catch(() => undefined);
        await sql.exec(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`).catch(() => undefined);
      }
      throw err;
    }
  }
}
