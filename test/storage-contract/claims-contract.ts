import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/server/storage/store.js';
import type { EngineUnderTest } from './engine.js';
import { T0, endpoint, seedAccount, uid, useStore } from './fixtures.js';

// Claims. Work is done by exactly one process however many drain at once: a job run
// inside a write is held by that write (`jobs.lock`), work that calls the outside world is claimed
// with a lease (`jobs.claim`, `webhookDeliveries.claimAttempt`) that another process takes over once
// it has run out. Two claimers race here through two concurrent writes: on PostgreSQL they really
// overlap, on SQLite they run one after the other; either way exactly one wins.

const LONG = 60_000;

/** Waits, a check at a time, until `cond` holds (leases run out on the engine's wall clock). */
async function until(cond: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((r) => setTimeout(r, 2));
  }
}

async function deliveryFixture(store: Store, nextAttemptAt = T0) {
  const a = await seedAccount(store);
  const e = endpoint(a.id);
  const event = { id: uid('evt'), accountId: a.id, type: 'message.sent', createdAt: T0, body: { n: 1 } };
  const d = { id: uid('dlv'), endpointId: e.id, accountId: a.id, eventId: event.id, eventType: 'message.sent', body: null, isTest: false, maxAttempts: 5, createdAt: nextAttemptAt };
  await store.write(async (tx) => {
    await tx.webhookEndpoints.insert(e);
    await tx.eventsRepo.insert(event);
    await tx.webhookDeliveries.insert(d);
  });
  return d;
}

/** `n` deliveries of one event to one endpoint, due at T0 + i (so their due order is their index). */
async function manyDeliveries(store: Store, n: number) {
  const a = await seedAccount(store);
  const e = endpoint(a.id);
  const event = { id: uid('evt'), accountId: a.id, type: 'message.sent', createdAt: T0, body: { n: 1 } };
  const ds = Array.from({ length: n }, (_, i) => ({ id: uid('dlv'), endpointId: e.id, accountId: a.id, eventId: event.id, eventType: 'message.sent', body: null, isTest: false, maxAttempts: 5, createdAt: T0 + i }));
  await store.write(async (tx) => {
    await tx.webhookEndpoints.insert(e);
    await tx.eventsRepo.insert(event);
    for (const d of ds) await tx.webhookDeliveries.insert(d);
  });
  return { event, deliveries: ds };
}

const succeeded = (id: string, attempt: number) => ({
  id,
  attempt,
  status: 'succeeded' as const,
  responseStatus: 204,
  responseBody: '',
  durationMs: 1,
  error: null,
  nextAttemptAt: null,
  history: { attempt, at: T0, outcome: 'succeeded' as const, responseStatus: 204, durationMs: 1, error: null },
  now: T0,
});

