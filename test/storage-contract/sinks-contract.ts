import { describe, expect, it } from 'vitest';
import type { SinkRecord, SinkRequestRecord } from '../../src/server/storage/sinks-repo.js';
import type { Store } from '../../src/server/storage/store.js';
import type { EngineUnderTest } from './engine.js';
import { T0, endpoint, seedAccount, uid, useStore } from './fixtures.js';

// Sinks (contract §10, extension): a sink and its endpoint, the requests it keeps (positions, the
// newest `keep` only, a round trip of every field), pages by position, and going with its endpoint.

function sink(accountId: string, endpointId: string, over: Partial<SinkRecord> = {}): Omit<SinkRecord, 'received'> {
  return { id: uid('snk'), accountId, endpointId, url: `http://127.0.0.1:4010/sinks/${uid('snk')}`, respondStatus: 503, failFirst: 2, delayMs: 1500, createdAt: T0, ...over };
}

function request(sinkId: string, seq: number, over: Partial<SinkRequestRecord> = {}): SinkRequestRecord {
  return {
    sinkId,
    seq,
    id: uid('sreq'),
    receivedAt: T0 + seq,
    eventId: `evt_${seq}`,
    eventType: 'message.status',
    attempt: 1,
    headers: { 'content-type': 'application/json', 'x-service-signature': 't=1,v1=ab', 'x-odd': 'é ✓' },
    body: `{"n":${seq},"text":"é ✓"}`,
    signatureValid: true,
    answeredStatus: 200,
    ...over,
  };
}

/** An account, an endpoint and its sink. */
async function sinkFixture(store: Store, over: Partial<SinkRecord> = {}) {
  const a = await seedAccount(store);
  const e = endpoint(a.id);
  const s = sink(a.id, e.id, over);
  await store.write(async (tx) => {
    await tx.webhookEndpoints.insert(e);
    await tx.sinks.insert(s);
  });
  return { a, e, s };
}

/** Keeps one request the way the service does: a position taken, then the row at it. */
const keepOne = (store: Store, sinkId: string, keep: number, over: Partial<SinkRequestRecord> = {}) =>
  store.write(async (tx) => {
    const seq = await tx.sinks.nextPosition(sinkId);
    if (seq > 0) await tx.sinks.keepAt(request(sinkId, seq, over), keep);
    return seq;
  });

