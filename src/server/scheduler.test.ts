import { describe, expect, it } from 'vitest';
import { openDatabase } from './storage/sqlite/database.js';
import { ManualClock } from './clock.js';
import { Scheduler } from './scheduler.js';
import { SqliteStore } from './storage/sqlite/store.js';
import { domainUnitOfWork } from './domain/unit-of-work.js';
import { EventStore } from './domain/events/store.js';
import type { Db } from './storage/sqlite/database.js';
import type { DomainDeps, TxDeps, UnitOfWork } from './deps.js';

/**
 * The unit of work the scheduler runs on, over `db`: the real one (domain/unit-of-work.ts), with only
 * what it reads of the domain's deps (the clock, the event store, the scheduler).
 */
function unitOfWork(db: Db, clock: ManualClock, scheduler: () => Scheduler): UnitOfWork {
  const store = new SqliteStore(db, { guardOutsideCalls: true });
  const events = new EventStore(clock);
  return domainUnitOfWork(store, () => ({ clock, events, scheduler: scheduler() }) as Partial<DomainDeps> as DomainDeps);
}

/** Waits, turn by turn of the event loop, until `cond` holds (never a fixed sleep). */
async function until(cond: () => boolean): Promise<void> {
  for (let turn = 0; !cond(); turn++) {
    if (turn > 10_000) throw new Error('condition never held');
    await new Promise((r) => setImmediate(r));
  }
}

function setup() {
  const db = openDatabase(':memory:');
  db.exec('CREATE TABLE done (v TEXT NOT NULL)');
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  const errors: string[] = [];
  const uow = unitOfWork(db, clock, () => scheduler);
  const scheduler: Scheduler = new Scheduler(() => uow, clock, { error: (_o, msg) => errors.push(msg) });
  const write = (fn: (tx: TxDeps) => Promise<unknown>) => uow.write(fn);
  const jobs = () => db.prepare('SELECT kind, attempts FROM jobs ORDER BY seq').all() as Array<{ kind: string; attempts: number }>;
  const done = () => (db.prepare('SELECT v FROM done ORDER BY rowid').all() as Array<{ v: string }>).map((r) => r.v);
  return { db, clock, scheduler, write, jobs, done, errors };
}

describe('Scheduler.drainDue', () => {
  it('runs due jobs in time order, removing each with its work; a job that throws is rolled back and retried later', async () => {
    const { db, clock, scheduler, write, jobs, done, errors } = setup();
    scheduler.register('write', async (p: { v: string }) => void db.prepare('INSERT INTO done (v) VALUES (?)').run(p.v));
    scheduler.register('half', async (p: { v: string }) => {
      db.prepare('INSERT INTO done (v) VALUES (?)').run(p.v);
      throw new Error('fails after writing');
    });
    const now = clock.nowMs();
    await write(async (tx) => {
      await tx.scheduler.schedule('write', now - 10, { v: 'second' });
      await tx.scheduler.schedule('write', now - 20, { v: 'first' });
      await tx.scheduler.schedule('half', now - 5, { v: 'never kept' });
      await tx.scheduler.schedule('write', now, { v: 'third' });
      await tx.scheduler.schedule('write', now + 1000, { v: 'not yet' });
    });
    await scheduler.drainDue();
    expect(done()).toEqual(['first', 'second', 'third']);
    // The failed job stays, one attempt more, due a minute later; the future one is untouched.
    expect(jobs()).toEqual([{ kind: 'half', attempts: 1 }, { kind: 'write', attempts: 0 }]);
    expect(errors).toEqual(['job failed; rescheduled']);
  });

  it('finishes an asynchronous job before the next one runs, and removes it only once it has settled', async () => {
    const { db, clock, scheduler, write, jobs, done } = setup();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    scheduler.register('slow', async () => {
      order.push('slow started');
      await gate;
      db.prepare("INSERT INTO done (v) VALUES ('slow')").run();
      order.push('slow finished');
    });
    scheduler.register('write', async () => {
      order.push('write');
      db.prepare("INSERT INTO done (v) VALUES ('write')").run();
    });
    const now = clock.nowMs();
    await write(async (tx) => {
      await tx.scheduler.schedule('slow', now - 2, {});
      await tx.scheduler.schedule('write', now - 1, {});
    });
    const draining = scheduler.drainDue();
    await until(() => order.length > 0);
    // Give the drain more turns: nothing else may run while the slow job waits.
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['slow started']);
    expect(jobs().map((j) => j.kind)).toEqual(['slow', 'write']);
    release();
    await draining;
    expect(order).toEqual(['slow started', 'slow finished', 'write']);
    expect(done()).toEqual(['slow', 'write']);
    expect(jobs()).toEqual([]);
  });

  it('a job a handler schedules for now runs in the same drain', async () => {
    const { db, clock, scheduler, write, jobs, done } = setup();
    scheduler.register('chain', async (p: { n: number }, _job, tx) => {
      db.prepare('INSERT INTO done (v) VALUES (?)').run(`link ${p.n}`);
      if (p.n < 3) await tx.scheduler.schedule('chain', clock.nowMs(), { n: p.n + 1 });
    });
    await write(async (tx) => void (await tx.scheduler.schedule('chain', clock.nowMs(), { n: 1 })));
    await scheduler.drainDue();
    expect(done()).toEqual(['link 1', 'link 2', 'link 3']);
    expect(jobs()).toEqual([]);
  });
});

