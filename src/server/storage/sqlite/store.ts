import { AsyncLocalStorage } from 'node:async_hooks';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';
import type { Repositories, Store, StoreNotices, StorePeers, Transaction } from '../store.js';
import { alonePeers } from '../process-alone.js';
import { FileMediaStore, MemoryMediaStore, type MediaStore } from '../media-store.js';
import { SqliteProcessNotices } from './process-notices.js';
import { sqliteRepositories } from './repositories.js';
import { SqliteHeldReads } from './held-reads.js';
import { inStorageTerms } from './unique-violation.js';
import { CHECKPOINT_START_AFTER_COMMITS, Checkpointer } from './checkpointer.js';

interface Pending {
  fn: (tx: Transaction) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** Writes run in one shared transaction at most; the rest wait for the next turn. */
const MAX_BATCH = 512;

/**
 * How long a batch waits between two tries for the write lock another process holds. SQLite's
 * own busy handler (busy_timeout) sleeps INSIDE the call, the whole process frozen, 1, 2, 5, 10 … up to
 * 100 ms per try: a worker beside a busy API process lost the lock to group commits, slept longer
 * each time and, frozen meanwhile, neither read the responses to its attempts nor sent more (bench
 * roles: BEGIN waits up to 330 ms, the worker's event loop delay p99 300-600 ms). Tried again on a
 * timer instead, the process runs between tries, tries again within a millisecond or two of the lock
 * being free, and the writes asked for meanwhile join the batch.
 */
const LOCK_RETRY_MS = 1;

export interface SqliteStoreOptions {
  /**
   * Refuse calls to the outside world from inside a transaction, and a top-level write from inside
   * one (a deadlock: it would wait for the batch it is part of). Costs an AsyncLocalStorage context
   * per write; tests turn it on, so a regression fails loudly there.
   */
  guardOutsideCalls?: boolean;
  /** Start the checkpoint thread after this many commits (checkpointer.ts); 0 never starts it. */
  checkpointAfterCommits?: number;
}

/**
 * The SQLite engine's store: one connection, so one transaction at a time.
 *
 * Group commit: writes asked for during one turn of the event loop share one
 * transaction, so concurrent requests pay for one COMMIT between them. A CPU profile of 50
 * connections of sends spent 30-36 % of the service's time in SQLite's commit; the pages a send
 * touches are mostly the same leaf pages for concurrent sends, so a shared commit writes them once.
 * Each write runs in its own SAVEPOINT: one that throws rolls back its own writes only and rejects
 * its own promise; the others commit. Every promise settles after the COMMIT (an answer sent on it
 * is durable), or rejects with the commit's error if the COMMIT itself fails.
 *
 * The repositories are asynchronous by interface but answer at once here (better-sqlite3 is
 * synchronous), so a write that calls nothing outside the process runs to its end in microtasks.
 * Reads asked for while a batch is open wait for its COMMIT: they never see uncommitted rows.
 */
export class SqliteStore implements Store {
  private readonly repos: Repositories;
  private readonly caches: SqliteHeldReads[];
  private queue: Pending[] = [];
  private scheduled = false;
  /** Settles when the batch being written has committed or rolled back. */
  private open: Promise<void> | undefined;
  /** Set while a batch waits for another process to release the write lock (reads go on meanwhile). */
  private locking: Promise<void> | undefined;
  /**
   * With `guardOutsideCalls`: the transaction the current async context runs in. A flag that the
   * end of the write clears, because the context also flows into timers the write scheduled, which
   * run after it has committed.
   */
  private readonly context: AsyncLocalStorage<{ open: boolean }> | undefined;
  /**
   * BEGIN, COMMIT and each depth's SAVEPOINT and RELEASE, prepared once: `exec` compiles its SQL on
   * every call, and a send runs four of these.
   */
  private commits = 0;
  private readonly checkpointAfter: number;
  /** The checkpoint thread, once started (checkpointer.ts). */
  checkpointer: Checkpointer | undefined;
  private readonly control: { begin: Statement; commit: Statement; dataVersion: Statement; savepoints: Array<{ open: Statement; release: Statement }> };
  private readonly lockBudgetMs: number;
  /** PRAGMA data_version when last read: it moves when another connection (another process) commits. */
  private dataVersion: number;
  /** How many times a commit by another connection was seen (otherWritersSeen). */
  private otherWrites = 0;
  private readonly noticeRows: SqliteProcessNotices;
  /**
   * Notices for another process on this file (an API process beside a worker): left in
   * the open batch, read between batches (a read waits for the open batch to commit, like any read).
   */
  readonly notices: StoreNotices = {
    leave: (_tx, notice) => this.noticeRows.leave(notice),
    heard: () => this.read(async () => this.noticeRows.heard()),
  };
  /** One process owns the file: its peers are itself (a `--role api` beside it hears through `notices`). */
  readonly peers: StorePeers = alonePeers();
  /** Reads are served in the process, from its caches. */
  readonly readsAreRoundTrips = false;

