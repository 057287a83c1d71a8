import type { Clock } from './clock.js';
import type { JobRecord } from './storage/jobs-repo.js';
import type { Transaction } from './storage/store.js';
import type { DomainScheduler, JobHandler, OutsideJobHandler, TxDeps, UnitOfWork } from './domain/deps.js';
import { newId } from './ids.js';
import { OutsideFirst } from './domain/outside-first.js';

/** What one clock advance ran, per kind of job (`svc clock advance` prints it). */
export interface AdvanceReportLine {
  kind: string;
  /** For people: "carrier status reports", "webhook delivery attempts". */
  label: string;
  jobs: number;
  items: number;
}

/**
 * How long a claim on work that calls the outside world holds unless renewed by its end:
 * longer than any one outside call takes (a webhook attempt's 10 s ack timeout, the carrier), short
 * enough that work a dead process held is taken over within a minute.
 */
export const DEFAULT_CLAIM_LEASE_MS = 60_000;

/** A process's identity in claims, and the lease it takes (tests shorten it). */
export interface JobClaims {
  owner: string;
  leaseMs: number;
}

/** Due jobs read per turn of a drain; the transactional ones share one transaction. */
const DRAIN_BATCH = 256;

/** The longest pause between looks for due jobs while they fail (the database away). */
const WAKE_RETRY_MAX_MS = 5000;

export interface SchedulerLog {
  error(obj: object, msg: string): void;
}

type Registered = { inside: JobHandler; outside?: undefined } | { outside: OutsideJobHandler; inside?: undefined };

/**
 * Runs durable jobs when the service clock reaches them. Jobs live in the database, so a restart
 * resumes whatever was due (a message is never stuck mid-flight). With the system clock a timer
 * drains due jobs; with any clock, `advance` walks time forward job by job, setting the clock to
 * each job's time before running it, so work happens in time order (contract §1 and §10).
 *
 * Inside a write, `tx.scheduler` is this scheduler bound to that transaction (`in`): `schedule`
 * writes the job with the change that makes it necessary, so both commit or neither.
 */
export class Scheduler implements DomainScheduler {
  private readonly handlers = new Map<string, Registered>();
  private readonly labels = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (service clock ms). */
  private timerAt: number | undefined;
  private draining: Promise<void> | undefined;
  private stopped = true;
  private inAdvance = false;
  /** Set on the copies `in` makes: the transaction jobs are scheduled in. */
  private readonly tx: Pick<Transaction, 'jobs' | 'afterCommit'> | undefined;
  private readonly beforeAdvanceHooks: Array<() => Promise<void>> = [];
  /** The scheduler itself, also as seen from a bound copy (whose own fields are only `tx`). */
  private readonly base: Scheduler = this;

  /**
   * `persistClock` writes the clock where a restart reads it. Called inside the transaction of every
   * job an advance runs, after the clock moved to the job's time, and once the advance reaches its
   * target (were it saved only at the end, a crash mid-advance would bring the clock back behind
   * the deliveries the advance had committed, and nothing due would resume until it caught up again).
   */
  constructor(
    private readonly uow: () => UnitOfWork,
    private readonly clock: Clock,
    private readonly log: SchedulerLog,
    private readonly opts: { persistClock?: (tx: TxDeps) => Promise<void>; claims?: Partial<JobClaims> } = {},
  ) {
    this.claims = { owner: opts.claims?.owner ?? 'this-process', leaseMs: opts.claims?.leaseMs ?? DEFAULT_CLAIM_LEASE_MS };
  }

  /** Who this process is when it claims a job, and for how long. */
  private readonly claims: JobClaims;

  /** This scheduler, scheduling into `tx` (the unit of work binds one per write transaction). */
  in(tx: Pick<Transaction, 'jobs' | 'afterCommit'>): Scheduler {
    return Object.assign(Object.create(this) as Scheduler, { tx });
  }

