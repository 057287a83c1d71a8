// An API process (`--role api`) and a worker process (`--role worker`) share one database
// and nothing else: no in-process hint crosses between them. This module is what links them, through
// the database only (so it holds on SQLite, one file and two processes, and on PostgreSQL):
//
// - the worker looks for work another process wrote (new deliveries, new jobs) every POLL_MS, and on
//   SQLite only when the data_version pragma says another process committed (`Store.otherWritersSeen`);
// - the API process, on SQLite, reads at the same moments the notices the worker left
//   (`Store.notices`), and hands them to its listeners: the console's live pages and the held reads
//   hear of the worker's events and changes as of their own (PostgreSQL: `Store.peers`, compose.ts);
// - `clock advance` through an API process is run by the worker (the one process that runs jobs, so
//   no job runs twice): the API process writes the request in the service state, the worker takes
//   it, runs it as one process would, and writes what it ran; the API process answers then, so a
//   user sees the same `clock advance` (it returns after the work);
// - each process follows the clock saved in the database (service time never goes back, and moves
//   for every process when one advances it), and applies the chaos profiles stored there.
import { newId } from './ids.js';
import { conflict } from './errors.js';
import type { Clock, SavedClock } from './clock.js';
import { CLOCK_STATE_KEY } from './storage/service-state-repo.js';
import type { AdvanceReportLine, Scheduler, SchedulerLog } from './scheduler.js';
import type { ServiceDeps } from './deps.js';
import type { ServiceRole } from '../api/values/local-service.js';
import { DatabaseUnavailableError } from './storage/storage-errors.js';

/** How often a process looks at what another wrote (a bound on the delivery lag it adds). */
export const POLL_MS = 25;

/**
 * How often an API process on SQLite looks while someone waits to hear of the worker's
 * commits at once (a console stream, a held read: `EventStore.watched`). A look that finds the file
 * unchanged reads only the file's change counter (`Store.otherWritersSeen`, no I/O), so looking this often costs little, and only then;
 * the poll's interval is most of the lag from a worker's commit to a live page. Not on PostgreSQL,
 * where every look is a query (it hears of commits by notification instead).
 */
export const LIVE_POLL_MS = 10;

/** The service state row holding the advances asked for and their outcomes. */
export const ADVANCE_REQUESTS_KEY = 'clock.advance_requests';

/**
 * The longest pause between looks while the database cannot be reached: the pause doubles from
 * POLL_MS up to this, so an outage costs a look a second, not forty, and one line in the log.
 */
export const UNREACHABLE_POLL_MAX_MS = 1000;

/** How long an API process waits for a worker to take an advance when it cannot tell whether one runs. */
const UNTAKEN_ADVANCE_MS = 30_000;

interface AdvanceRequests {
  asked: Array<{ id: string; seconds: number }>;
  /** The advance a worker is running. */
  running?: { id: string; seconds: number };
  done: Record<string, { ran?: AdvanceReportLine[]; error?: string }>;
}

/** A fresh, empty state (each transaction changes its own copy). */
const none = (): AdvanceRequests => ({ asked: [], done: {} });

const noWorker = () =>
  conflict('this process serves the API only (--role api) and no worker runs on its data: a clock advance runs in the worker; start one with `svc server start --role worker`');

/** Moves `clock` forward to the time saved in the database (another process advanced it). */
export async function followSavedClock(deps: Pick<ServiceDeps, 'uow' | 'clock'>): Promise<void> {
  const saved = await deps.uow.read(async (r) => await r.serviceState.get<SavedClock>(CLOCK_STATE_KEY));
  if (!saved) return;
  // A system clock saves its offset over wall time; a manual one its time: either way, a time.
  const at = saved.mode === 'system' ? Date.now() + saved.offsetMs : saved.nowMs;
  deps.clock.setTo(at);
}

export interface LinkOptions {
  role: Exclude<ServiceRole, 'all'>;
  /**
   * Whether a worker process runs on this data (SQLite: its lock is held); absent when the engine
   * cannot tell (PostgreSQL), then an advance nobody takes is given up after UNTAKEN_ADVANCE_MS.
   */
  workerRuns?: () => boolean;
  /** Where a failed look is reported (the scheduler's log: stderr, one JSON line). */
  log: SchedulerLog;
}

/**
 * Starts the link for a process of `role`: the worker's poll, or the API's hand-over of advances
 * (and, for both, following the clock). `stop()` ends the poll.
 */
export function startWorkerLink(deps: ServiceDeps, opts: LinkOptions): { stop(): Promise<void> } {
  if (opts.role === 'api') deps.scheduler.advanceElsewhere((seconds) => askWorkerToAdvance(deps, seconds, opts.workerRuns));
  let stopped = false;
  let seen = -1;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  // SQLite: a look first asks the file whether another process committed (cheap), so it may look often.
  const cheapLook = deps.store.otherWritersSeen() !== undefined;
  const look = async () => {
    const now = deps.store.otherWritersSeen();
    if (now !== undefined && now === seen) return;
    seen = now ?? -1;
    await followSavedClock(deps);
    // contract §9: the chaos profiles the other process stored (PostgreSQL hears of them instead: compose.ts).
    if (!deps.store.peers.shared) await deps.chaos.refresh();
    if (opts.role !== 'worker') return await hearNotices(deps);
    deps.scheduler.notice();
    await deps.webhooks.resume();
    await runAskedAdvances(deps, deps.scheduler);
  };
  // While the database cannot be reached: the pause between looks (growing), and whether that was said.
  let unreachablePause = 0;
  const tick = () => {
    if (stopped) return;
    round = look()
      .then(() => {
        if (unreachablePause > 0) opts.log.error({}, 'the database can be reached again: looking for work written by another process resumes');
        unreachablePause = 0;
      })
      .catch((err: unknown) => {
        if (!(err instanceof DatabaseUnavailableError)) return opts.log.error({ err }, 'looking for work written by another process failed');
        if (unreachablePause === 0) opts.log.error({ err }, `the database cannot be reached: looking for work written by another process again, every ${UNREACHABLE_POLL_MAX_MS / 1000} s at most, until it can`);
        unreachablePause = Math.min(Math.max(unreachablePause * 2, POLL_MS * 2), UNREACHABLE_POLL_MAX_MS);
      })
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, unreachablePause || (cheapLook && opts.role === 'api' && deps.events.watched ? LIVE_POLL_MS : POLL_MS));
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await round;
    },
  };
}

