import { describe, expect, it } from 'vitest';
import type { NewDelivery } from '../../src/server/storage/webhook-deliveries-repo.js';
import type { Store } from '../../src/server/storage/store.js';
import type { EngineUnderTest } from './engine.js';
import { KEYSET_TIMES, T0, endpoint, newestFirst, pageAll, seedAccount, uid, useStore } from './fixtures.js';

// The events feed, durable jobs, webhook endpoints and deliveries (the outbox and its worker).

const ev = (accountId: string, type: string, createdAt = T0) => ({ id: uid('evt'), accountId, type, createdAt, body: { id: 'x', type, createdAt, data: { n: 1, nested: [true, null, 'é'] } } });

function delivery(accountId: string, endpointId: string, eventId: string, over: Partial<NewDelivery> = {}): NewDelivery {
  return { id: uid('dlv'), endpointId, accountId, eventId, eventType: 'message.sent', body: null, isTest: false, maxAttempts: 5, createdAt: T0, ...over };
}

/** An account, one endpoint and one stored event, ready for deliveries. */
async function outboxFixture(store: Store) {
  const a = await seedAccount(store);
  const e = endpoint(a.id);
  const event = ev(a.id, 'message.sent');
  await store.write(async (tx) => {
    await tx.webhookEndpoints.insert(e);
    await tx.eventsRepo.insert(event);
  });
  return { a, e, event };
}

