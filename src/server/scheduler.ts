import type { Clock } from './clock.js';
import { inTransaction, type Db } from './storage/database.js';
import { JobsRepo, type JobRecord } from './storage/jobs-repo.js';
import { newId } from './ids.js';
import { SqliteJobsRepo } from "./storage/sqlite/jobs-repo.js";

/**
 * A job's work. It may return how many items it started (a tick's delivery attempts), so a clock
 * advance can say what it ran; otherwise the job counts as one item.
 */
export type JobHandler = (payload: any, job: JobRecord) => void | number | Promise<void | number>;

/** What one clock advance ran, per kind of job (`svc clock advance` prints it). */
export interface AdvanceReportLine {
  kind: string;
  /** For people: "carrier status reports", "webhook delivery attempts". */
  label: string;
  jobs: number;
  items: number;
}

/** Due jobs read per turn of a drain; their synchronous handlers share one transaction. */
const DRAIN_BATCH = 256;

/** A job whose handler went asynchronous: its synchronous part has committed, the rest is pending. */
interface Pending {
  job: JobRecord;
  done: Promise<void | number>;
}

export interface SchedulerLog {
  error(obj: object, msg: string): void;
}

/**
 * Runs durable jobs when the service clock reaches them. Jobs live in SQLite, so a restart resumes
 * whatever was due (a message is never stuck mid-flight). With the system clock a timer drains due
 * jobs; with any clock, `advance` walks time forward job by job, setting the clock to each job's
 * time before running it, so work happens in time order (contract §1 and §10).
 */
export class Scheduler {
  private readonly jobs: JobsRepo;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly labels = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (service clock ms). */
  private timerAt: number | undefined;
  private draining: Promise<void> | undefined;
  private stopped = true;
  private inAdvance = false;