export function claimsContract(engine: EngineUnderTest): void {
  describe('claims: jobs and webhook attempts', () => {
    const store = useStore(engine);

    it('a job run inside a write: two writes draining it at once, one holds it and removes it, the other skips it', async () => {
      await store().write((tx) => tx.jobs.insert('j-once', 'k', T0, null, T0));
      const drain = () =>
        store().write(async (tx) => {
          if (!(await tx.jobs.lock('j-once'))) return 'skipped';
          await tx.jobs.delete('j-once');
          return 'ran';
        });
      expect((await Promise.all([drain(), drain()])).sort()).toEqual(['ran', 'skipped']);
      expect(await store().read((tx) => tx.jobs.due(T0, 10))).toEqual([]);
    });

    it('a job that calls out: two claimers, one wins; a live claim hides it from due; an expired one is taken over; release and reschedule free it', async () => {
      await store().write((tx) => tx.jobs.insert('j-out', 'k', T0, null, T0));
      const claim = (owner: string, leaseMs: number) => store().write((tx) => tx.jobs.claim('j-out', owner, leaseMs));
      expect((await Promise.all([claim('a', LONG), claim('b', LONG)])).sort()).toEqual([false, true]);
      expect(await store().read((tx) => tx.jobs.due(T0, 10))).toEqual([]);
      expect(await store().read((tx) => tx.jobs.nextDue(T0))).toBeUndefined();
      expect(await claim('c', LONG)).toBe(false);

      await store().write((tx) => tx.jobs.releaseClaims('a'));
      await store().write((tx) => tx.jobs.releaseClaims('b'));
      // A claimant that dies: its lease runs out, the job is due again and another takes it over.
      expect(await claim('dies', 1)).toBe(true);
      await until(async () => (await store().read((tx) => tx.jobs.due(T0, 10))).length === 1);
      expect(await claim('survivor', LONG)).toBe(true);
      expect(await claim('third', LONG)).toBe(false);
      // A failed job rescheduled is free to claim at its new time.
      await store().write((tx) => tx.jobs.reschedule('j-out', T0 + 5));
      expect((await store().read((tx) => tx.jobs.due(T0 + 5, 10))).map((j) => [j.id, j.attempts])).toEqual([['j-out', 1]]);
      expect(await claim('third', LONG)).toBe(true);
    });

    it('a webhook attempt: two claimers, one wins; only while due (any time for a probe); recording releases it', async () => {
      const d = await deliveryFixture(store());
      const claim = (owner: string, now = T0, anyTime = false, leaseMs = LONG) => store().write((tx) => tx.webhookDeliveries.claimAttempt(d.id, owner, leaseMs, now, anyTime));
      expect(await claim('early', T0 - 1)).toBe(false);
      expect((await Promise.all([claim('a'), claim('b')])).sort()).toEqual([false, true]);
      // Still listed as due (whoever lists it may queue it); only the claim decides who attempts it.
      expect(await store().read((tx) => tx.webhookDeliveries.due(T0))).toEqual([{ id: d.id, endpointId: d.endpointId }]);
      expect(await claim('probe', T0 - 1, true)).toBe(false);
      const outcome = { attempt: 1, status: 'failed' as const, responseStatus: 500, responseBody: '', durationMs: 1, error: 'HTTP 500', nextAttemptAt: T0 + 300_000 };
      await store().write((tx) => tx.webhookDeliveries.recordAttempt(d.id, { ...outcome, history: { attempt: 1, at: T0, outcome: 'failed', responseStatus: 500, durationMs: 1, error: 'HTTP 500' }, now: T0 }));
      expect(await claim('next', T0)).toBe(false); // the retry is not due yet
      expect(await claim('probe', T0, true)).toBe(true); // a manual retry goes now
    });

    it("a live claim of the owner's own (its write committed, the answer lost with the connection) is the owner's to take again, never another's", async () => {
      await store().write((tx) => tx.jobs.insert('j-lost', 'k', T0, null, T0));
      expect(await store().write((tx) => tx.jobs.claim('j-lost', 'me', LONG))).toBe(true);
      expect(await store().read((tx) => tx.jobs.due(T0, 10, 'other'))).toEqual([]);
      expect(await store().read((tx) => tx.jobs.nextDue(T0, 'other'))).toBeUndefined();
      expect((await store().read((tx) => tx.jobs.due(T0, 10, 'me'))).map((j) => j.id)).toEqual(['j-lost']);
      expect((await store().read((tx) => tx.jobs.nextDue(T0, 'me')))?.id).toBe('j-lost');
      expect(await store().write((tx) => tx.jobs.claim('j-lost', 'other', LONG))).toBe(false);
      expect(await store().write((tx) => tx.jobs.claim('j-lost', 'me', LONG))).toBe(true);

      const d = await deliveryFixture(store());
      expect(await store().write((tx) => tx.webhookDeliveries.claimAttempts([d.id], 'me', LONG, T0))).toEqual([d.id]);
      expect(await store().write((tx) => tx.webhookDeliveries.claimAttempts([d.id], 'other', LONG, T0))).toEqual([]);
      expect(await store().write((tx) => tx.webhookDeliveries.claimAttempt(d.id, 'other', LONG, T0, true))).toBe(false);
      expect(await store().write((tx) => tx.webhookDeliveries.claimAttempts([d.id], 'me', LONG, T0))).toEqual([d.id]);
      expect(await store().write((tx) => tx.webhookDeliveries.claimAttempt(d.id, 'me', LONG, T0, false))).toBe(true);
    });

    it('a webhook attempt whose claimant died: listed once its lease ran out, and taken over by another', async () => {
      const d = await deliveryFixture(store());
      expect(await store().write((tx) => tx.webhookDeliveries.claimAttempt(d.id, 'dies', 1, T0, false))).toBe(true);
      await until(async () => (await store().read((tx) => tx.webhookDeliveries.leaseExpired(10))).length === 1);
      expect(await store().read((tx) => tx.webhookDeliveries.leaseExpired(10))).toEqual([{ id: d.id, endpointId: d.endpointId }]);
      expect(await store().write((tx) => tx.webhookDeliveries.claimAttempt(d.id, 'survivor', LONG, T0, false))).toBe(true);
      expect(await store().read((tx) => tx.webhookDeliveries.leaseExpired(10))).toEqual([]);
      await store().write((tx) => tx.webhookDeliveries.releaseClaims('survivor'));
      expect(await store().write((tx) => tx.webhookDeliveries.claimAttempt(d.id, 'next', LONG, T0, false))).toBe(true);
    });

    it('a webhook attempt nobody claimed (its writer died before its worker reached it): listed once due by the cut-off, never while claimed or once recorded', async () => {
      const d = await deliveryFixture(store());
      const unclaimed = (dueBy: number) => store().read((tx) => tx.webhookDeliveries.unclaimedDue(dueBy, 10));
      expect(await unclaimed(T0 - 1)).toEqual([]);
      expect(await unclaimed(T0)).toEqual([{ id: d.id, endpointId: d.endpointId }]);
      expect(await store().write((tx) => tx.webhookDeliveries.claimAttempt(d.id, 'survivor', LONG, T0, false))).toBe(true);
      expect(await unclaimed(T0)).toEqual([]);
      await store().write((tx) => tx.webhookDeliveries.recordAttempt(d.id, { attempt: 1, status: 'succeeded', responseStatus: 204, responseBody: '', durationMs: 1, error: null, nextAttemptAt: null, history: { attempt: 1, at: T0, outcome: 'succeeded', responseStatus: 204, durationMs: 1, error: null }, now: T0 }));
      expect(await unclaimed(T0 + LONG)).toEqual([]);
    });

    // Work that runs longer than its lease renews it, so another process cannot take it
    // over while it runs. A short lease, renewed every tenth of it, past twice its length.
    it('a claim renewed by its holder outlives its first lease; another cannot take it; unrenewed, it runs out and is taken over', async () => {
      const SHORT = 1500;
      await store().write((tx) => tx.jobs.insert('j-long', 'k', T0, null, T0));
      const d = await deliveryFixture(store());
      expect(await store().write((tx) => tx.jobs.claim('j-long', 'holder', SHORT))).toBe(true);
      expect(await store().write((tx) => tx.webhookDeliveries.claimAttempt(d.id, 'holder', SHORT, T0, false))).toBe(true);
      // Only the holder renews, and only a live claim.
      expect(await store().write((tx) => tx.jobs.renewClaim('j-long', 'intruder', SHORT))).toBe(false);
      expect(await store().write((tx) => tx.webhookDeliveries.renewClaims('intruder', [d.id], SHORT))).toEqual([]);
      const claimedAt = Date.now();
      while (Date.now() - claimedAt < 2 * SHORT) {
        expect(await store().write((tx) => tx.jobs.renewClaim('j-long', 'holder', SHORT))).toBe(true);
        expect(await store().write((tx) => tx.webhookDeliveries.renewClaims('holder', [d.id, 'dlv_unknown'], SHORT))).toEqual([d.id]);
        await new Promise((r) => setTimeout(r, SHORT / 10));
      }
      // Past the first lease: still held.
      expect(await store().write((tx) => tx.jobs.claim('j-long', 'other', LONG))).toBe(false);
      expect(await store().read((tx) => tx.jobs.due(T0, 10))).toEqual([]);
      expect(await store().write((tx) => tx.webhookDeliveries.claimAttempt(d.id, 'other', LONG, T0, false))).toBe(false);
      expect(await store().read((tx) => tx.webhookDeliveries.leaseExpired(10))).toEqual([]);
      // No longer renewed (its holder died): taken over once it runs out, and a late renewal fails.
      await until(async () => await store().write((tx) => tx.jobs.claim('j-long', 'other', LONG)));
      await until(async () => await store().write((tx) => tx.webhookDeliveries.claimAttempt(d.id, 'other', LONG, T0, false)));
      expect(await store().write((tx) => tx.jobs.renewClaim('j-long', 'holder', SHORT))).toBe(false);
      expect(await store().write((tx) => tx.webhookDeliveries.renewClaims('holder', [d.id], SHORT))).toEqual([]);
    });

    // A lane claims a window of attempts in one write (claimAttempts). Two owners racing
    // for the same ids, many rounds: each id is won by exactly one, and every due one by someone.
    it('many webhook attempts claimed in one write: two owners racing for the same ids, each id won by exactly one', async () => {
      const { deliveries } = await manyDeliveries(store(), 40);
      const ids = deliveries.map((d) => d.id);
      const claim = (owner: string, some: string[], now = T0 + 1000) => store().write((tx) => tx.webhookDeliveries.claimAttempts(some, owner, LONG, now));
      // Only those due by `now`, and unknown ids are no error.
      expect((await claim('early', [...ids.slice(0, 4), 'dlv_unknown'], T0 + 1)).sort()).toEqual(ids.slice(0, 2).sort());
      const rest = ids.slice(2);
      // Overlapping batches, in opposite orders, at once.
      const [a, b] = await Promise.all([claim('a', rest), claim('b', [...rest].reverse())]);
      expect(a.filter((id) => b.includes(id))).toEqual([]);
      expect([...a, ...b].sort()).toEqual([...rest].sort());
      // Claimed: nobody wins them again while the leases are live.
      expect(await claim('c', ids)).toEqual([]);
      // Several rounds of real overlap on fresh deliveries (PostgreSQL: concurrent writes).
      for (let round = 0; round < 5; round++) {
        const fresh = (await manyDeliveries(store(), 20)).deliveries.map((d) => d.id);
        const won = await Promise.all(['p', 'q', 'r'].map((owner) => claim(owner, fresh)));
        const all = won.flat();
        expect(new Set(all).size).toBe(all.length);
        expect(all.sort()).toEqual([...fresh].sort());
      }
    });

    it('a claim that ran out is won again by a batch; a recorded attempt is not', async () => {
      const { deliveries } = await manyDeliveries(store(), 3);
      const ids = deliveries.map((d) => d.id);
      expect((await store().write((tx) => tx.webhookDeliveries.claimAttempts(ids, 'dies', 1, T0 + 10))).sort()).toEqual([...ids].sort());
      await store().write((tx) => tx.webhookDeliveries.recordAttempts([succeeded(ids[0]!, 1)]));
      await until(async () => (await store().read((tx) => tx.webhookDeliveries.leaseExpired(10))).length === 2);
      expect((await store().write((tx) => tx.webhookDeliveries.claimAttempts(ids, 'survivor', LONG, T0 + 10))).sort()).toEqual(ids.slice(1).sort());
    });

    // Outcomes recorded in batches (recordAttempts); an outcome is written once only.
    it('many outcomes recorded in one write, each once: a repeat of an outcome already written changes nothing', async () => {
      const { deliveries } = await manyDeliveries(store(), 3);
      const [d1, d2, d3] = deliveries.map((d) => d.id) as [string, string, string];
      await store().write((tx) => tx.webhookDeliveries.claimAttempts([d1, d2, d3], 'w', LONG, T0 + 10));
      const retry = { ...succeeded(d2, 1), status: 'failed' as const, responseStatus: 500, error: 'HTTP 500', nextAttemptAt: T0 + 300_000, history: { attempt: 1, at: T0, outcome: 'failed' as const, responseStatus: 500, durationMs: 1, error: 'HTTP 500' } };
      const written = await store().write((tx) => tx.webhookDeliveries.recordAttempts([succeeded(d1, 1), retry]));
      expect(written.sort()).toEqual([d1, d2].sort());
      const one = (await store().read((tx) => tx.webhookDeliveries.getById(d1)))!;
      expect(one).toMatchObject({ attempt: 1, status: 'succeeded', responseStatus: 204, nextAttemptAt: null });
      expect(one.attempts).toEqual([{ attempt: 1, at: T0, outcome: 'succeeded', responseStatus: 204, durationMs: 1, error: null }]);
      const two = (await store().read((tx) => tx.webhookDeliveries.getById(d2)))!;
      expect(two).toMatchObject({ attempt: 1, status: 'failed', responseStatus: 500, error: 'HTTP 500', nextAttemptAt: T0 + 300_000 });
      // Recording releases the claim: the retry is claimable at its time.
      expect(await store().write((tx) => tx.webhookDeliveries.claimAttempts([d2], 'next', LONG, T0 + 300_000))).toEqual([d2]);
      // The same outcome again (a batch retried after its commit): nothing written, no history doubled.
      expect(await store().write((tx) => tx.webhookDeliveries.recordAttempts([succeeded(d1, 1), succeeded(d3, 1)]))).toEqual([d3]);
      expect((await store().read((tx) => tx.webhookDeliveries.getById(d1)))!.attempts).toHaveLength(1);
      // The second attempt of d2 appends to its history.
      expect(await store().write((tx) => tx.webhookDeliveries.recordAttempts([succeeded(d2, 2)]))).toEqual([d2]);
      expect((await store().read((tx) => tx.webhookDeliveries.getById(d2)))!.attempts.map((x) => [x.attempt, x.outcome])).toEqual([[1, 'failed'], [2, 'succeeded']]);
      expect(await store().read((tx) => tx.webhookDeliveries.due(T0 + 10 ** 9))).toEqual([]);
    });

    it('due deliveries paged on from where the last page ended; many events\' due deliveries and attempt states in one read', async () => {
      const { event, deliveries } = await manyDeliveries(store(), 7);
      const ids = deliveries.map((d) => d.id);
      const page = (limit: number, after?: { at: number; seq: number }) => store().read((tx) => tx.webhookDeliveries.duePage(T0 + 5, limit, after));
      const first = await page(4);
      expect(first.deliveries.map((d) => d.id)).toEqual(ids.slice(0, 4));
      const second = await page(4, first.last);
      expect(second.deliveries.map((d) => d.id)).toEqual(ids.slice(4, 6)); // due by T0 + 5 only
      const end = await page(4, second.last);
      expect(end).toEqual({ deliveries: [], last: undefined });
      const other = await manyDeliveries(store(), 2);
      const heard = await store().read((tx) => tx.webhookDeliveries.dueForEvents([event.id, other.event.id, 'evt_unknown'], T0 + 1));
      expect(heard.map((d) => d.id).sort()).toEqual([...ids.slice(0, 2), ...other.deliveries.map((d) => d.id)].sort());
      const states = await store().read((tx) => tx.webhookDeliveries.attemptStates([ids[0]!, ids[1]!, 'dlv_unknown']));
      expect(states.map((s) => s.id).sort()).toEqual(ids.slice(0, 2).sort());
      expect(states[0]).toMatchObject({ attempt: 0, eventId: event.id, isTest: false, rawBody: JSON.stringify({ n: 1 }) });
      expect((await store().read((tx) => tx.webhookDeliveries.attemptStates([ids[0]!], { body: false })))[0]!.rawBody).toBeNull();
    });
  });
}
