import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Db } from './database.js';

/**
 * Checkpoints the write-ahead log from a thread of its own.
 *
 * With WAL, SQLite folds the log back into the database file ("checkpoints") from inside the COMMIT
 * that crosses `wal_autocheckpoint` pages, on the committing connection: a CPU profile of 50
 * connections of sends put 11-22 % of the service's time in COMMIT, and without automatic
 * checkpoints 5 %. SQLite's documentation gives the remedy: switch them off on the writer and run
 * them from another thread on its own connection. A PASSIVE checkpoint never blocks the writer or a
 * reader; it copies what it can and tries again on its next tick.
 *
 * The writer keeps a backstop: automatic checkpoints at BACKSTOP_PAGES, so the log stays bounded if
 * the thread falls behind or dies. The thread is started only once a store has committed
 * START_AFTER_COMMITS batches: a short-lived service (a test's) never pays for a thread.
 */
export const CHECKPOINT_START_AFTER_COMMITS = 256;
/** How often the thread checkpoints. */
const INTERVAL_MS = 100;
/** Automatic checkpoints on the writer once the thread runs: 16k pages, 64 MB with 4 KB pages. */
const BACKSTOP_PAGES = 16_384;

/** The thread's code: a second connection that checkpoints until told to stop. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const tick = (answer) => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    if (answer) parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed });
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) });
  }
};
const timer = setInterval(() => tick(false), workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'tick') tick(true);
  if (m === 'stop') { clearInterval(timer); db.close(); parentPort.close(); }
});
`;

/** What one checkpoint found: frames in the log, and how many of them are now in the database file. */
export interface CheckpointResult {
  log: number;
  checkpointed: number;
}

export class Checkpointer {
  private readonly worker: Worker;
  private readonly waiters: Array<(r: CheckpointResult | Error) => void> = [];
  /** The last error the thread reported (a busy database is not one: PASSIVE skips what it cannot copy). */
  lastError: string | undefined;

  private constructor(
    private readonly db: Db,
    file: string,
  ) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs: INTERVAL_MS } });
    // A thread that ends (or fails to load) leaves the writer's backstop to checkpoint: never fatal.
    this.worker.on('error', (err) => {
      this.lastError = err.message;
      this.waiters.splice(0).forEach((w) => w(err));
    });
    this.worker.on('message', (m: CheckpointResult | { error: string }) => {
      if ('error' in m) this.lastError = m.error;
      const answer = 'error' in m ? new Error(m.error) : m;
      this.waiters.splice(0).forEach((w) => w(answer));
    });
    this.worker.unref();
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  }

  /** A checkpointer for a WAL database file; none for an in-memory database (it has no log). */
  static start(db: Db): Checkpointer | undefined {
    if (db.memory || db.name === ':memory:' || db.name === '') return undefined;
    return new Checkpointer(db, db.name);
  }

  /** Asks the thread for a checkpoint now and resolves with what it found. */
  async checkpointNow(): Promise<CheckpointResult> {
    const answered = new Promise<CheckpointResult | Error>((r) => this.waiters.push(r));
    this.worker.postMessage('tick');
    const answer = await answered;
    if (answer instanceof Error) throw answer;
    return answer;
  }

  /** Stops the thread (before the writer closes); the writer checkpoints for itself again. */
  async stop(): Promise<void> {
    const exited = new Promise<void>((r) => this.worker.once('exit', () => r()));
    // Held while it stops: an unref'd thread keeps nothing alive, so a process whose last act is this
    // close would end (exit 13, an unsettled await) before the thread's exit, the database left open.
    this.worker.ref();
    this.worker.postMessage('stop');
    await exited;
    if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
  }
}