  /**
   * Writes the clock where a restart reads it. Called inside the transaction of every job an advance
   * runs, after the clock moved to the job's time, and once the advance reaches its target (issue
   * 23: saved only at the end, a crash mid-advance brought the clock back behind the deliveries the
   * advance had committed, and nothing due resumed until it caught up again).
   */
  private readonly persistClock: () => void;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: SchedulerLog,
    opts: { persistClock?: () => void } = {},
  ) {
    this.jobs = new SqliteJobsRepo(db);
    this.persistClock = opts.persistClock ?? (() => undefined);
  }

  private readonly beforeAdvanceHooks: Array<() => Promise<void>> = [];

  /** Runs before every advance walks time forward (the delivery worker waits for attempts in flight). */
  beforeAdvance(hook: () => Promise<void>): void {
    this.beforeAdvanceHooks.push(hook);
  }

  /** `label` names, for people, what the job's items are (an advance reports them). */
  register(kind: string, handler: JobHandler, label: string = kind): void {
    this.handlers.set(kind, handler);
    this.labels.set(kind, label);
  }

  /** Call inside the transaction that makes the job necessary, so both commit or neither. */
  schedule(kind: string, runAt: number, payload: unknown): string {
    const id = newId('job');
    this.jobs.insert(id, kind, runAt, payload, this.clock.nowMs());
    // The timer already fires by then: no need to look for the earliest job again (a send schedules
    // a job each, and re-arming read the jobs table and reset the timer every time).
    if (this.timer === undefined || this.timerAt === undefined || runAt < this.timerAt) this.wake();
    return id;
  }

  start(): void {
    this.stopped = false;
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = undefined;
    await this.draining;
  }

  /**
   * True while `advance` is walking time forward (whatever the clock mode). Job handlers that start
   * asynchronous work (webhook attempts) wait for it when this is set, so the clock only moves on once
   * the work due at the current time is done (contract §10: in time order).
   */
  get advancing(): boolean {
    return this.inAdvance;
  }

  /** Moves service time forward by `seconds`, running in time order everything that falls due. */
  async advance(seconds: number): Promise<AdvanceReportLine[]> {
    const target = this.clock.nowMs() + seconds * 1000;
    const report = new Map<string, AdvanceReportLine>();
    // Work already under way belongs before the skipped interval: let it finish first, so what it
    // schedules next (a webhook retry) is computed from the time it really ended.
    for (const hook of this.beforeAdvanceHooks) await hook();
    await this.serialized(async () => {
      this.inAdvance = true;
      try {
        for (;;) {
          const job = this.jobs.nextDue(target);
          if (!job) break;
          this.clock.setTo(job.runAt);
          // contract §1: service time never goes back past committed work, crash included: the time
          // is saved in the transaction that commits what the job does at it.
          const items = await this.runOne(job, this.persistClock);
          const line = report.get(job.kind) ?? { kind: job.kind, label: this.labels.get(job.kind) ?? job.kind, jobs: 0, items: 0 };
          line.jobs += 1;
          line.items += items;
          report.set(job.kind, line);
        }
        this.clock.setTo(target);
        inTransaction(this.db, this.persistClock);
      } finally {
        this.inAdvance = false;
      }
    });
    this.wake();
    return [...report.values()];
  }

  /**
   * Runs every job due now (used by the timer and by tests that want to flush). Jobs run in time
   * order; the synchronous ones of a batch share one transaction, each job with its own removal in a
   * savepoint (issue 13: a job and then its removal were two commits each, and a live send makes
   * four jobs). A handler that goes asynchronous ends the batch: what ran so far commits, and the
   * next job waits for it, as before.
   */
  async drainDue(): Promise<void> {
    await this.serialized(async () => {
      for (;;) {
        const due = this.jobs.due(this.clock.nowMs(), DRAIN_BATCH);
        if (due.length === 0) break;
        // Only the scheduler removes or moves jobs, so the rest of the list stays valid across an
        // asynchronous job: carry on with it rather than reading the due jobs again.
        let next = 0;
        while (next < due.length) {
          const pending = inTransaction(this.db, () => {
            while (next < due.length) {
              const started = this.startJob(due[next++]!);
              if (started) return started;
            }
            return undefined;
          });
          if (pending) await this.finish(pending);
        }
      }
    });
  }

  private async serialized(fn: () => Promise<void>): Promise<void> {
    while (this.draining) await this.draining;
    const run = fn().finally(() => {
      this.draining = undefined;
    });
    this.draining = run;
    await run;
  }

  /**
   * Runs one job; returns the items it started (1 unless the handler says), 0 when it failed.
   * `before` runs first in the job's transaction, outside its savepoint (kept if the job fails).
   */
  private async runOne(job: JobRecord, before: () => void = () => undefined): Promise<number> {
    let items = 1;
    const pending = inTransaction(this.db, () => {
      before();
      return this.startJob(job, (n) => (items = n));
    });
    if (pending) return this.finish(pending);
    return items;
  }

  /**
   * Runs a job's handler in a savepoint of the open transaction. A synchronous job is removed in the
   * same savepoint (its work and its removal commit together); one that throws is rolled back and
   * retried later. An asynchronous one is returned to be finished once its promise settles.
   */
  private startJob(job: JobRecord, onItems?: (items: number) => void): Pending | undefined {
    const handler = this.handlers.get(job.kind);
    // A savepoint by hand: better-sqlite3's transaction functions refuse a handler that returns a
    // promise, and an asynchronous handler's synchronous part belongs in this transaction too.
    this.db.exec('SAVEPOINT job');
    try {
      if (!handler) throw new Error(`no handler registered for job kind ${job.kind}`);
      const done = handler(job.payload, job);
      if (done instanceof Promise) {
        this.db.exec('RELEASE job');
        return { job, done };
      }
      this.jobs.delete(job.id);
      this.db.exec('RELEASE job');
      onItems?.(typeof done === 'number' ? done : 1);
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK TO job; RELEASE job');
      onItems?.(0);
      this.retryLater(job, err);
    }
    return undefined;
  }

  /** Waits for an asynchronous job, then removes it (or retries it later); the items it started. */
  private async finish({ job, done }: Pending): Promise<number> {
    try {
      const items = await done;
      this.jobs.delete(job.id);
      return typeof items === 'number' ? items : 1;
    } catch (err) {
      this.retryLater(job, err);
      return 0;
    }
  }

  private retryLater(job: JobRecord, err: unknown): void {
    // A failing job must not block the ones behind it; retry it later with a growing delay.
    this.log.error({ err, jobId: job.id, kind: job.kind }, 'job failed; rescheduled');
    const delay = Math.min(60_000 * 2 ** job.attempts, 3_600_000);
    this.jobs.reschedule(job.id, this.clock.nowMs() + delay);
  }

  /** Re-arms the timer for the earliest job (system clock only; a manual clock only moves on advance). */
  private wake(): void {
    if (this.stopped || this.clock.mode === 'manual') return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = undefined;
    const earliest = this.jobs.earliestRunAt();
    if (earliest === undefined) return;
    const now = this.clock.nowMs();
    const delay = Math.max(0, Math.min(earliest - now, 1000));
    this.timerAt = now + delay;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = undefined;
      void this.drainDue().finally(() => this.wake());
    }, delay);
    this.timer.unref();
  }
}
