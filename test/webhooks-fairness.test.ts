// Webhook attempt slots shared fairly across accounts (src/server/webhooks/fair-slots.ts): one
// tenant's hanging receivers never hold up another tenant's deliveries, and one endpoint never has
// more than its window of attempts open. Receivers HOLD requests until the test releases them, so
// nothing depends on how long an attempt takes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestService } from './helpers/service.js';
import { DEFAULT_WEBHOOK_OPTIONS } from '../src/server/webhooks/delivery-worker.js';
import { reservedSlots } from '../src/server/webhooks/fair-slots.js';
import { createEndpoint, emit, startReceiver, startWebhookService, type Receiver } from './webhooks-receiver.js';

const { concurrency, window } = DEFAULT_WEBHOOK_OPTIONS;
/** Far above the waits below: a held request is never given up on during a test (on the old pool, S1 waited for this). */
const HOLD_ACK_MS = 30_000;
/** A bound for a hang, far from what a delivery to a prompt receiver takes. */
const DELIVERED_WITHIN_MS = 10_000;

let svc: TestService;
const receivers: Receiver[] = [];

beforeEach(async () => {
  svc = await startWebhookService({ webhooks: { ackTimeoutMs: HOLD_ACK_MS } });
});
afterEach(async () => {
  for (const r of receivers) r.release();
  await svc.stop();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(reply: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(reply);
  receivers.push(r);
  return r;
}

async function subaccount(name: string): Promise<{ id: string; headers: Record<string, string> }> {
  const res = await svc.call('POST', '/v1/subaccounts', { body: { name } });
  expect(res.status).toBe(201);
  return { id: res.body.id, headers: { 'service-subaccount': res.body.id } };
}

const status = (i: number) => ({ messageId: `msg_${i}`, status: 'delivered', reason: null });

describe('webhook slots across accounts', () => {
  it("one sub-account's 20 hanging endpoints hold every slot they may; another sub-account's events are all delivered meanwhile", async () => {
    const s2 = await subaccount('S2 slow receivers');
    const s1 = await subaccount('S1 fast receiver');
    const slow = await receiver(() => ({ hold: true }));
    const fast = await receiver(() => ({ status: 200 }));
    for (let i = 0; i < 20; i++) await createEndpoint(svc, { url: `${slow.url}/${i}` }, s2.headers);
    await createEndpoint(svc, { url: fast.url }, s1.headers);

    // S2: 20 events to 20 endpoints, 400 attempts, more than there are slots; wait until they hold
    // every slot one account may hold (all of them, before slots were shared across accounts).
    for (let i = 0; i < 20; i++) await emit(svc, 'message.status', status(i), s2.id);
    const s2Holds = concurrency - reservedSlots(concurrency);
    await slow.waitFor(s2Holds, DELIVERED_WITHIN_MS);

    // S1: 20 events to its one endpoint, answered at once; all arrive while S2's are still held.
    for (let i = 0; i < 20; i++) await emit(svc, 'message.status', status(100 + i), s1.id);
    await fast.waitFor(20, DELIVERED_WITHIN_MS);
    expect(new Set(fast.received.map((r) => r.body.messageId)).size).toBe(20);
    expect(slow.open, "S2's attempts are all still held (none timed out to make room)").toBe(slow.received.length);
    expect(slow.received.length).toBeGreaterThanOrEqual(s2Holds);

    // Released: S2's backlog drains, every attempt delivered once.
    slow.release();
    await slow.waitFor(400, 60_000);
    await svc.flushWebhooks();
    expect(new Set(slow.received.map((r) => `${r.path} ${r.body.id}`)).size).toBe(400);
  });

  it('one endpoint with a backlog holds at most its window of attempts open; the same account’s other endpoint is delivered meanwhile', async () => {
    const slow = await receiver(() => ({ hold: true }));
    const fast = await receiver(() => ({ status: 200 }));
    await createEndpoint(svc, { url: slow.url, events: ['message.status'] });
    await createEndpoint(svc, { url: fast.url, events: ['message.received'] });
    // Each replica's worker keeps at most a window in flight to the endpoint.
    const cap = window * svc.replicas.length;
    const backlog = cap + 36;
    for (let i = 0; i < backlog; i++) await emit(svc, 'message.status', status(i));
    await slow.waitFor(window, DELIVERED_WITHIN_MS);
    // The pool has room (the other endpoint is delivered): only the window holds the rest back.
    await emit(svc, 'message.received', { messageId: 'msg_in', from: '+14155550100', to: '+14155550199', body: 'hi' });
    await fast.waitFor(1, DELIVERED_WITHIN_MS);
    expect(slow.open).toBeLessThanOrEqual(cap);
    expect(slow.received.length).toBeLessThan(backlog);

    slow.release();
    await slow.waitFor(backlog, 60_000);
    await svc.flushWebhooks();
    expect(slow.maxOpen).toBeLessThanOrEqual(cap);
    expect(new Set(slow.received.map((r) => r.body.id)).size).toBe(backlog);
  });
});
