import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineUnderTest } from './engine.js';
import { T0, endpoint, seedAccount } from './fixtures.js';
import { startReceiver, type Receiver } from '../webhooks-receiver.js';
import { composeService } from '../../src/server/compose.js';
import { ManualClock } from '../../src/server/clock.js';
import { ContentionError } from '../../src/server/storage/storage-errors.js';
import { staticResolver } from '../../src/server/webhooks/resolver.js';
import type { WebhookWorkerOptions } from '../../src/server/webhooks/delivery-worker.js';
import type { ServiceDeps } from '../../src/server/deps.js';
import type { Store } from '../../src/server/storage/store.js';

// The delivery worker on each engine: what it asks of storage (its claims, written or read, and
// what it does when one cannot be written) and its stop and start, on a service composed over the
// engine's store with no HTTP in front. What a client sees of deliveries is tested end to end
// (test/webhooks-*.test.ts); these are the worker's own workings, which no public surface shows.

export function deliveryWorkerContract(engine: EngineUnderTest): void {
  describe('delivery worker', () => {
    let store: Store;
    let close: () => Promise<void>;
    let rx: Receiver;
    const running: ServiceDeps[] = [];
    const errors: unknown[] = [];

    beforeEach(async () => {
      ({ store, close } = await engine.open());
      rx = await startReceiver();
    });
    afterEach(async () => {
      for (const deps of running.splice(0)) {
        await deps.webhooks.stop();
        await deps.scheduler.stop();
      }
      await rx.close();
      await close();
    });

    /** The service's parts over this engine's store, its worker started, sending to loopback only. */
    async function service(webhooks: WebhookWorkerOptions = {}): Promise<ServiceDeps> {
      const deps = await composeService(store, new ManualClock(T0), { error: (obj) => void errors.push(obj) }, {
        webhooks: { resolver: staticResolver({}), destinationGuard: (a) => a.startsWith('127.'), ackTimeoutMs: 5000, ...webhooks },
      });
      running.push(deps);
      await deps.scheduler.start();
      await deps.webhooks.start();
      return deps;
    }

    /** An account with one live endpoint on the receiver, subscribed to everything. */
    async function subscribed(deps: ServiceDeps): Promise<{ accountId: string; endpointId: string }> {
      const account = await seedAccount(store);
      const ep = endpoint(account.id, { url: rx.url, events: ['*'], mode: 'live' });
      await deps.uow.write(async (tx) => await tx.webhookEndpoints.insert(ep));
      return { accountId: account.id, endpointId: ep.id };
    }

    const emit = (deps: ServiceDeps, accountId: string, n: number) =>
      deps.uow.write(async (tx) => await tx.events.emit(accountId, 'message.status', { messageId: `msg_${n}`, status: 'sent', reason: null }));

    const outcomes = async (deps: ServiceDeps, endpointId: string) =>
      (await deps.uow.read(async (r) => await r.webhookDeliveries.list(endpointId, { since: 0, limit: 100 }))).data.map((d) => `${d.status}/${d.attempt}`);

    it('acknowledges within 10 s by default (spec: Delivery)', async () => {
      const deps = await service({ ackTimeoutMs: undefined });
      expect(deps.webhooks.ackTimeoutMs).toBe(10_000);
    });

    // On PostgreSQL a write that loses its race to other replicas' writes ten times fails
    // (ContentionError); a claim's write once failed so, and the delivery stayed due and unclaimed
    // with no one to look at it again before a restart. Claims are written on SQLite too here (one
    // process there is the sole attempter and writes none unless told).
    it('an attempt whose claim could not be written is queued again, and made', async () => {
      const deps = await service({ soleAttempter: false });
      const { accountId, endpointId } = await subscribed(deps);
      const write = deps.uow.write.bind(deps.uow);
      let failed = 0;
      deps.uow.write = (async (fn: Parameters<typeof write>[0], o?: Parameters<typeof write>[1]) => {
        if (failed === 0 && String(fn).includes('claimAttempt')) {
          failed++;
          throw new ContentionError(10);
        }
        return await write(fn, o);
      }) as typeof write;
      const event = await emit(deps, accountId, 1);
      const [got] = await rx.waitFor(1);
      expect(failed).toBe(1);
      expect(got!.body.id).toBe(event.id);
      expect(got!.headers['service-delivery-attempt']).toBe('1');
      await deps.webhooks.flush();
      expect(await outcomes(deps, endpointId)).toEqual(['succeeded/1']);
    });

    it('stop() cuts off the window in flight without recording it; a restart delivers every one', async () => {
      const deps = await service({ window: 4, concurrency: 8 });
      const { accountId, endpointId } = await subscribed(deps);
      rx.setHandler(() => ({ hang: true }));
      for (let i = 0; i < 6; i++) await emit(deps, accountId, i);
      await rx.waitFor(4);
      await deps.webhooks.stop();
      expect(rx.received).toHaveLength(4);
      expect(await outcomes(deps, endpointId)).toEqual(Array(6).fill('pending/0'));
      rx.setHandler(() => ({ status: 200 }));
      await deps.webhooks.start();
      await deps.webhooks.flush();
      expect(await outcomes(deps, endpointId)).toEqual(Array(6).fill('succeeded/1'));
    });

    // Refilled each time one ready attempt started, the window would cost a backlog one claim (or,
    // as the sole attempter, one read) per delivery: ~4,000 a second in bench/roles, each re-reading
    // its pages after the API's commits. It refills once half the window has started.
    it('a backlog is claimed half a window or more at a time, not one delivery per claim', async () => {
      const WINDOW = 8;
      const BACKLOG = 64;
      const deps = await service({ window: WINDOW, concurrency: 16 });
      const { accountId, endpointId } = await subscribed(deps);
      const [read, write] = [deps.uow.read.bind(deps.uow), deps.uow.write.bind(deps.uow)];
      let claims = 0;
      const counted = <F extends (...a: never[]) => unknown>(fn: F): F => {
        if (String(fn).includes('attemptStates')) claims++;
        return fn;
      };
      deps.uow.read = ((fn: Parameters<typeof read>[0], o?: Parameters<typeof read>[1]) => read(counted(fn), o)) as typeof read;
      deps.uow.write = ((fn: Parameters<typeof write>[0], o?: Parameters<typeof write>[1]) => write(counted(fn), o)) as typeof write;
      // Answers spread over time, so that attempts end one at a time, each freeing one place.
      let n = 0;
      rx.setHandler(() => ({ status: 200, delayMs: 5 + (n++ % 7) }));
      await deps.webhooks.stop();
      for (let i = 0; i < BACKLOG; i++) await emit(deps, accountId, i);
      await deps.webhooks.start();
      await deps.webhooks.flush();
      expect(new Set(rx.received.map((r) => r.body.id)).size).toBe(BACKLOG);
      expect(await outcomes(deps, endpointId)).toEqual(Array(BACKLOG).fill('succeeded/1'));
      // At least WINDOW / 2 per claim: 16 claims at most (51 with one claim per attempt started).
      expect(claims).toBeGreaterThan(0);
      expect(claims).toBeLessThanOrEqual(BACKLOG / (WINDOW / 2));
    });
  });
}
