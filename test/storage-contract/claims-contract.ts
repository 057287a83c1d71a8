import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/server/storage/store.js';
import type { EngineUnderTest } from './engine.js';
import { T0, endpoint, seedAccount, uid, useStore } from './fixtures.js';

// Issue 26: claims. Work is done by exactly one process however many drain at once: a job run
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

    // issue 26: work that runs longer than its lease renews it, so another process cannot take it
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
  });
}