export function eventsContract(engine: EngineUnderTest): void {
  describe('eventsRepo', () => {
    const store = useStore(engine);

    // An engine may give a position at insert (SQLite) or just after the commit (PostgreSQL:
    // storage/postgres/feed-order.ts): positions are read back from the feed once committed.
    const positions = (accountId: string) =>
      store().read(async (tx) => (await tx.eventsRepo.feedPage(accountId, { order: 'asc', limit: 100, exact: [], prefixes: [] })).rows.map((r) => [r.id, r.seq] as const));

    it("committed events get growing positions in insertion order; headSeq is the account's last; get is scoped and the body round-trips", async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      expect(await store().read((tx) => tx.eventsRepo.headSeq(a.id))).toBe(0);
      const [e1, e2, e3] = [ev(a.id, 'message.sent'), ev(b.id, 'call.completed'), ev(a.id, 'call.completed')];
      await store().write(async (tx) => {
        for (const e of [e1, e2, e3]) await tx.eventsRepo.insert(e);
      });
      const [ofA, ofB] = [await positions(a.id), await positions(b.id)];
      expect(ofA.map(([id]) => id)).toEqual([e1.id, e3.id]);
      expect(ofB.map(([id]) => id)).toEqual([e2.id]);
      const [p1, p3, p2] = [ofA[0]![1], ofA[1]![1], ofB[0]![1]];
      expect(p1).toBeGreaterThan(0);
      expect(p1).toBeLessThan(p3);
      await store().read(async (tx) => {
        expect(await tx.eventsRepo.headSeq(a.id)).toBe(p3);
        expect(await tx.eventsRepo.headSeq(b.id)).toBe(p2);
        expect(await tx.eventsRepo.get(a.id, e1.id)).toEqual({ ...e1, seq: p1 });
        expect(await tx.eventsRepo.get(b.id, e1.id)).toBeUndefined();
        expect(await tx.eventsRepo.listByType(a.id, 'call.completed')).toEqual([{ ...e3, seq: p3 }]);
      });
    });

    it("insertMany gives an account's events growing positions in the order given, after the ones before, each stored as one insert would", async () => {
      const a = await seedAccount(store());
      await store().write((tx) => tx.eventsRepo.insert(ev(a.id, 'message.sent')));
      const first = (await positions(a.id))[0]![1];
      const many = ['message.status', 'call.completed', 'message.received'].map((type) => ev(a.id, type));
      await store().write((tx) => tx.eventsRepo.insertMany(many));
      expect(await store().write((tx) => tx.eventsRepo.insertMany([]))).toEqual([]);
      const page = await store().read((tx) => tx.eventsRepo.feedPage(a.id, { afterSeq: first, order: 'asc', limit: 10, exact: [], prefixes: [] }));
      expect(page.rows.map(({ seq, ...rest }) => rest)).toEqual(many);
      const seqs = page.rows.map((r) => r.seq);
      expect(seqs[0]!).toBeGreaterThan(first);
      expect(seqs[1]!).toBeGreaterThan(seqs[0]!);
      expect(seqs[2]!).toBeGreaterThan(seqs[1]!);
    });

    it('feedPage pages after a position (asc) or before one (desc), with limit+1 telling hasMore', async () => {
      const a = await seedAccount(store());
      const events = Array.from({ length: 5 }, (_, i) => ev(a.id, `message.t${i}`));
      await store().write(async (tx) => {
        for (const e of events) await tx.eventsRepo.insert(e);
      });
      const seqs = (await positions(a.id)).map(([, seq]) => seq);
      const page = (r: { afterSeq?: number; beforeSeq?: number; order: 'asc' | 'desc'; limit: number }) =>
        store().read((tx) => tx.eventsRepo.feedPage(a.id, { exact: [], prefixes: [], ...r }));
      const p1 = await page({ order: 'asc', limit: 2 });
      expect([p1.rows.map((e) => e.seq), p1.hasMore]).toEqual([seqs.slice(0, 2), true]);
      const p2 = await page({ afterSeq: seqs[1], order: 'asc', limit: 3 });
      expect([p2.rows.map((e) => e.seq), p2.hasMore]).toEqual([seqs.slice(2), false]);
      const d = await page({ beforeSeq: seqs[3], order: 'desc', limit: 2 });
      expect([d.rows.map((e) => e.seq), d.hasMore]).toEqual([[seqs[2], seqs[1]], true]);
      expect((await page({ afterSeq: seqs[4], order: 'asc', limit: 10 })).rows).toEqual([]);
      expect(p1.rows[0]).toEqual({ ...events[0], seq: seqs[0] });
    });

    it("getMany: the account's events among the ids, in feed order; another account's and unknown ids are left out", async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const [e1, e2, e3, other] = [ev(a.id, 'message.sent'), ev(a.id, 'call.completed'), ev(a.id, 'message.status'), ev(b.id, 'message.sent')];
      await store().write(async (tx) => {
        for (const e of [e1, e2, e3, other]) await tx.eventsRepo.insert(e);
      });
      const byPosition = new Map(await positions(a.id));
      await store().read(async (tx) => {
        expect(await tx.eventsRepo.getMany(a.id, [])).toEqual([]);
        const got = await tx.eventsRepo.getMany(a.id, [e3.id, other.id, 'evt_unknown', e1.id]);
        expect(got).toEqual([e1, e3].map((e) => ({ ...e, seq: byPosition.get(e.id) })));
      });
    });

    it('type filters: exact types and prefixes are ORed; a prefix is literal (`_` is no wildcard)', async () => {
      const a = await seedAccount(store());
      const types = ['message.sent', 'message.failed', 'call.completed', 'number_port.done', 'numberXport.done', 'email.sent'];
      await store().write(async (tx) => {
        for (const t of types) await tx.eventsRepo.insert(ev(a.id, t));
      });
      const typesOf = async (exact: string[], prefixes: string[]) =>
        (await store().read((tx) => tx.eventsRepo.feedPage(a.id, { order: 'asc', limit: 10, exact, prefixes }))).rows.map((e) => e.type);
      expect(await typesOf(['call.completed'], ['message.'])).toEqual(['message.sent', 'message.failed', 'call.completed']);
      expect(await typesOf([], ['number_port.'])).toEqual(['number_port.done']);
      expect(await typesOf(['email.sent', 'message.sent'], [])).toEqual(['message.sent', 'email.sent']);
    });
  });

  describe('jobs', () => {
    const store = useStore(engine);

    it('due answers jobs by run time, then insertion, up to a limit; nextDue is the first; payload round-trips', async () => {
      await store().write(async (tx) => {
        await tx.jobs.insert('j-late', 'k', T0 + 10, { a: 1 }, T0);
        await tx.jobs.insert('j-1', 'k', T0, { nested: { list: [1, 'x', null] }, flag: false }, T0);
        await tx.jobs.insert('j-2', 'k', T0, null, T0);
        await tx.jobs.insert('j-early', 'other', T0 - 5, 'text', T0);
        await tx.jobs.insert('j-future', 'k', T0 + 1000, [], T0);
      });
      await store().read(async (tx) => {
        const due = await tx.jobs.due(T0 + 10, 10);
        expect(due.map((j) => j.id)).toEqual(['j-early', 'j-1', 'j-2', 'j-late']);
        expect(due.map((j) => j.payload)).toEqual(['text', { nested: { list: [1, 'x', null] }, flag: false }, null, { a: 1 }]);
        expect(due.map((j) => [j.kind, j.runAt, j.attempts])).toEqual([['other', T0 - 5, 0], ['k', T0, 0], ['k', T0, 0], ['k', T0 + 10, 0]]);
        expect((await tx.jobs.due(T0 + 10, 2)).map((j) => j.id)).toEqual(['j-early', 'j-1']);
        expect((await tx.jobs.nextDue(T0 + 10))?.id).toBe('j-early');
        expect(await tx.jobs.nextDue(T0 - 6)).toBeUndefined();
        expect(await tx.jobs.earliestRunAt()).toBe(T0 - 5);
        expect(await tx.jobs.countByKind('k')).toBe(4);
      });
    });

    it('reschedule moves the run time and counts an attempt; delete removes; an empty queue has no earliest time', async () => {
      expect(await store().read((tx) => tx.jobs.earliestRunAt())).toBeUndefined();
      await store().write(async (tx) => {
        await tx.jobs.insert('a', 'k', T0, {}, T0);
        await tx.jobs.insert('b', 'k', T0, {}, T0);
      });
      await store().write(async (tx) => {
        await tx.jobs.reschedule('a', T0 + 60);
        await tx.jobs.reschedule('a', T0 + 120);
      });
      await store().read(async (tx) => {
        expect((await tx.jobs.due(T0 + 200, 10)).map((j) => [j.id, j.runAt, j.attempts])).toEqual([['b', T0, 0], ['a', T0 + 120, 2]]);
      });
      await store().write(async (tx) => {
        await tx.jobs.delete('a');
        await tx.jobs.delete('b');
      });
      expect(await store().read((tx) => tx.jobs.earliestRunAt())).toBeUndefined();
      expect(await store().read((tx) => tx.jobs.countByKind('k'))).toBe(0);
    });
  });

  describe('webhookEndpoints', () => {
    const store = useStore(engine);

    it('round-trips every field; get is scoped; lists and counts', async () => {
      const [a, b] = [await seedAccount(store()), await seedAccount(store())];
      const e1 = endpoint(a.id, { createdAt: T0 });
      const e2 = endpoint(a.id, { events: ['*'], description: 'all', enabled: false, disabledAt: T0 + 1, disabledReason: 'failing', consecutiveFailures: 7, failingSince: T0 - 9, lastSuccessAt: T0 - 99, mode: 'live', createdAt: T0 + 1 });
      const e3 = endpoint(b.id);
      await store().write(async (tx) => {
        for (const e of [e1, e2, e3]) await tx.webhookEndpoints.insert(e);
      });
      await store().read(async (tx) => {
        expect(await tx.webhookEndpoints.get(a.id, e2.id)).toEqual(e2);
        expect(await tx.webhookEndpoints.get(b.id, e2.id)).toBeUndefined();
        expect(await tx.webhookEndpoints.getById(e1.id)).toEqual(e1);
        expect((await tx.webhookEndpoints.listForAccount(a.id)).map((e) => e.id)).toEqual([e2.id, e1.id]);
        expect((await tx.webhookEndpoints.listEnabled()).map((e) => e.id).sort()).toEqual([e1.id, e3.id].sort());
        expect(await tx.webhookEndpoints.countForAccount(a.id)).toBe(2);
        expect(await tx.webhookEndpoints.enabledForAccount(a.id)).toEqual([{ id: e1.id, accountId: a.id, url: e1.url, events: e1.events, secret: e1.secret, createdAt: e1.createdAt }]);
        expect(await tx.webhookEndpoints.targetById(e2.id)).toEqual({ id: e2.id, accountId: a.id, url: e2.url, events: ['*'], secret: e2.secret, createdAt: e2.createdAt, enabled: false, disabledReason: 'failing' });
      });
    });

    it('routes and targets follow committed updates and deletes, and ignore a rolled-back update', async () => {
      const a = await seedAccount(store());
      const e = endpoint(a.id);
      await store().write((tx) => tx.webhookEndpoints.insert(e));
      expect((await store().read((tx) => tx.webhookEndpoints.enabledForAccount(a.id))).map((r) => r.url)).toEqual([e.url]);
      expect((await store().read((tx) => tx.webhookEndpoints.targetById(e.id)))?.enabled).toBe(true);
      await expect(
        store().write(async (tx) => {
          await tx.webhookEndpoints.update(e.id, { url: 'http://127.0.0.1:9/rolled-back' }, T0 + 1);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect((await store().read((tx) => tx.webhookEndpoints.enabledForAccount(a.id))).map((r) => r.url)).toEqual([e.url]);
      await store().write((tx) => tx.webhookEndpoints.update(e.id, { url: 'http://127.0.0.1:9/new', events: ['*'] }, T0 + 2));
      expect(await store().read((tx) => tx.webhookEndpoints.enabledForAccount(a.id))).toEqual([{ id: e.id, accountId: a.id, url: 'http://127.0.0.1:9/new', events: ['*'], secret: e.secret, createdAt: e.createdAt }]);
      expect(await store().read((tx) => tx.webhookEndpoints.getById(e.id))).toEqual({ ...e, url: 'http://127.0.0.1:9/new', events: ['*'], updatedAt: T0 + 2 });
      await store().write((tx) => tx.webhookEndpoints.update(e.id, { enabled: false, disabledAt: T0 + 3, disabledReason: 'manual' }, T0 + 3));
      expect(await store().read((tx) => tx.webhookEndpoints.enabledForAccount(a.id))).toEqual([]);
      expect(await store().read((tx) => tx.webhookEndpoints.targetById(e.id))).toMatchObject({ enabled: false, disabledReason: 'manual' });
      await store().write((tx) => tx.webhookEndpoints.delete(e.id));
      expect(await store().read((tx) => tx.webhookEndpoints.targetById(e.id))).toBeUndefined();
      expect(await store().read((tx) => tx.webhookEndpoints.countForAccount(a.id))).toBe(0);
    });

    it('recordOutcome keeps the failing streak without touching updatedAt', async () => {
      const a = await seedAccount(store());
      const e = endpoint(a.id);
      await store().write(async (tx) => {
        await tx.webhookEndpoints.insert(e);
        await tx.webhookEndpoints.recordOutcome(e.id, false, T0 + 1);
        await tx.webhookEndpoints.recordOutcome(e.id, false, T0 + 2);
      });
      expect(await store().read((tx) => tx.webhookEndpoints.getById(e.id))).toEqual({ ...e, consecutiveFailures: 2, failingSince: T0 + 1 });
      await store().write((tx) => tx.webhookEndpoints.recordOutcome(e.id, true, T0 + 3));
      expect(await store().read((tx) => tx.webhookEndpoints.getById(e.id))).toEqual({ ...e, consecutiveFailures: 0, failingSince: null, lastSuccessAt: T0 + 3 });
    });
  });

  describe('webhookDeliveries', () => {
    const store = useStore(engine);

    it('a new delivery is pending, attempt 0, due at its creation; get is scoped to account and endpoint', async () => {
      const { a, e, event } = await outboxFixture(store());
      const b = await seedAccount(store());
      const d = delivery(a.id, e.id, event.id);
      await store().write((tx) => tx.webhookDeliveries.insert(d));
      const expected = { ...d, seq: expect.any(Number), attempt: 0, status: 'pending', responseStatus: null, responseBody: null, durationMs: null, error: null, nextAttemptAt: T0, attempts: [], updatedAt: T0 };
      await store().read(async (tx) => {
        expect(await tx.webhookDeliveries.getById(d.id)).toEqual(expected);
        expect(await tx.webhookDeliveries.get(a.id, e.id, d.id)).toEqual(expected);
        expect(await tx.webhookDeliveries.get(b.id, e.id, d.id)).toBeUndefined();
        expect(await tx.webhookDeliveries.get(a.id, 'we_other', d.id)).toBeUndefined();
      });
    });

    it('attempt state and the bytes to send: the stored event body, or the sample\'s own', async () => {
      const { a, e, event } = await outboxFixture(store());
      const d = delivery(a.id, e.id, event.id);
      const sample = delivery(a.id, e.id, 'evt_sample', { body: '{"sample":true}', isTest: true, eventType: 'webhook.test' });
      const orphan = delivery(a.id, e.id, 'evt_gone');
      await store().write(async (tx) => {
        for (const x of [d, sample, orphan]) await tx.webhookDeliveries.insert(x);
      });
      await store().read(async (tx) => {
        const state = await tx.webhookDeliveries.attemptState(d.id);
        expect(state).toEqual({ id: d.id, endpointId: e.id, eventId: event.id, eventType: 'message.sent', isTest: false, maxAttempts: 5, attempt: 0, nextAttemptAt: T0, rawBody: state!.rawBody });
        expect(JSON.parse(state!.rawBody!)).toEqual(event.body);
        expect((await tx.webhookDeliveries.attemptState(d.id, { body: false }))?.rawBody).toBeNull();
        expect((await tx.webhookDeliveries.attemptState(sample.id))?.rawBody).toBe('{"sample":true}');
        expect((await tx.webhookDeliveries.attemptState(orphan.id))?.rawBody).toBeNull();
        expect(await tx.webhookDeliveries.attemptState('dlv_missing')).toBeUndefined();
        expect(await tx.webhookDeliveries.rawBody((await tx.webhookDeliveries.getById(d.id))!)).toBe(state!.rawBody);
        expect(await tx.webhookDeliveries.rawBody((await tx.webhookDeliveries.getById(sample.id))!)).toBe('{"sample":true}');
        expect(await tx.webhookDeliveries.rawBody((await tx.webhookDeliveries.getById(orphan.id))!)).toBeUndefined();
      });
    });

    it('due answers deliveries whose next attempt is due, oldest due first; a recorded attempt claims it until its next time', async () => {
      const { a, e, event } = await outboxFixture(store());
      const [d1, d2, d3] = [delivery(a.id, e.id, event.id, { createdAt: T0 + 5 }), delivery(a.id, e.id, event.id, { createdAt: T0 }), delivery(a.id, e.id, event.id, { createdAt: T0 })];
      await store().write(async (tx) => {
        for (const d of [d1, d2, d3]) await tx.webhookDeliveries.insert(d);
      });
      await store().read(async (tx) => {
        expect(await tx.webhookDeliveries.due(T0 + 5)).toEqual([d2, d3, d1].map((d) => ({ id: d.id, endpointId: e.id })));
        expect((await tx.webhookDeliveries.due(T0 + 5, 1)).map((d) => d.id)).toEqual([d2.id]);
        expect((await tx.webhookDeliveries.due(T0)).map((d) => d.id)).toEqual([d2.id, d3.id]);
        expect((await tx.webhookDeliveries.dueForEvent(event.id, T0)).map((d) => d.id)).toEqual([d2.id, d3.id]);
      });
      const failed = { attempt: 1, status: 'failed' as const, responseStatus: 500, responseBody: 'oops', durationMs: 12, error: null, nextAttemptAt: T0 + 60_000 };
      const history = { attempt: 1, at: T0 + 1, outcome: 'failed' as const, responseStatus: 500, durationMs: 12, error: null };
      await store().write((tx) => tx.webhookDeliveries.recordAttempt(d2.id, { ...failed, history, now: T0 + 1 }));
      const ok = { attempt: 2, status: 'succeeded' as const, responseStatus: 204, responseBody: '', durationMs: 3, error: null, nextAttemptAt: null };
      const history2 = { attempt: 2, at: T0 + 60_000, outcome: 'succeeded' as const, responseStatus: 204, durationMs: 3, error: null };
      await store().read(async (tx) => {
        expect((await tx.webhookDeliveries.due(T0 + 5)).map((d) => d.id)).toEqual([d3.id, d1.id]);
        expect((await tx.webhookDeliveries.due(T0 + 60_000)).map((d) => d.id)).toEqual([d3.id, d1.id, d2.id]);
      });
      await store().write((tx) => tx.webhookDeliveries.recordAttempt(d2.id, { ...ok, history: history2, now: T0 + 60_000 }));
      const got = await store().read((tx) => tx.webhookDeliveries.getById(d2.id));
      expect(got).toMatchObject({ ...ok, attempts: [history, history2], updatedAt: T0 + 60_000 });
      expect((await store().read((tx) => tx.webhookDeliveries.due(T0 + 10 ** 9))).map((d) => d.id)).not.toContain(d2.id);
    });

    it("an attempt's history keeps the request it sent and its response's excerpt as given, by one write or a batch's", async () => {
      const { a, e, event } = await outboxFixture(store());
      const d = delivery(a.id, e.id, event.id, { createdAt: T0 });
      await store().write((tx) => tx.webhookDeliveries.insert(d));
      // Text a column must hold as it is: quotes, markup, a backslash, a newline, non-ASCII (NUL never
      // reaches it: recordAttempts makes it U+FFFD).
      const hostile = `"</pre><script>x</script>' \\ \n é ✓`;
      const request = { url: `https://example.com/hook?q=${encodeURIComponent(hostile)}`, headers: { 'Content-Type': 'application/json', 'X-Service-Signature': 't=1,v1=ab', 'Service-Event-Type': hostile } };
      const first = { attempt: 1, at: T0 + 1, outcome: 'failed' as const, responseStatus: 500, durationMs: 7, error: 'HTTP 500', responseBody: hostile, request };
      await store().write((tx) =>
        tx.webhookDeliveries.recordAttempt(d.id, { attempt: 1, status: 'failed', responseStatus: 500, responseBody: hostile, durationMs: 7, error: 'HTTP 500', nextAttemptAt: T0 + 60_000, history: first, now: T0 + 1 }),
      );
      const second = { attempt: 2, at: T0 + 60_000, outcome: 'failed' as const, responseStatus: null, durationMs: null, error: 'refused', responseBody: null, request: null };
      await store().write((tx) =>
        tx.webhookDeliveries.recordAttempts([{ id: d.id, attempt: 2, status: 'abandoned', responseStatus: null, responseBody: null, durationMs: null, error: 'refused', nextAttemptAt: null, history: second, now: T0 + 60_000 }]),
      );
      expect((await store().read((tx) => tx.webhookDeliveries.getById(d.id)))!.attempts).toEqual([first, second]);
    });

    it('scheduleAttempt, abandon and abandonScheduled set the next attempt; purge drops finished old rows only', async () => {
      const { a, e, event } = await outboxFixture(store());
      const other = endpoint(a.id);
      const ds = [0, 1, 2].map(() => delivery(a.id, e.id, event.id));
      const elsewhere = delivery(a.id, other.id, event.id);
      await store().write(async (tx) => {
        await tx.webhookEndpoints.insert(other);
        for (const d of [...ds, elsewhere]) await tx.webhookDeliveries.insert(d);
        await tx.webhookDeliveries.abandon(ds[0]!.id, 'event gone', T0 + 1);
      });
      expect(await store().read((tx) => tx.webhookDeliveries.getById(ds[0]!.id))).toMatchObject({ status: 'abandoned', nextAttemptAt: null, error: 'event gone', updatedAt: T0 + 1 });
      expect(await store().write((tx) => tx.webhookDeliveries.abandonScheduled(e.id, 'endpoint disabled', T0 + 2))).toBe(2);
      expect(await store().read((tx) => tx.webhookDeliveries.getById(ds[1]!.id))).toMatchObject({ status: 'abandoned', nextAttemptAt: null, error: 'endpoint disabled' });
      expect(await store().read((tx) => tx.webhookDeliveries.getById(elsewhere.id))).toMatchObject({ status: 'pending', nextAttemptAt: T0 });
      await store().write((tx) => tx.webhookDeliveries.scheduleAttempt(ds[2]!.id, T0 + 500, 'pending', T0 + 3));
      expect(await store().read((tx) => tx.webhookDeliveries.getById(ds[2]!.id))).toMatchObject({ status: 'pending', nextAttemptAt: T0 + 500, updatedAt: T0 + 3 });
      // ds[0] and ds[1] are finished; ds[2] and `elsewhere` still scheduled: only the finished go.
      expect(await store().write((tx) => tx.webhookDeliveries.purgeFinishedBefore(T0 + 1))).toBe(2);
      expect(await store().read((tx) => tx.webhookDeliveries.getById(ds[0]!.id))).toBeUndefined();
      expect(await store().read((tx) => tx.webhookDeliveries.getById(ds[2]!.id))).toBeDefined();
      expect(await store().write((tx) => tx.webhookDeliveries.purgeFinishedBefore(T0))).toBe(0);
    });

    it('the delivery log: newest first across pages, since a time, with a status filter', async () => {
      const { a, e, event } = await outboxFixture(store());
      const ds = KEYSET_TIMES.map((t) => delivery(a.id, e.id, event.id, { createdAt: t }));
      await store().write(async (tx) => {
        for (const d of ds) await tx.webhookDeliveries.insert(d);
        await tx.webhookDeliveries.abandon(ds[1]!.id, 'x', T0);
      });
      const recent = ds.filter((d) => d.createdAt >= T0);
      const paged = await pageAll(2, (cursor) => store().read((tx) => tx.webhookDeliveries.list(e.id, { since: T0, limit: 2, cursor })));
      expect(paged.map((d) => d.id)).toEqual(newestFirst(recent, (d) => d.createdAt).map((d) => d.id));
      expect((await store().read((tx) => tx.webhookDeliveries.list(e.id, { since: 0, limit: 10, status: 'abandoned' }))).data.map((d) => d.id)).toEqual([ds[1]!.id]);
    });

    it("eventsLastIn: the events whose newest delivery to the endpoint is in a status, within the log's window, samples aside", async () => {
      const { a, e, event } = await outboxFixture(store());
      const other = endpoint(a.id);
      const [ev2, ev3, ev4] = [ev(a.id, 'message.status'), ev(a.id, 'message.status'), ev(a.id, 'message.status')];
      // event: failed then a newer delivery that succeeded (not failed any more); ev2: failed; ev3:
      // failed, but too old for the window; ev4: failed at another endpoint only; a failed sample.
      const ds = {
        oldFailed: delivery(a.id, e.id, event.id, { createdAt: T0 + 1 }),
        newerOk: delivery(a.id, e.id, event.id, { createdAt: T0 + 2 }),
        failed2: delivery(a.id, e.id, ev2.id, { createdAt: T0 + 3 }),
        tooOld: delivery(a.id, e.id, ev3.id, { createdAt: T0 - 1 }),
        elsewhere: delivery(a.id, other.id, ev4.id, { createdAt: T0 + 4 }),
        sample: delivery(a.id, e.id, 'evt_sample', { createdAt: T0 + 5, isTest: true, body: '{}' }),
      };
      const failed = (id: string) => ({ id, attempt: 1, status: 'failed' as const, responseStatus: 500, responseBody: null, durationMs: 1, error: 'HTTP 500', nextAttemptAt: T0 + 60_000, history: { attempt: 1, at: T0 + 6, outcome: 'failed' as const, responseStatus: 500, durationMs: 1, error: 'HTTP 500' }, now: T0 + 6 });
      await store().write(async (tx) => {
        await tx.webhookEndpoints.insert(other);
        for (const x of [ev2, ev3, ev4]) await tx.eventsRepo.insert(x);
        for (const d of Object.values(ds)) await tx.webhookDeliveries.insert(d);
        await tx.webhookDeliveries.recordAttempts([ds.oldFailed, ds.failed2, ds.tooOld, ds.elsewhere, ds.sample].map((d) => failed(d.id)));
        await tx.webhookDeliveries.recordAttempts([{ ...failed(ds.newerOk.id), status: 'succeeded', nextAttemptAt: null, responseStatus: 200, error: null }]);
      });
      await store().read(async (tx) => {
        expect(await tx.webhookDeliveries.eventsLastIn(e.id, 'failed', T0, 100)).toEqual([ev2.id]);
        // In the order the deliveries were written.
        expect(await tx.webhookDeliveries.eventsLastIn(e.id, 'failed', T0 - 1, 100)).toEqual([ev2.id, ev3.id]);
        expect(await tx.webhookDeliveries.eventsLastIn(e.id, 'failed', T0 - 1, 1)).toEqual([ev2.id]);
        expect(await tx.webhookDeliveries.eventsLastIn(e.id, 'succeeded', T0, 100)).toEqual([event.id]);
        expect(await tx.webhookDeliveries.eventsLastIn(other.id, 'failed', T0, 100)).toEqual([ev4.id]);
        expect(await tx.webhookDeliveries.eventsLastIn(e.id, 'abandoned', T0, 100)).toEqual([]);
      });
    });

    it('hasJobAt: whether a job of that kind is scheduled at exactly that time', async () => {
      await store().write((tx) => tx.jobs.insert('tick-1', 'webhook.tick', T0 + 1000, {}, T0));
      await store().read(async (tx) => {
        expect(await tx.webhookDeliveries.hasJobAt('webhook.tick', T0 + 1000)).toBe(true);
        expect(await tx.webhookDeliveries.hasJobAt('webhook.tick', T0 + 1001)).toBe(false);
        expect(await tx.webhookDeliveries.hasJobAt('other', T0 + 1000)).toBe(false);
      });
    });
  });
}
