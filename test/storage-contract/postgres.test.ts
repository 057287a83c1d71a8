import { afterAll, describe, expect, it } from 'vitest';
import { describeStorageContract } from './contract.js';
import { postgresEngine, stopPostgresEngine } from './engine.js';
import { T0, endpoint, numberRecord, seedAccount, uid, useStore } from './fixtures.js';
import { MAX_WRITE_ATTEMPTS, PgStore } from '../../src/server/storage/postgres/store.js';
import { ContentionError, UniqueConstraintError } from '../../src/server/storage/storage-errors.js';
import { EVENTS_FEED_LOCK, sequenceStragglers } from '../../src/server/storage/postgres/feed-order.js';
import { Sql } from '../../src/server/storage/postgres/sql.js';
import { FEW_OPT_OUTS } from '../../src/server/storage/shared/opt-outs-repo.js';
import { openPgPool } from '../../src/server/storage/postgres/database.js';
import { IdempotentReplay, commitOnce } from '../../src/server/http/idempotency.js';
import { ManualClock } from '../../src/server/clock.js';
import type { UnitOfWork } from '../../src/server/domain/deps.js';
import type { Transaction } from '../../src/server/storage/store.js';
import type { FastifyRequest } from 'fastify';

// The storage contract on the PostgreSQL engine, against a throwaway server
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

  const feed = (accountId: string, afterSeq?: number) =>
    store().read(async (tx) => (await tx.eventsRepo.feedPage(accountId, { afterSeq, order: 'asc', limit: 1000, exact: [], prefixes: [] })).rows);

  it("a write committed while its account's numbering call is in flight is answered after the next call, which the writes meanwhile share", async () => {
    // A transaction per write (a slot each): the numbering waits are per transaction, and grouped
    // writes (PgStore.startGroups) would share theirs.
    const url = ((store() as PgStore).pool as unknown as { options: { connectionString: string } }).options.connectionString;
    const pg = new PgStore(openPgPool(url, { max: 10 }), { groupSlots: 10 });
    const a = await seedAccount(pg);
    const ev = () => ({ id: uid('evt'), accountId: a.id, type: 'message.sent', createdAt: T0, body: {} });
    // Answered only once its event is in the feed (numbered), checked as each write returns.
    const write = () => {
      const e = ev();
      return pg.write((tx) => tx.eventsRepo.insert(e)).then(async () => expect((await feed(a.id)).map((r) => r.id)).toContain(e.id));
    };
    const count = async (text: string, values: unknown[]) => ((await pg.pool.query(text, values)).rows[0] as { n: number }).n;
    // Another session holds the account's numbering lock: the first write's call waits on it.
    const holder = await pg.pool.connect();
    let answered = 0;
    try {
      await holder.query('SELECT pg_advisory_lock($1, hashtext($2))', [EVENTS_FEED_LOCK, a.id]);
      const before = pg.counters.numberings;
      const first = write().then(() => answered++);
      await until(async () => (await count("SELECT COUNT(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted", [])) === 1);
      const later = Array.from({ length: 5 }, () => write().then(() => answered++));
      // All five committed, and each waits for the call after the one in flight.
      await until(async () => pg.numbering.waiting(a.id) === 5);
      expect(await count('SELECT COUNT(*)::int AS n FROM events WHERE account_id = $1 AND pos IS NULL', [a.id])).toBe(6);
      expect(answered).toBe(0);
      await holder.query('SELECT pg_advisory_unlock($1, hashtext($2))', [EVENTS_FEED_LOCK, a.id]);
      await Promise.all([first, ...later]);
      // The blocked call numbered all six (they had committed); the five still waited for one more.
      expect(pg.counters.numberings - before).toBe(2);
      expect(await feed(a.id)).toHaveLength(6);
    } finally {
      holder.release();
      await pg.close();
    }
  });

  it("an account's writes do not wait for each other's commit; an event joins the feed after the events already in it", async () => {
    const a = await seedAccount(store());
    const ev = () => ({ id: uid('evt'), accountId: a.id, type: 'message.sent', createdAt: T0, body: { n: 1 } });
    let inserted!: () => void;
    const firstInserted = new Promise<void>((r) => (inserted = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const early = ev();
    const late = ev();
    // The first write inserts and stays open.
    const first = store().write(async (tx) => {
      await tx.eventsRepo.insert(early);
      inserted();
      await gate;
    });
    await firstInserted;
    // The second commits meanwhile (it used to wait on the first's lock until the first committed),
    // and its event is in the feed at once.
    await store().write(async (tx) => void (await tx.eventsRepo.insert(late)));
    const seen = await feed(a.id);
    expect(seen.map((e) => e.id)).toEqual([late.id]);
    release();
    await first;
    // A follower that read up to the second's position still finds the first's: nothing skipped.
    expect((await feed(a.id, seen[0]!.seq)).map((e) => e.id)).toEqual([early.id]);
  });

  it('a follower reading after its last position while many writers commit sees every event once', async () => {
    const a = await seedAccount(store());
    const writers = 6;
    const each = 20;
    const written = new Set<string>();
    const writing = Promise.all(
      Array.from({ length: writers }, async () => {
        for (let i = 0; i < each; i++) {
          await store().write(async (tx) => {
            const e = { id: uid('evt'), accountId: a.id, type: 'message.sent', createdAt: T0, body: { i } };
            await tx.eventsRepo.insert(e);
            // Writers overlap at random inside their transactions: their commits come in any order.
            await new Promise((r) => setTimeout(r, Math.random() * 3));
            written.add(e.id);
          });
        }
      }),
    );
    const seen: string[] = [];
    let cursor: number | undefined;
    let done = false;
    void writing.then(() => (done = true));
    for (;;) {
      // Whether every write had finished before this read began: then an empty read is the end.
      const allWritten = done;
      const rows = await feed(a.id, cursor);
      for (const r of rows) seen.push(r.id);
      if (rows.length > 0) cursor = rows[rows.length - 1]!.seq;
      else if (allWritten) break;
    }
    await writing;
    expect(seen.length).toBe(writers * each);
    expect(new Set(seen)).toEqual(written);
  });

  it('events a process committed but never numbered (it died) join the feed at the next sweep, heard by every replica', async () => {
    const a = await seedAccount(store());
    const pool = (store() as PgStore).pool;
    // What a process leaves when it dies between its COMMIT and the numbering: rows without a position.
    await pool.query("INSERT INTO events (id, account_id, type, created_at, body) VALUES ('evt_orphan1', $1, 'message.sent', 1, '{}'), ('evt_orphan2', $1, 'message.sent', 2, '{}')", [a.id]);
    expect(await feed(a.id)).toEqual([]);
    const listener = await pool.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query('LISTEN svc_events');
    try {
      expect(await sequenceStragglers(new Sql(pool))).toBe(2);
      expect((await feed(a.id)).map((e) => e.id)).toEqual(['evt_orphan1', 'evt_orphan2']);
      await until(async () => heard.length === 2);
      // No sender: the sweeping process hears them too.
      expect(heard).toEqual([` ${a.id} message.sent evt_orphan1`, ` ${a.id} message.sent evt_orphan2`]);
      expect(await sequenceStragglers(new Sql(pool))).toBe(0);
    } finally {
      listener.release();
    }
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

// A write whose statements guard themselves (the webhook worker's claims, renewals and
// records) runs at READ COMMITTED: no predicate locks, so writes of neighbouring rows never abort it.
describe('postgres engine: a row-guarded write', () => {
  const store = useStore(postgresEngine);

  /**
   * Write skew: each of two writes reads one account and renames the other, both reading before
   * either writes (a barrier). At SERIALIZABLE that is a cycle PostgreSQL must break: one write is
   * rolled back and run again. Row-guarded, both commit at their first try.
   */
  const skew = async (opts: { rowGuarded?: boolean }) => {
    const pg = store() as PgStore;
    const [a, b] = [await seedAccount(pg), await seedAccount(pg)];
    let bothRead!: () => void;
    const barrier = new Promise<void>((r) => (bothRead = r));
    let reads = 0;
    const crossed = (read: string, written: string) =>
      pg.write(async (tx) => {
        await tx.accounts.get(read);
        if (++reads === 2) bothRead();
        await barrier;
        await tx.accounts.update(written, { name: `renamed after reading ${read}` }, T0 + 1);
      }, opts);
    const before = pg.counters.attempts;
    await Promise.all([crossed(a.id, b.id), crossed(b.id, a.id)]);
    return { runs: pg.counters.attempts - before };
  };

  it('serializable by default: of two writes that each read what the other writes, one runs again', async () => {
    expect((await skew({})).runs).toBe(3);
  });

  it('row-guarded: both commit at their first run', async () => {
    expect((await skew({ rowGuarded: true })).runs).toBe(2);
  });
});

describe("postgres engine: a key's last use", () => {
  const store = useStore(postgresEngine);

  it('is left to a transaction already writing it: markUsed neither waits for it nor runs again', async () => {
    const pg = store() as PgStore;
    const a = await seedAccount(pg);
    const k = { id: uid('key'), accountId: a.id, name: 'k', mode: 'live' as const, hash: uid('hash'), prefix: 'sk_live_x', createdAt: T0, lastUsedAt: null, revokedAt: null };
    await pg.write((tx) => tx.keys.insert(k));
    const holder = await pg.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [T0 + 120_000, k.id]);
      const before = pg.counters.attempts;
      // Waiting for the holder's lock would hang here (it commits only after).
      await pg.write((tx) => tx.keys.markUsed(k.id, T0 + 60_000), { rowGuarded: true });
      expect(pg.counters.attempts - before).toBe(1);
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
    expect((await pg.read((tx) => tx.keys.get(a.id, k.id)))?.lastUsedAt).toBe(T0 + 120_000);
  });
});

// What a send costs in round trips to the server (waits for an answer) and statements.
describe('postgres engine: round trips', () => {
  const store = useStore(postgresEngine);
  const cost = async (run: (pg: PgStore) => Promise<unknown>): Promise<{ trips: number; statements: number }> => {
    const pg = store() as PgStore;
    const before = { ...pg.counters };
    await run(pg);
    return { trips: pg.counters.roundTrips - before.roundTrips, statements: pg.counters.statements - before.statements };
  };
  const roundTrips = async (fn: Parameters<PgStore['write']>[0]): Promise<number> => (await cost((pg) => pg.write(fn))).trips;

  it("a send's two events are one insert, numbered in one call after the commit; the outbox's endpoint read is made once per transaction", async () => {
    const a = await seedAccount(store());
    const ev = (type: string) => ({ id: uid('evt'), accountId: a.id, type, createdAt: T0, body: { type } });
    const trips = await roundTrips(async (tx) => {
      await tx.eventsRepo.insertMany([ev('message.sent'), ev('message.delivered')]);
      for (let i = 0; i < 2; i++) expect(await tx.webhookEndpoints.enabledForAccount(a.id)).toEqual([]);
    });
    // BEGIN with the insert, one endpoint read, COMMIT with the numbering (feed-order.ts).
    expect(trips).toBe(3);
  });

  it('a transaction opens with its first statement and commits with its numbering, in one socket write each; one that sends nothing costs nothing', async () => {
    const a = await seedAccount(store());
    const ev = { id: uid('evt'), accountId: a.id, type: 'message.sent', createdAt: T0, body: {} };
    // BEGIN and the insert, then COMMIT and the numbering: four statements, two waits.
    expect(await cost((pg) => pg.write((tx) => tx.eventsRepo.insert(ev)))).toEqual({ trips: 2, statements: 4 });
    expect(await cost((pg) => pg.write(async () => 'nothing to do'))).toEqual({ trips: 0, statements: 0 });
    // The numbering sent with the COMMIT ran after it: the event is in the feed once the write returns.
    expect((await store().read((tx) => tx.eventsRepo.feedPage(a.id, { order: 'asc', limit: 10, exact: [], prefixes: [] }))).rows.map((r) => r.id)).toEqual([ev.id]);
  });

  it("the statements a client is asked for in one turn leave in one socket write: a write's unawaited record with its COMMIT, a group's writes one after another", async () => {
    const pg = store() as PgStore;
    const a = await seedAccount(pg);
    const ev = () => ({ id: uid('evt'), accountId: a.id, type: 'message.sent', createdAt: T0, body: {} });
    const scope = (key: string) => ({ accountId: a.id, mode: 'test' as const, method: 'POST', path: '/v1/things', key });
    const answered = (key: string) => async (tx: Transaction) => {
      await tx.eventsRepo.insert(ev());
      await tx.idempotency.record(scope(key), 'h', 201, '{}', T0);
    };
    let before = { ...pg.counters };
    await pg.write(answered('k-turn'));
    // BEGIN with the insert; the record, the COMMIT and the numbering (three writes before).
    expect({ writes: pg.counters.socketWrites - before.socketWrites, statements: pg.counters.statements - before.statements }).toEqual({ writes: 2, statements: 5 });
    // A group of three (one slot): each write's record leaves with the next one's insert.
    const url = (pg.pool as unknown as { options: { connectionString: string } }).options.connectionString;
    const grouped = new PgStore(openPgPool(url, { max: 1 }), { groupSlots: 1, groupJoinWindowMs: Infinity });
    try {
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      before = { ...grouped.counters };
      const held = grouped.write(async (tx) => {
        await gate;
        await answered('k-group-0')(tx);
      });
      const rest = [1, 2].map((i) => grouped.write(answered(`k-group-${i}`)));
      open();
      await Promise.all([held, ...rest]);
      expect({ writes: grouped.counters.socketWrites - before.socketWrites, statements: grouped.counters.statements - before.statements, transactions: grouped.counters.attempts - before.attempts }).toEqual({ writes: 4, statements: 9, transactions: 1 });
    } finally {
      await grouped.close();
    }
  });

  it('a read of one statement is no transaction: one wait, one statement; a second statement under it is refused', async () => {
    const a = await seedAccount(store());
    expect(await cost((pg) => pg.read((tx) => tx.accounts.get(a.id), { oneStatement: true }))).toEqual({ trips: 1, statements: 1 });
    // A read of two opens a snapshot with its first (BEGIN sent with it) and ends it unawaited.
    expect(await cost((pg) => pg.read(async (tx) => [await tx.accounts.get(a.id), await tx.accounts.all()]))).toEqual({ trips: 2, statements: 4 });
    await expect(store().read(async (tx) => [await tx.accounts.get(a.id), await tx.accounts.all()], { oneStatement: true })).rejects.toThrow(/one statement/);
  });

  it('a statement sent with BEGIN that fails fails its write alone: nothing committed, the connection fine for the next write', async () => {
    const a = await seedAccount(store());
    const first = { id: uid('evt'), accountId: a.id, type: 'message.sent', createdAt: T0, body: {} };
    await store().write((tx) => tx.eventsRepo.insert(first));
    const other = { ...first, id: uid('evt') };
    // The duplicate id is the transaction's first statement, pipelined with its BEGIN.
    await expect(store().write(async (tx) => {
      await tx.eventsRepo.insert(first);
      await tx.eventsRepo.insert(other);
    })).rejects.toBeInstanceOf(UniqueConstraintError);
    const feed = async () => (await store().read((tx) => tx.eventsRepo.feedPage(a.id, { order: 'asc', limit: 100, exact: [], prefixes: [] }))).rows.map((r) => r.id);
    expect(await feed()).toEqual([first.id]);
    // Every client of the pool still works (none left inside the failed transaction).
    await Promise.all(Array.from({ length: 12 }, () => store().write((tx) => tx.eventsRepo.insert({ ...first, id: uid('evt') }))));
    expect(await feed()).toHaveLength(13);
  });

  // commitOnce (http/idempotency.ts): a send's answer is recorded with no look at its key first (a
  // row of the key fails the record); a key with a row is then claimed in a write of its own, whose
  // first statement goes to the server with BEGIN and the claim.
  it("a write that commits once records its answer unlooked, its key's claim only when a row holds the key; a key answered already still wins, the write rolled back", async () => {
    const a = await seedAccount(store());
    const clock = new ManualClock(T0);
    const claim = (key: string) => ({ idempotency: { scope: { accountId: a.id, mode: 'test', method: 'POST', path: '/v1/things', key }, hash: 'h1', at: T0, held: false, completed: false } }) as unknown as FastifyRequest;
    const once = (pg: PgStore, req: FastifyRequest, evtId: string) =>
      commitOnce({ uow: { write: (fn, o) => pg.write(fn as never, o) } as UnitOfWork, clock }, req, 201, async (tx) => {
        const t = tx as unknown as Transaction;
        expect(await t.accounts.get(a.id)).toBeDefined();
        await t.eventsRepo.insert({ id: evtId, accountId: a.id, type: 'message.sent', createdAt: T0, body: {} });
        return { id: evtId };
      });
    const first = uid('evt');
    // BEGIN and the read; the insert; the record, COMMIT and the numbering: three waits, six statements
    // (a claim before the record was a seventh; five waits when the read waited for the claim's
    // answer and the COMMIT for the record's).
    expect(await cost((pg) => once(pg, claim('k-once'), first))).toEqual({ trips: 3, statements: 6 });
    const again = uid('evt');
    const pg = store() as PgStore;
    const before = pg.counters.attempts;
    await expect(once(pg, claim('k-once'), again)).rejects.toBeInstanceOf(IdempotentReplay);
    // Its record refused (the key has a row), the write ran again with the claim, which replays.
    expect(pg.counters.attempts - before).toBe(2);
    const feed = (await store().read((tx) => tx.eventsRepo.feedPage(a.id, { order: 'asc', limit: 10, exact: [], prefixes: [] }))).rows.map((r) => r.id);
    expect(feed).toEqual([first]);
  });

  it('a statement sent without waiting (the idempotency record) that fails fails its write: nothing committed, at the top or in a savepoint', async () => {
    const a = await seedAccount(store());
    const scope = { accountId: a.id, mode: 'test' as const, method: 'POST', path: '/v1/things', key: 'k-later' };
    const ev = () => ({ id: uid('evt'), accountId: a.id, type: 'message.sent', createdAt: T0, body: {} });
    const feed = async () => (await store().read((tx) => tx.eventsRepo.feedPage(a.id, { order: 'asc', limit: 10, exact: [], prefixes: [] }))).rows.map((r) => r.id);
    // A status that is no integer: the server refuses the record after it has left, unanswered.
    const badRecord = (tx: Transaction) => tx.idempotency.record(scope, 'h', 'not a status' as unknown as number, '{}', T0);
    await expect(store().write(async (tx) => {
      await tx.eventsRepo.insert(ev());
      await badRecord(tx);
    })).rejects.toThrow();
    await expect(store().write(async (tx) => {
      await tx.eventsRepo.insert(ev());
      await tx.savepoint(async (inner) => badRecord(inner));
    })).rejects.toThrow();
    expect(await feed()).toEqual([]);
    expect(await store().read((tx) => tx.idempotency.get(scope))).toBeUndefined();
    // A savepoint that fails after its record failed is rolled back, that failure with it: the write commits.
    const beside = ev();
    await store().write(async (tx) => {
      await tx.eventsRepo.insert(beside);
      await tx.savepoint(async (inner) => {
        await badRecord(inner);
        throw new Error('undone');
      }).catch(() => undefined);
    });
    expect(await feed()).toEqual([beside.id]);
    // Recorded well, it commits with the write; every client of the pool still works.
    const kept = ev();
    await Promise.all(Array.from({ length: 12 }, (_, i) => store().write(async (tx) => {
      if (i === 0) await tx.eventsRepo.insert(kept);
      await tx.idempotency.record({ ...scope, key: `k-later-${i}` }, 'h', 201, '{}', T0);
    })));
    expect(await feed()).toEqual([beside.id, kept.id]);
    expect(await store().read((tx) => tx.idempotency.get({ ...scope, key: 'k-later-11' }))).toMatchObject({ state: 'done', status: 201 });
  });

  it("a number read by phone is read once per transaction, follows its own writes and savepoints rolled back, and hands out copies", async () => {
    const pg = store() as PgStore;
    const a = await seedAccount(pg);
    const n = numberRecord(a.id);
    await pg.write((tx) => tx.numbers.insert(n));
    const { statements } = await cost((p) =>
      p.write(async (tx) => {
        const first = (await tx.numbers.findByPhone(a.id, n.phoneNumber))!;
        first.label = 'changed by the caller, not saved';
        expect((await tx.numbers.findByPhone(a.id, n.phoneNumber))!.label).toBe('Front desk');
      }),
    );
    // BEGIN with the one read, and COMMIT.
    expect(statements).toBe(3);
    await pg.write(async (tx) => {
      const found = (await tx.numbers.findByPhone(a.id, n.phoneNumber))!;
      await tx.numbers.save({ ...found, label: 'saved' });
      expect((await tx.numbers.findByPhone(a.id, n.phoneNumber))!.label).toBe('saved');
      await tx
        .savepoint(async (inner) => {
          await inner.numbers.save({ ...found, label: 'undone' });
          expect((await inner.numbers.findByPhone(a.id, n.phoneNumber))!.label).toBe('undone');
          throw new Error('undo');
        })
        .catch(() => undefined);
      expect((await tx.numbers.findByPhone(a.id, n.phoneNumber))!.label).toBe('saved');
    });
  });

  it("a sender's few active opt-outs are read once per transaction and follow its writes; past FEW_OPT_OUTS each question reads its own", async () => {
    const pg = store() as PgStore;
    const a = await seedAccount(pg);
    const from = '+14155550100';
    const optOut = (phoneNumber: string, sender = from) => ({ id: uid('opt'), accountId: a.id, numberId: null, from: sender, phoneNumber, keyword: 'STOP', status: 'active' as const, createdAt: T0, liftedAt: null, liftedKeyword: null });
    const stopped = optOut('+14155550199');
    await pg.write((tx) => tx.optOuts.insert(stopped));
    const asked = async (tx: Transaction, to: string, sender = from) => (await tx.optOuts.findActive(a.id, sender, to))?.id ?? null;
    const few = await cost((p) =>
      p.write(async (tx) => {
        expect(await asked(tx, stopped.phoneNumber)).toBe(stopped.id);
        expect(await asked(tx, '+14155550198')).toBeNull();
        // Another sender's consumer is not this sender's.
        expect(await asked(tx, stopped.phoneNumber, '+14155550101')).toBeNull();
        const late = optOut('+14155550198');
        await tx.optOuts.insert(late);
        expect(await asked(tx, late.phoneNumber)).toBe(late.id);
        expect(await tx.optOuts.lift(stopped.id, 'START', T0 + 1)).toBe(true);
        expect(await asked(tx, stopped.phoneNumber)).toBeNull();
      }),
    );
    // BEGIN with the sender's read, the other sender's, the insert, the read again, the lift, the read again, COMMIT.
    expect(few.statements).toBe(8);
    await pg.write(async (tx) => {
      for (let i = 0; i < FEW_OPT_OUTS; i++) await tx.optOuts.insert(optOut(`+1415666${String(i).padStart(4, '0')}`));
    });
    const many = await cost((p) =>
      p.write(async (tx) => {
        expect(await asked(tx, '+14155550198')).not.toBeNull();
        expect(await asked(tx, '+14156660007')).not.toBeNull();
        expect(await asked(tx, '+14155550199')).toBeNull();
      }),
    );
    // BEGIN with the sender's read (too many: one more than FEW_OPT_OUTS), three reads of one, COMMIT.
    expect(many.statements).toBe(6);
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

// A pooled client's repositories are made once per connection (a send's CPU had a third of
// its allocations in making them per transaction); what one transaction read must not reach the next.
describe("postgres engine: a pooled client's repositories", () => {
  const store = useStore(postgresEngine);

  it("are made once per connection, and each transaction on it starts without the last one's reads", async () => {
    const shared = store() as PgStore;
    const a = await seedAccount(shared);
    const url = (shared.pool as unknown as { options: { connectionString: string } }).options.connectionString;
    // One connection: every write below runs on the same client.
    const single = new PgStore(openPgPool(url, { max: 1 }));
    try {
      const repos: unknown[] = [];
      const routes = () =>
        single.write(async (tx) => {
          repos.push(tx.webhookEndpoints);
          // Twice in one transaction: the second is served from the first (Sql.once).
          await tx.webhookEndpoints.enabledForAccount(a.id);
          return (await tx.webhookEndpoints.enabledForAccount(a.id)).map((r) => r.id);
        });
      expect(await routes()).toEqual([]);
      // Added through another connection: nothing on `single`'s client hears of it.
      const e = endpoint(a.id);
      await shared.write((tx) => tx.webhookEndpoints.insert(e));
      expect(await routes()).toEqual([e.id]);
      expect(repos[1]).toBe(repos[0]);
      // A read on the same client after the writes sees the same.
      expect(await single.read(async (tx) => (await tx.webhookEndpoints.enabledForAccount(a.id)).length)).toBe(1);
      // That read's ROLLBACK is not waited for; the next write on the client still counts its first
      // statement, queued behind it, as a wait: BEGIN with the insert, then COMMIT with the numbering.
      const before = single.counters.roundTrips;
      await single.write((tx) => tx.eventsRepo.insert({ id: uid('evt'), accountId: a.id, type: 'message.sent', createdAt: T0, body: {} }));
      expect(single.counters.roundTrips - before).toBe(2);
    } finally {
      await single.close();
    }
  });
});

// Writes that wait for a slot commit together, one after another in one transaction.
describe('postgres engine: group commit', () => {
  const store = useStore(postgresEngine);

  /**
   * A store on the test's database whose writes run one group at a time (`groupSlots: 1`); writes
   * join a running group whatever its age unless a window is given (a slow machine would otherwise
   * decide what these tests see).
   */
  const oneSlot = (groupJoinWindowMs = Infinity) => {
    const url = ((store() as PgStore).pool as unknown as { options: { connectionString: string } }).options.connectionString;
    return new PgStore(openPgPool(url, { max: 2 }), { groupSlots: 1, guardOutsideCalls: true, groupJoinWindowMs });
  };
  const nameOf = async (pg: PgStore, id: string) => (await pg.read((tx) => tx.accounts.get(id)))?.name;

  /** Holds the only slot until `open()`: the writes asked for meanwhile wait for it together. */
  const holdSlot = (pg: PgStore) => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const held = pg.write(async () => await gate);
    return { held, open };
  };

  it('writes waiting for the slot run one after another in one transaction, each seeing the one before, and commit together', async () => {
    const pg = oneSlot();
    try {
      const a = await seedAccount(pg, { name: 'n' });
      const before = { ...pg.counters };
      const { held, open } = holdSlot(pg);
      // Each appends to the name it reads: only a serial order that shows each the one before gives "n123".
      const appends = [1, 2, 3].map((i) =>
        pg.write(async (tx) => {
          const name = (await tx.accounts.get(a.id))!.name;
          await tx.accounts.update(a.id, { name: `${name}${i}` }, T0 + i);
          return name;
        }),
      );
      open();
      await held;
      expect(await Promise.all(appends)).toEqual(['n', 'n1', 'n12']);
      expect(await nameOf(pg, a.id)).toBe('n123');
      // They joined the group of the write that held the slot: four writes, one transaction.
      expect(pg.counters.attempts - before.attempts).toBe(1);
      expect(pg.counters.groups - before.groups).toBe(1);
      expect(pg.counters.groupsUndone - before.groupsUndone).toBe(0);
    } finally {
      await pg.close();
    }
  });

  it('a group older than its window takes no more writes: a write asked for then waits for a group of its own, not for the older one to finish', async () => {
    // A window of 0: the group is past it as soon as it began (GROUP_JOIN_WINDOW_MS in use).
    const pg = oneSlot(0);
    try {
      let firstTx: Transaction | undefined;
      let laterTx: Transaction | undefined;
      const { held: first, open } = (() => {
        let open!: () => void;
        const gate = new Promise<void>((r) => (open = r));
        return { held: pg.write(async (tx) => ((firstTx = tx), await gate, 'first')), open };
      })();
      const later = pg.write(async (tx) => ((laterTx = tx), 'later'));
      open();
      expect(await first).toBe('first');
      expect(await later).toBe('later');
      expect(laterTx).toBeDefined();
      expect(laterTx).not.toBe(firstTx);
    } finally {
      await pg.close();
    }
  });

  it('while overdue writes wait and the pool has clients to spare, another group starts: a write does not wait behind a group held open', async () => {
    const url = ((store() as PgStore).pool as unknown as { options: { connectionString: string } }).options.connectionString;
    // One slot, and a pool of four: two clients beyond the held group and the one kept for reads; a
    // window of 0, so a waiting write is overdue at once.
    const pg = new PgStore(openPgPool(url, { max: 4 }), { groupSlots: 1, groupJoinWindowMs: 0 });
    const a = await seedAccount(pg, { name: 'beside' });
    const { held, open } = holdSlot(pg);
    try {
      let ran = false;
      const beside = pg.write(async (tx) => {
        ran = true;
        return (await tx.accounts.get(a.id))?.name;
      });
      await until(async () => ran);
      expect(await beside).toBe('beside');
    } finally {
      open();
      await held;
      await pg.close();
    }
  });

  it('a write refused inside a group undoes the group: each write runs again alone, the others commit, the refused one keeps nothing', async () => {
    const pg = oneSlot();
    try {
      const [a, b] = [await seedAccount(pg, { name: 'a' }), await seedAccount(pg, { name: 'b' })];
      const { held, open } = holdSlot(pg);
      const runs = { first: 0, refused: 0, last: 0 };
      const first = pg.write(async (tx) => {
        runs.first++;
        await tx.accounts.update(a.id, { name: 'a renamed' }, T0 + 1);
      });
      const refused = pg.write(async (tx) => {
        runs.refused++;
        await tx.accounts.update(b.id, { name: 'b renamed by a refused write' }, T0 + 1);
        throw new Error('refused by the domain');
      });
      // The group ends at the refused write: this one waits for the next and sees none of it.
      const last = pg.write(async (tx) => {
        runs.last++;
        return (await tx.accounts.get(b.id))!.name;
      });
      const before = { ...pg.counters };
      open();
      await held;
      await first;
      await expect(refused).rejects.toThrow('refused by the domain');
      expect(await last).toBe('b');
      expect(runs).toEqual({ first: 2, refused: 2, last: 1 });
      expect(pg.counters.groupsUndone - before.groupsUndone).toBe(1);
      expect(await nameOf(pg, a.id)).toBe('a renamed');
      expect(await nameOf(pg, b.id)).toBe('b');
    } finally {
      await pg.close();
    }
  });

  it('a group that loses a race runs its writes again alone, each with its own retries', async () => {
    const pg = oneSlot();
    try {
      const a = await seedAccount(pg, { name: 'a' });
      const { held, open } = holdSlot(pg);
      let raced = 0;
      const writes = [1, 2].map((i) =>
        pg.write(async (tx) => {
          await tx.eventsRepo.insert({ id: uid('evt'), accountId: a.id, type: 'message.sent', createdAt: T0, body: { i } });
          // What PostgreSQL raises when a concurrent write won the race, the first two times.
          if (i === 2 && raced++ < 2) throw Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
          return i;
        }),
      );
      const before = { ...pg.counters };
      open();
      await held;
      expect(await Promise.all(writes)).toEqual([1, 2]);
      // After the group (the holder, 1 and 2, begun before `before`), each alone: the holder, 1, and 2
      // twice (its first run alone lost again).
      expect(pg.counters.attempts - before.attempts).toBe(4);
      expect(pg.counters.groupsUndone - before.groupsUndone).toBe(1);
      const feed = await pg.read(async (tx) => (await tx.eventsRepo.feedPage(a.id, { order: 'asc', limit: 10, exact: [], prefixes: [] })).rows);
      expect(feed.map((e) => (e.body as { i: number }).i).sort()).toEqual([1, 2]);
    } finally {
      await pg.close();
    }
  });
});