  /** Runs before every advance walks time forward (the delivery worker waits for attempts in flight). */
  beforeAdvance(hook: () => Promise<void>): void {
    this.beforeAdvanceHooks.push(hook);
  }

  /** `label` names, for people, what the job's items are (an advance reports them). */
  register(kind: string, handler: JobHandler, label: string = kind): void {
    this.handlers.set(kind, { inside: handler });
    this.labels.set(kind, label);
  }

  /** A job whose work calls the outside world: it runs with no transaction open (OutsideJobHandler). */
  registerOutside(kind: string, handler: OutsideJobHandler, label: string = kind): void {
    this.handlers.set(kind, { outside: handler });
    this.labels.set(kind, label);
  }

  /** Call inside the transaction that makes the job necessary (`tx.scheduler`), so both commit or neither. */
  async schedule(kind: string, runAt: number, payload: unknown): Promise<string> {
    const tx = this.tx;
    if (!tx) throw new Error(`Scheduler.schedule(${kind}) called outside a transaction: schedule inside the transaction that makes the job necessary (tx.scheduler)`);
    const id = newId('job');
    await tx.jobs.insert(id, kind, runAt, payload, this.clock.nowMs());
    // The timer already fires by then: no need to look for the earliest job again (a send schedules
    // a job each, and re-arming read the jobs table and reset the timer every time).
    const base = this.base;
    if (base.timer === undefined || base.timerAt === undefined || runAt < base.timerAt) tx.afterCommit(() => void base.wakeSoon());
    return id;
  }