describe('Scheduler.advance saves the clock as it goes', () => {
  it('in the transaction of each job, at its time, kept when the job fails; and at the target', async () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE saved (at INTEGER NOT NULL, in_tx INTEGER NOT NULL)');
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const persistClock = async () => void db.prepare('INSERT INTO saved (at, in_tx) VALUES (?, ?)').run(clock.nowMs(), db.inTransaction ? 1 : 0);
    const uow = unitOfWork(db, clock, () => scheduler);
    const scheduler: Scheduler = new Scheduler(() => uow, clock, { error: () => undefined }, { persistClock });
    const start = clock.nowMs();
    const seenByJob: number[] = [];
    // What a job sees saved is its own time: a crash right after its commit restarts there.
    const lastSaved = () => (db.prepare('SELECT at FROM saved ORDER BY rowid DESC LIMIT 1').get() as { at: number }).at;
    scheduler.register('note', async () => void seenByJob.push(lastSaved()));
    scheduler.register('fail', async () => {
      throw new Error('rolled back');
    });
    await uow.write(async (tx) => {
      await tx.scheduler.schedule('note', start + 1000, {});
      await tx.scheduler.schedule('fail', start + 2000, {});
      await tx.scheduler.schedule('note', start + 3000, {});
    });
    await scheduler.advance(10);
    expect(seenByJob).toEqual([start + 1000, start + 3000]);
    const saved = db.prepare('SELECT at, in_tx FROM saved ORDER BY rowid').all();
    expect(saved).toEqual([
      { at: start + 1000, in_tx: 1 },
      { at: start + 2000, in_tx: 1 }, // the failed job's work is rolled back, its time is not
      { at: start + 3000, in_tx: 1 },
      { at: start + 10_000, in_tx: 1 },
    ]);
  });
});

// A job that calls the outside world is claimed with a lease; one that runs longer than the
// lease renews it while it runs, so another process draining meanwhile does not run it too.
describe('Scheduler: a job that calls out and runs longer than its lease', () => {
  it('keeps its claim while it runs: another process draining after the first lease has run out does not run it; it runs once', async () => {
    const LEASE_MS = 1500;
    const db = openDatabase(':memory:');
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const errors: string[] = [];
    // Two processes on one database: each its own scheduler and claim owner.
    const uow = unitOfWork(db, clock, () => first);
    const first: Scheduler = new Scheduler(() => uow, clock, { error: (_o, msg) => errors.push(msg) }, { claims: { owner: 'first', leaseMs: LEASE_MS } });
    const second: Scheduler = new Scheduler(() => uow, clock, { error: (_o, msg) => errors.push(msg) }, { claims: { owner: 'second', leaseMs: LEASE_MS } });
    const runs: string[] = [];
    let finish!: () => void;
    const held = new Promise<void>((r) => (finish = r));
    first.registerOutside('slow', async () => {
      runs.push('first');
      await held;
    });
    second.registerOutside('slow', async () => void runs.push('second'));
    await uow.write(async (tx) => void (await tx.scheduler.schedule('slow', clock.nowMs(), {})));
    const startedAt = Date.now();
    const draining = first.drainDue();
    await until(() => runs.length === 1);
    // Past twice the lease (a claim not renewed has run out by then), the other process drains.
    while (Date.now() - startedAt < 2 * LEASE_MS) await new Promise((r) => setTimeout(r, LEASE_MS / 10));
    await second.drainDue();
    expect(runs).toEqual(['first']);
    finish();
    await draining;
    await second.drainDue();
    expect(runs).toEqual(['first']);
    expect(db.prepare('SELECT COUNT(*) AS n FROM jobs').get()).toEqual({ n: 0 });
    expect(errors).toEqual([]);
  });
});