export function sinksContract(engine: EngineUnderTest): void {
  describe('sinks', () => {
    const store = useStore(engine);

    it('round-trips a sink; get is scoped; by id and by endpoint; the account list is newest first', async () => {
      const { a, e, s } = await sinkFixture(store());
      const b = await seedAccount(store());
      const newer = sink(a.id, endpoint(a.id).id, { createdAt: T0 + 10, respondStatus: 200, failFirst: 0, delayMs: 0 });
      const newerEndpoint = endpoint(a.id, { id: newer.endpointId });
      await store().write(async (tx) => {
        await tx.webhookEndpoints.insert(newerEndpoint);
        await tx.sinks.insert(newer);
      });
      await store().read(async (tx) => {
        expect(await tx.sinks.get(a.id, s.id)).toEqual({ ...s, received: 0 });
        expect(await tx.sinks.get(b.id, s.id)).toBeUndefined();
        expect(await tx.sinks.getById(s.id)).toEqual({ ...s, received: 0 });
        expect(await tx.sinks.getById('snk_missing')).toBeUndefined();
        expect(await tx.sinks.byEndpoint(e.id)).toEqual({ ...s, received: 0 });
        expect(await tx.sinks.byEndpoint('we_missing')).toBeUndefined();
        expect((await tx.sinks.listForAccount(a.id)).map((x) => x.id)).toEqual([newer.id, s.id]);
        expect(await tx.sinks.listForAccount(b.id)).toEqual([]);
      });
    });

    it('keeps requests at growing positions, every field round-tripping; counts the ones naming an event', async () => {
      const { a, s } = await sinkFixture(store());
      expect(await keepOne(store(), s.id, 10)).toBe(1);
      expect(await keepOne(store(), s.id, 10, { eventId: null, eventType: null, attempt: null, headers: {}, body: '', signatureValid: false, answeredStatus: null })).toBe(2);
      expect(await keepOne(store(), s.id, 10, { eventId: 'evt_1' })).toBe(3);
      await store().read(async (tx) => {
        const { rows, hasMore } = await tx.sinks.requestsPage(s.id, { order: 'asc', limit: 10 });
        expect(hasMore).toBe(false);
        expect(rows.map((r) => r.seq)).toEqual([1, 2, 3]);
        expect(rows[0]).toEqual({ ...request(s.id, 1), id: rows[0]!.id });
        expect(rows[1]).toMatchObject({ seq: 2, eventId: null, eventType: null, attempt: null, headers: {}, body: '', signatureValid: false, answeredStatus: null });
        expect(await tx.sinks.countForEvent(s.id, 'evt_1')).toBe(2);
        expect(await tx.sinks.countForEvent(s.id, 'evt_9')).toBe(0);
        expect((await tx.sinks.get(a.id, s.id))!.received).toBe(3);
      });
      await store().write((tx) => tx.sinks.setAnswered(s.id, 1, null));
      await store().write((tx) => tx.sinks.setAnswered(s.id, 2, 504));
      const rows = (await store().read((tx) => tx.sinks.requestsPage(s.id, { order: 'asc', limit: 10 }))).rows;
      expect(rows.map((r) => r.answeredStatus)).toEqual([null, 504, 200]);
    });

    it('keeps only the newest `keep` requests: the oldest is dropped as each new one arrives', async () => {
      const { s } = await sinkFixture(store());
      for (let i = 0; i < 7; i++) await keepOne(store(), s.id, 3);
      const rows = (await store().read((tx) => tx.sinks.requestsPage(s.id, { order: 'asc', limit: 100 }))).rows;
      expect(rows.map((r) => r.seq)).toEqual([5, 6, 7]);
    });

    it('pages by position: after (asc) or before (desc), with limit+1 telling hasMore', async () => {
      const { s } = await sinkFixture(store());
      for (let i = 0; i < 5; i++) await keepOne(store(), s.id, 100);
      await store().read(async (tx) => {
        const page = (r: Parameters<typeof tx.sinks.requestsPage>[1]) => tx.sinks.requestsPage(s.id, r).then((p) => ({ seqs: p.rows.map((x) => x.seq), hasMore: p.hasMore }));
        expect(await page({ order: 'desc', limit: 2 })).toEqual({ seqs: [5, 4], hasMore: true });
        expect(await page({ order: 'desc', limit: 2, beforeSeq: 4 })).toEqual({ seqs: [3, 2], hasMore: true });
        expect(await page({ order: 'desc', limit: 2, beforeSeq: 2 })).toEqual({ seqs: [1], hasMore: false });
        expect(await page({ order: 'asc', limit: 3, afterSeq: 1 })).toEqual({ seqs: [2, 3, 4], hasMore: true });
        expect(await page({ order: 'asc', limit: 3, afterSeq: 5 })).toEqual({ seqs: [], hasMore: false });
        expect(await page({ order: 'desc', limit: 10, afterSeq: 2, beforeSeq: 5 })).toEqual({ seqs: [4, 3], hasMore: false });
      });
    });

    it("requests kept at once for one sink take every position once, and become visible in their positions' order", async () => {
      const { s } = await sinkFixture(store());
      const seqs = await Promise.all(Array.from({ length: 20 }, () => keepOne(store(), s.id, 100)));
      expect([...seqs].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      const rows = (await store().read((tx) => tx.sinks.requestsPage(s.id, { order: 'asc', limit: 100 }))).rows;
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it('a sink goes with its endpoint, its requests with it; a position of a sink gone is 0', async () => {
      const { a, e, s } = await sinkFixture(store());
      await keepOne(store(), s.id, 10);
      await store().write((tx) => tx.webhookEndpoints.delete(e.id));
      await store().read(async (tx) => {
        expect(await tx.sinks.get(a.id, s.id)).toBeUndefined();
        expect((await tx.sinks.requestsPage(s.id, { order: 'asc', limit: 10 })).rows).toEqual([]);
      });
      expect(await keepOne(store(), s.id, 10)).toBe(0);
    });
  });
}