/** The API process: what the worker committed, told to this process's listeners as their own. */
async function hearNotices(deps: Pick<ServiceDeps, 'store' | 'events'>): Promise<void> {
  const heard = await deps.store.notices.heard();
  for (const notice of heard.notices) {
    if ('event' in notice) deps.events.heardElsewhere(notice.event);
    else deps.events.changedElsewhere(notice.change);
  }
  // Some were dropped before they were read: whoever listens reads again.
  if (heard.missed) deps.events.resync();
}

/** A worker starting: an advance a crashed worker was running is answered as cut short (its jobs resume). */
export async function settleCutAdvance(deps: Pick<ServiceDeps, 'uow'>): Promise<void> {
  await deps.uow.write(async (tx) => {
    const state = (await tx.serviceState.get<AdvanceRequests>(ADVANCE_REQUESTS_KEY)) ?? none();
    if (!state.running) return;
    state.done[state.running.id] = { error: 'the worker stopped during this clock advance; the clock stands where its last job left it (advance again to go on)' };
    delete state.running;
    await tx.serviceState.set(ADVANCE_REQUESTS_KEY, state);
  });
}

/** The worker: runs the advances API processes asked for, one at a time, in the order asked. */
async function runAskedAdvances(deps: Pick<ServiceDeps, 'uow'>, scheduler: Scheduler): Promise<void> {
  for (;;) {
    // A read first: on PostgreSQL the worker looks every POLL_MS, and nearly always finds nothing.
    const asked = await deps.uow.read(async (r) => await r.serviceState.get<AdvanceRequests>(ADVANCE_REQUESTS_KEY));
    if (!asked || asked.running || asked.asked.length === 0) return;
    const taken = await deps.uow.write(async (tx) => {
      const state = (await tx.serviceState.get<AdvanceRequests>(ADVANCE_REQUESTS_KEY)) ?? none();
      if (state.running || state.asked.length === 0) return undefined;
      const next = state.asked.shift()!;
      state.running = next;
      await tx.serviceState.set(ADVANCE_REQUESTS_KEY, state);
      return next;
    });
    if (!taken) return;
    let outcome: { ran?: AdvanceReportLine[]; error?: string };
    try {
      outcome = { ran: await scheduler.advance(taken.seconds) };
    } catch (err) {
      outcome = { error: (err as Error).message };
    }
    await deps.uow.write(async (tx) => {
      const state = (await tx.serviceState.get<AdvanceRequests>(ADVANCE_REQUESTS_KEY)) ?? none();
      if (state.running?.id === taken.id) delete state.running;
      state.done[taken.id] = outcome;
      await tx.serviceState.set(ADVANCE_REQUESTS_KEY, state);
    });
  }
}

/** The API process: asks the worker to advance, waits for what it ran, then follows the clock. */
async function askWorkerToAdvance(deps: ServiceDeps, seconds: number, workerRuns: (() => boolean) | undefined): Promise<AdvanceReportLine[]> {
  if (workerRuns && !workerRuns()) throw noWorker();
  const id = newId('job');
  await deps.uow.write(async (tx) => {
    const state = (await tx.serviceState.get<AdvanceRequests>(ADVANCE_REQUESTS_KEY)) ?? none();
    state.asked.push({ id, seconds });
    await tx.serviceState.set(ADVANCE_REQUESTS_KEY, state);
  });
  const askedAt = Date.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const state = (await deps.uow.read(async (r) => await r.serviceState.get<AdvanceRequests>(ADVANCE_REQUESTS_KEY))) ?? none();
    const outcome = state.done[id];
    if (outcome) {
      await deps.uow.write(async (tx) => {
        const now = (await tx.serviceState.get<AdvanceRequests>(ADVANCE_REQUESTS_KEY)) ?? none();
        delete now.done[id];
        await tx.serviceState.set(ADVANCE_REQUESTS_KEY, now);
      });
      await followSavedClock(deps);
      if (outcome.error !== undefined) throw conflict(outcome.error);
      return outcome.ran ?? [];
    }
    const untaken = state.asked.some((a) => a.id === id);
    const gone = workerRuns ? !workerRuns() : untaken && Date.now() - askedAt > UNTAKEN_ADVANCE_MS;
    if (!gone) continue;
    // No worker to take it (or it stopped): withdrawn if still untaken; if taken meanwhile, its answer comes.
    const withdrawn = await deps.uow.write(async (tx) => {
      const now = (await tx.serviceState.get<AdvanceRequests>(ADVANCE_REQUESTS_KEY)) ?? none();
      const at = now.asked.findIndex((a) => a.id === id);
      if (at < 0) return false;
      now.asked.splice(at, 1);
      await tx.serviceState.set(ADVANCE_REQUESTS_KEY, now);
      return true;
    });
    if (withdrawn) throw noWorker();
    if (workerRuns && !workerRuns() && state.running?.id === id) {
      // The worker died running it: the next worker's start answers it (settleCutAdvance); say so now.
      throw conflict('the worker stopped during this clock advance; the clock stands where its last job left it (advance again to go on)');
    }
  }
}