  /** A file this process opened: always there. */
  databaseReachable(): boolean {
    return true;
  }

  /** Media are files in the data directory (in memory without one: tests). */
  mediaStore(files: { dir?: string; greetings: Iterable<string> }): MediaStore {
    return files.dir ? new FileMediaStore(files.dir, files.greetings) : new MemoryMediaStore();
  }

  constructor(
    readonly db: Db,
    opts: SqliteStoreOptions = {},
  ) {
    this.repos = sqliteRepositories(db);
    this.caches = Object.values(this.repos).flatMap((r: { cache?: unknown }) => (r.cache instanceof SqliteHeldReads ? [r.cache] : []));
    this.context = opts.guardOutsideCalls ? new AsyncLocalStorage<{ open: boolean }>() : undefined;
    this.checkpointAfter = opts.checkpointAfterCommits ?? CHECKPOINT_START_AFTER_COMMITS;
    // IMMEDIATE: the write lock is taken at BEGIN, waiting (busy_timeout) for another process's
    // write to end. A deferred BEGIN that read first and wrote later would fail at once with
    // SQLITE_BUSY whenever another process committed in between (a worker on the same
    // file), and no wait would help.
    this.control = { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT'), dataVersion: db.prepare('PRAGMA data_version'), savepoints: [] };
    this.dataVersion = this.readDataVersion();
    this.noticeRows = new SqliteProcessNotices(db);
    // The batch's BEGIN does not use the busy handler (see LOCK_RETRY_MS); every other statement keeps
    // the connection's busy timeout, which also bounds how long a batch waits for the lock in all.
    this.lockBudgetMs = db.pragma('busy_timeout', { simple: true }) as number;
  }

  private readDataVersion(): number {
    return (this.control.dataVersion.get() as { data_version: number }).data_version;
  }

  /**
   * Another process (`--role worker` beside `--role api`) may write the same file. Its
   * commits move PRAGMA data_version (cheap: no I/O); when it moved, every row held between
   * transactions may be stale, so the caches forget everything. Checked at the start of each batch
   * and each read, so a key revoked through one process is refused by the other on its next request.
   */
  private noticeOtherWriters(): void {
    const version = this.readDataVersion();
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.otherWrites++;
    this.forgetCaches();
  }

  /** How many times commits by another process were seen so far (a poller compares two answers). */
  otherWritersSeen(): number {
    if (!this.open) this.noticeOtherWriters();
    return this.otherWrites;
  }

  /** Every row held between transactions may have changed behind the connection's back. */
  private forgetCaches(): void {
    this.caches.forEach((c) => {
      c.changed();
      c.settle();
    });
  }

  private savepointStatements(depth: number): { open: Statement; release: Statement } {
    const name = `w${depth}`;
    return (this.control.savepoints[depth] ??= { open: this.db.prepare(`SAVEPOINT ${name}`), release: this.db.prepare(`RELEASE ${name}`) });
  }

  write<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    if (this.inTransaction()) {
      return Promise.reject(new Error('a write was asked for from inside an open transaction: use tx.savepoint (it would wait for its own batch)'));
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn: fn as Pending['fn'], resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // setImmediate, not a microtask: it runs after the poll phase has read every request that
        // arrived in this turn, which is what makes a batch.
        setImmediate(() => void this.flush());
      }
    });
  }

  async read<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
    if (this.inTransaction()) throw new Error('a read was asked for from inside an open transaction: read through the transaction (it would wait for its own commit)');
    while (this.open) await this.open;
    this.noticeOtherWriters();
    return fn(this.repos);
  }

  assertNoTransaction(what: string): void {
    if (this.inTransaction()) throw new Error(`${what} called while a transaction is open: commit first, then call the outside world, then write its outcome`);
  }

  /** The transaction ended: the held reads forget what it wrote (held-reads.ts). */
  private settleCaches(): void {
    this.caches.forEach((c) => c.settle());
  }

  /**
   * Runs `fn` on the connection alone, between batches (no write is open or queued while it runs:
   * it is synchronous), then forgets every cached read. For svc/testing's reset point
   * (reset-point.ts), taken and restored while the service's workers are paused.
   */
  async exclusive<T>(fn: (db: Db) => T): Promise<T> {
    while (this.open || this.queue.length > 0) await (this.open ?? new Promise((r) => setImmediate(r)));
    try {
      return fn(this.db);
    } finally {
      this.forgetCaches();
      this.dataVersion = this.readDataVersion();
    }
  }

  private inTransaction(): boolean {
    return this.context?.getStore()?.open === true;
  }

  async close(): Promise<void> {
    while (this.open || this.queue.length > 0) await (this.open ?? new Promise((r) => setImmediate(r)));
    await this.checkpointer?.stop();
    this.db.close();
  }

  /**
   * BEGIN IMMEDIATE without waiting: false when another connection holds the write lock. (The pragma
   * is set through `pragma` each time, ~30 µs: SQLite applies it when the statement is compiled, so a
   * prepared one run again does not reliably set it.)
   */
  private tryBegin(): boolean {
    this.db.pragma('busy_timeout = 0');
    try {
      this.control.begin.run();
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_BUSY') return false;
      throw err;
    } finally {
      this.db.pragma(`busy_timeout = ${this.lockBudgetMs}`);
    }
  }

  /**
   * Takes the write lock, waiting for another process's write without freezing this one (see
   * LOCK_RETRY_MS); false when it stayed taken for the whole busy timeout (the batch then fails with
   * SQLITE_BUSY, as a BEGIN that waited that long did).
   */
  private async takeWriteLock(): Promise<boolean> {
    if (this.tryBegin()) return true;
    let settle!: () => void;
    this.locking = new Promise<void>((r) => (settle = r));
    try {
      const giveUpAt = performance.now() + this.lockBudgetMs;
      for (;;) {
        await new Promise((r) => setTimeout(r, LOCK_RETRY_MS));
        if (this.tryBegin()) return true;
        if (performance.now() >= giveUpAt) return false;
      }
    } finally {
      this.locking = undefined;
      settle();
    }
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    while (this.open || this.locking) await (this.open ?? this.locking);
    if (this.queue.length === 0) return;
    let locked: boolean | Error;
    try {
      locked = await this.takeWriteLock();
    } catch (err) {
      locked = err as Error;
    }
    // Writes asked for while the lock was awaited join this batch.
    const batch = this.queue.splice(0, MAX_BATCH);
    if (this.queue.length > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.flush());
    }
    if (locked !== true) {
      const err = locked === false ? Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }) : locked;
      for (const item of batch) item.reject(err);
      return;
    }
    let done!: () => void;
    this.open = new Promise<void>((r) => (done = r));
    const outcomes: Array<{ ok: true; value: unknown; hooks: Array<() => void> } | { ok: false; err: unknown }> = [];
    try {
      // Holding the write lock now, no other process commits until this batch has: checked once here.
      this.noticeOtherWriters();
      for (const item of batch) {
        const hooks: Array<() => void> = [];
        try {
          const value = await this.inSavepoint(item.fn, hooks, 0);
          outcomes.push({ ok: true, value, hooks });
        } catch (err) {
          // Some SQLite errors (a full disk) end the whole transaction: then nothing can commit.
          if (!this.db.inTransaction) throw err;
          outcomes.push({ ok: false, err });
        }
      }
      this.control.commit.run();
      if (++this.commits === this.checkpointAfter) this.checkpointer = Checkpointer.start(this.db);
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.settleCaches();
      this.open = undefined;
      done();
      for (const item of batch) item.reject(err);
      return;
    }
    this.settleCaches();
    this.open = undefined;
    done();
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) {
        for (const hook of outcome.hooks) hook();
        item.resolve(outcome.value);
      } else item.reject(outcome.err);
    });
  }

  /** Runs fn in a savepoint at `depth`; its after-commit hooks join `hooks` only if it is released. */
  private async inSavepoint<T>(fn: (tx: Transaction) => Promise<T>, hooks: Array<() => void>, depth: number): Promise<T> {
    const name = `w${depth}`;
    const statements = this.savepointStatements(depth);
    const own: Array<() => void> = [];
    let chain: Promise<unknown> = Promise.resolve();
    // The repositories by inheritance, not copied: a transaction is made per write and savepoint.
    const tx = Object.create(this.repos) as Transaction;
    tx.afterCommit = (hook) => void own.push(hook);
    tx.savepoint = <U>(inner: (t: Transaction) => Promise<U>): Promise<U> => {
      // One at a time: savepoints nest as a stack, so two nested writes may not interleave.
      const run = chain.then(() => this.inSavepoint(inner, own, depth + 1));
      chain = run.catch(() => undefined);
      return run;
    };
    statements.open.run();
    try {
      let value: T;
      if (this.context && depth === 0) {
        const scope = { open: true };
        try {
          value = await this.context.run(scope, () => fn(tx));
        } finally {
          scope.open = false;
        }
      } else value = await fn(tx);
      await chain;
      statements.release.run();
      hooks.push(...own);
      return value;
    } catch (err) {
      if (this.db.inTransaction) this.db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw inStorageTerms(err);
    }
  }
}
