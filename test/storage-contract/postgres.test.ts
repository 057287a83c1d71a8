import { afterAll, describe, expect, it } from 'vitest';
import { describeStorageContract } from './contract.js';
import { postgresEngine, stopPostgresEngine } from './engine.js';
import { T0, endpoint, seedAccount, uid, useStore } from './fixtures.js';
import { MAX_WRITE_ATTEMPTS, type PgStore } from '../../src/server/storage/postgres/store.js';
import { ContentionError } from '../../src/server/storage/storage-errors.js';

// Issue 26: the storage contract on the PostgreSQL engine, against a throwaway server
// (test/helpers/postgres.ts) that this file starts on first use and stops at its end.
describeStorageContract(postgresEngine);

afterAll(stopPostgresEngine);

/** Waits, a query at a time, until `cond` holds (a condition, never a fixed sleep). */
async function until(cond: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 5));
  }
}

// What only an engine with concurrent writers can get wrong, checked with PostgreSQL's own views.
describe('postgres engine: concurrent writers', () => {
  const store = useStore(postgresEngine);

  it("an account's feed positions become visible in order: a later event waits for an earlier uncommitted one", async () => {
    const a = await seedAccount(store());
    const ev = () => ({ id: uid('evt'), accountId: a.id, type: 'message.sent', createdAt: T0, body: { n: 1 } });
    let inserted!: () => void;
    const firstInserted = new Promise<void>((r) => (inserted = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // The first write takes position 1 and stays open.
    const first = store().write(async (tx) => {
      const seq = await tx.eventsRepo.insert(ev());
      inserted();
      await gate;
      return seq;
    });
    await firstInserted;
    let secondDone = false;
    const second = store().write(async (tx) => await tx.eventsRepo.insert(ev()));
    void second.then(() => (secondDone = true));
    // Either the second write committed (out of order: the bug), or it waits on the first's lock.
    const pool = (store() as PgStore).pool;
    const waiting = async () =>
      (await pool.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0]!.n > 0;
    await until(async () => secondDone || (await waiting()));
    const visible = await store().read(async (tx) => (await tx.eventsRepo.feedPage(a.id, { order: 'asc', limit: 10, exact: [], prefixes: [] })).rows.map((r) => r.seq));
    release();
    expect([await first, await second]).toEqual([1, 2]);
    // Nothing visible yet, never position 2 without position 1.
    expect(visible).toEqual([]);
    expect(await store().read(async (tx) => (await tx.eventsRepo.feedPage(a.id, { order: 'asc', limit: 10, exact: [], prefixes: [] })).rows.map((r) => r.seq))).toEqual([1, 2]);
  });
});

describe('postgres engine: a write that keeps losing races', () => {
  const store = useStore(postgresEngine);

  it('is run again up to MAX_WRITE_ATTEMPTS times, then fails as a ContentionError with nothing committed', async () => {
    const a = await seedAccount(store());
    let runs = 0;
    const outcome = await store()
      .write(async (tx) => {
        runs++;
        await tx.eventsRepo.insert({ id: uid('evt'), accountId: a.id, type: 'message.sent', createdAt: T0, body: { run: runs } });
        // What PostgreSQL raises when a concurrent write won the race (a serialization failure).
        throw Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
      })
      .catch((err: unknown) => err);
    expect(outcome).toBeInstanceOf(ContentionError);
    expect(runs).toBe(MAX_WRITE_ATTEMPTS);
    expect(await store().read(async (tx) => (await tx.eventsRepo.feedPage(a.id, { order: 'asc', limit: 10, exact: [], prefixes: [] })).rows)).toEqual([]);
  });
});

// Issue 26: what a send costs in round trips to the server (every statement, BEGIN and COMMIT one).
describe('postgres engine: round trips', () => {
  const store = useStore(postgresEngine);
  const roundTrips = async (fn: Parameters<PgStore['write']>[0]): Promise<number> => {
    const pg = store() as PgStore;
    const before = pg.counters.roundTrips;
    await pg.write(fn);
    return pg.counters.roundTrips - before;
  };

  it("a send's two events are one insert (the feed lock and the notifications in it); the outbox's endpoint read is made once per transaction", async () => {
    const a = await seedAccount(store());
    const ev = (type: string) => ({ id: uid('evt'), accountId: a.id, type, createdAt: T0, body: { type } });
    const trips = await roundTrips(async (tx) => {
      await tx.eventsRepo.insertMany([ev('message.sent'), ev('message.delivered')]);
      for (let i = 0; i < 2; i++) expect(await tx.webhookEndpoints.enabledForAccount(a.id)).toEqual([]);
    });
    // BEGIN, the insert, one endpoint read, COMMIT.
    expect(trips).toBe(4);
  });

  it('the endpoints read once per transaction follow its own writes and its savepoints rolled back', async () => {
    const a = await seedAccount(store());
    await store().write(async (tx) => {
      expect(await tx.webhookEndpoints.enabledForAccount(a.id)).toEqual([]);
      const kept = endpoint(a.id);
      await tx.webhookEndpoints.insert(kept);
      expect((await tx.webhookEndpoints.enabledForAccount(a.id)).map((r) => r.id)).toEqual([kept.id]);
      await tx
        .savepoint(async (inner) => {
          await inner.webhookEndpoints.update(kept.id, { enabled: false }, T0);
          expect(await inner.webhookEndpoints.enabledForAccount(a.id)).toEqual([]);
          throw new Error('undo');
        })
        .catch(() => undefined);
      expect((await tx.webhookEndpoints.enabledForAccount(a.id)).map((r) => r.id)).toEqual([kept.id]);
    });
  });
});