  start(): void {
    this.stopped = false;
    void this.wake();
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

  /**
   * In a `--role api` process the jobs run in the worker's process, so an advance is
   * handed to it (`elsewhere`: it asks, and answers once the worker has run it).
   */
  advanceElsewhere(elsewhere: (seconds: number) => Promise<AdvanceReportLine[]>): void {
    this.elsewhere = elsewhere;
  }

  private elsewhere: ((seconds: number) => Promise<AdvanceReportLine[]>) | undefined;

  /**
   * Jobs may have been written by another process (an API process beside this worker):
   * look for the earliest again, as a job scheduled here would have.
   */
  notice(): void {
    if (!this.stopped) void this.wakeSoon();
  }

  /** Moves service time forward by `seconds`, running in time order everything that falls due. */
  async advance(seconds: number): Promise<AdvanceReportLine[]> {
    if (this.elsewhere) return this.elsewhere(seconds);
    const target = this.clock.nowMs() + seconds * 1000;
    const report = new Map<string, AdvanceReportLine>();
    // Work already under way belongs before the skipped interval: let it finish first, so what it
    // schedules next (a webhook retry) is computed from the time it really ended.
    for (const hook of this.beforeAdvanceHooks) await hook();
    const persist = this.opts.persistClock ?? (async () => undefined);
    await this.serialized(async () => {
      this.inAdvance = true;
      try {
        for (;;) {
          const job = await this.uow().read(async (r) => await r.jobs.nextDue(target, this.claims.owner));
          if (!job) break;
          this.clock.setTo(job.runAt);
          // contract §1: service time never goes back past committed work, crash included: the time
          // is saved in the transaction that commits what the job does at it.
          const items = await this.runJobs([job], persist);
          const line = report.get(job.kind) ?? { kind: job.kind, label: this.labels.get(job.kind) ?? job.kind, jobs: 0, items: 0 };
          line.jobs += 1;
          line.items += items;
          report.set(job.kind, line);
        }
        this.clock.setTo(target);
        await this.uow().write(persist);
      } finally {
        this.inAdvance = false;
      }
    });
    await this.wake();
    return [...report.values()];
  }

  /**
   * Runs every job due now (used by the timer and by tests that want to flush). Jobs run in time
   * order; the transactional ones of a batch share one transaction, each job with its own removal
   * in a savepoint (as two commits, a job and then its removal would cost a live send, which makes
   * four jobs, eight commits). A job that calls the outside world ends the batch: what ran so far commits,
   * then it runs, and the next job waits for it.
   */
  async drainDue(): Promise<void> {
    await this.serialized(async () => {
      for (;;) {
        const due = await this.uow().read(async (r) => await r.jobs.due(this.clock.nowMs(), DRAIN_BATCH, this.claims.owner));
        if (due.length === 0) break;
        // Only the scheduler removes or moves jobs, so the rest of the list stays valid across a
        // job that calls out: carry on with it rather than reading the due jobs again.
        await this.runJobs(due);
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
   * Runs `jobs` in order: consecutive transactional jobs in one write (each in a savepoint, with its
   * removal; `before` first, outside the savepoints), each outside job on its own after the write
   * before it has committed. Returns the items the jobs started.
   */
  private async runJobs(jobs: JobRecord[], before?: (tx: TxDeps) => Promise<void>): Promise<number> {
    let items = 0;
    let next = 0;
    while (next < jobs.length) {
      const start = next;
      const turn = await this.uow().write(async (tx) => {
        // A write that lost a race (PostgreSQL runs it again) starts over from the same job: nothing
        // of its first run committed.
        let at = start;
        let ran = 0;
        if (before) await before(tx);
        while (at < jobs.length) {
          const job = jobs[at]!;
          const registered = this.handlers.get(job.kind);
          if (registered?.outside) {
            // Claimed in this write, with a lease (its work runs with no transaction open,
            // so no row lock can be held across it); another process's live claim skips it here.
            const claimed = await tx.jobs.claim(job.id, this.claims.owner, this.claims.leaseMs);
            return { at: at + 1, ran, then: claimed ? { job, alone: false } : undefined };
          }
          // The job's row held to the end of this write, which removes it: a process
          // draining at the same time skips it, so it runs once.
          if (!(await tx.jobs.lock(job.id))) {
            at++;
            continue;
          }
          try {
            ran += await tx.uow.write((sp) => this.runInside(job, sp));
          } catch (err) {
            // A job that asks for an outside act first (outside-first.ts) runs again on its own,
            // in a write of its own that does the act: its savepoint rolled back, nothing is lost.
            if (err instanceof OutsideFirst) return { at: at + 1, ran, then: { job, alone: true } };
            await this.retryLater(tx, job, err);
          }
          at++;
        }
        return { at, ran, then: undefined };
      });
      next = turn.at;
      items += turn.ran;
      if (turn.then) items += turn.then.alone ? await this.runAlone(turn.then.job, before) : await this.runOutside(turn.then.job);
    }
    return items;
  }

  /** A transactional job's work and its removal, in `tx`; the items it started. */
  private async runInside(job: JobRecord, tx: TxDeps): Promise<number> {
    const registered = this.handlers.get(job.kind);
    if (!registered?.inside) throw new Error(`no handler registered for job kind ${job.kind}`);
    const n = await registered.inside(job.payload, job, tx);
    await tx.jobs.delete(job.id);
    return typeof n === 'number' ? n : 1;
  }

  /** A transactional job in a top-level write of its own (the unit of work does the outside acts it asks for). */
  private async runAlone(job: JobRecord, before?: (tx: TxDeps) => Promise<void>): Promise<number> {
    try {
      return await this.uow().write(async (tx) => {
        if (before) await before(tx);
        if (!(await tx.jobs.lock(job.id))) return 0; // another process runs it
        return this.runInside(job, tx);
      });
    } catch (err) {
      await this.uow().write((tx) => this.retryLater(tx, job, err));
      return 0;
    }
  }

  /** Runs a job that calls the outside world, then removes it (or retries it later); the items it started. */
  private async runOutside(job: JobRecord): Promise<number> {
    const registered = this.handlers.get(job.kind)!;
    // Its claim is renewed while it runs, three times a lease (a tick that waits for its
    // attempts during an advance, a slow carrier may run longer than one lease): another process
    // takes the job over only once this one has stalled for two thirds of a lease, as a dead one would.
    const renew = setInterval(() => {
      void this.uow()
        .write((tx) => tx.jobs.renewClaim(job.id, this.claims.owner, this.claims.leaseMs))
        .then((held) => {
          if (!held) this.log.error({ jobId: job.id, kind: job.kind }, 'the claim on a running job ran out before it could be renewed; another process may run it too');
        })
        .catch((err: unknown) => this.log.error({ err, jobId: job.id, kind: job.kind }, 'renewing the claim on a running job failed'));
    }, Math.max(20, this.claims.leaseMs / 3));
    renew.unref();
    try {
      const n = await registered.outside!(job.payload, job);
      clearInterval(renew);
      await this.uow().write(async (tx) => await tx.jobs.delete(job.id));
      return typeof n === 'number' ? n : 1;
    } catch (err) {
      clearInterval(renew);
      await this.uow().write((tx) => this.retryLater(tx, job, err));
      return 0;
    }
  }

  private async retryLater(tx: Pick<Transaction, 'jobs'>, job: JobRecord, err: unknown): Promise<void> {
    // A failing job must not block the ones behind it; retry it later with a growing delay.
    this.log.error({ err, jobId: job.id, kind: job.kind }, 'job failed; rescheduled');
    const delay = Math.min(60_000 * 2 ** job.attempts, 3_600_000);
    await tx.jobs.reschedule(job.id, this.clock.nowMs() + delay);
  }

  /**
   * One wake at a time (a send schedules a job each, and every wake reads the jobs table): a job
   * scheduled while one runs asks for one more after it, which reads what the first may have missed.
   */
  private waking: Promise<void> | undefined;
  private wakeAgain = false;
  private wakeSoon(): Promise<void> {
    if (this.waking) {
      this.wakeAgain = true;
      return this.waking;
    }
    this.waking = (async () => {
      do {
        this.wakeAgain = false;
        await this.wake();
      } while (this.wakeAgain);
    })().finally(() => (this.waking = undefined));
    return this.waking;
  }

  /**
   * Re-arms the timer for the earliest job; never rejects (it runs from timers and after commits, with
   * no one to answer): a failure is logged and the jobs stay due for the next wake.
   */
  private async wake(): Promise<void> {
    try {
      await this.armTimer();
      this.wakeRetryMs = 0;
    } catch (err) {
      if (this.wakeRetryMs === 0) this.log.error({ err }, 'looking for the next due job failed; the jobs stay due, and it is tried again');
      // With no timer armed nothing else may wake it (a lone `all` process, the database away): look
      // again after a growing pause (from 250 ms, at most WAKE_RETRY_MAX_MS), once it is back.
      this.wakeRetryMs = Math.min(Math.max(this.wakeRetryMs * 2, 250), WAKE_RETRY_MAX_MS);
      if (this.stopped || this.timer) return;
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.wake();
      }, this.wakeRetryMs);
      this.timer.unref();
    }
  }

  /** The pause before looking for due jobs again after a look failed (0: the last one succeeded). */
  private wakeRetryMs = 0;

  /** Re-arms the timer for the earliest job (system clock only; a manual clock only moves on advance). */
  private async armTimer(): Promise<void> {
    if (this.stopped || this.clock.mode === 'manual') return;
    const earliest = await this.uow().read(async (r) => await r.jobs.earliestRunAt());
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = undefined;
    if (earliest === undefined || this.stopped) return;
    const now = this.clock.nowMs();
    const delay = Math.max(0, Math.min(earliest - now, 1000));
    this.timerAt = now + delay;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = undefined;
      // A drain that fails (PostgreSQL: a write that lost every retry to other replicas draining at
      // once) committed nothing of the failed write: its jobs stay due and the next wake runs them.
      void this.drainDue()
        .catch((err: unknown) => this.log.error({ err }, 'draining due jobs failed; they stay due and run at the next wake'))
        .finally(() => void this.wake());
    }, delay);
    this.timer.unref();
  }
}
