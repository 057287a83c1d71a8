import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../src/webhooks/verify.js';
import { emitAndListInTransaction, emitOutsideTransaction, emitThenRollBack, webhookStreak } from './helpers/inspect.js';

/** The endpoint as the API shows it, with the failure streak only storage holds. */
async function streakOf(svc: Awaited<ReturnType<typeof startWebhookService>>, id: string) {
  const ep = await svc.call('GET', `/v1/webhooks/${id}`);
  expect(ep.status, ep.text).toBe(200);
  return { ...ep.body, ...(await webhookStreak(svc, id))! };
}
import { advance, alignClock, createEndpoint, deliveries, emit, startReceiver, startWebhookService, type Receiver } from './webhooks-receiver.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

async function setup(dns?: Record<string, string>) {
  const svc = await startWebhookService({ dns });
  cleanup.push(() => svc.stop());
  return svc;
}
async function receiver(...args: Parameters<typeof startReceiver>): Promise<Receiver> {
  const rx = await startReceiver(...args);
  cleanup.push(() => rx.close());
  return rx;
}

describe('the outbox', () => {
  it('writes the deliveries in the event transaction: a rolled-back event leaves none', async () => {
    const svc = await setup();
    const rx = await receiver();
    const ep = await createEndpoint(svc, { url: rx.url });
    await expect(
      emitThenRollBack(svc, svc.bootstrap.accountId, 'message.status', { messageId: 'm', status: 'sent', reason: null }, new Error('the change failed')),
    ).rejects.toThrow('the change failed');
    await svc.flushWebhooks();
    expect(rx.received).toHaveLength(0);
    expect(await deliveries(svc, ep.id)).toHaveLength(0);

    const rows = await emitAndListInTransaction(svc, svc.bootstrap.accountId, 'message.status', { messageId: 'm', status: 'sent', reason: null }, ep.id);
    expect(rows).toEqual([{ status: 'pending', attempt: 0 }]); // visible inside the same transaction
    await svc.flushWebhooks();
    expect(rx.received).toHaveLength(1);
  });

  it('EventStore.emit outside a transaction is a programming error: it throws and stores nothing', async () => {
    const svc = await setup();
    const rx = await receiver();
    const ep = await createEndpoint(svc, { url: rx.url });
    await expect(emitOutsideTransaction(svc, svc.bootstrap.accountId, 'message.status', { messageId: 'm', status: 'sent', reason: null })).rejects.toThrow(/outside a transaction/);
    await svc.flushWebhooks();
    expect(rx.received).toHaveLength(0);
    expect(await deliveries(svc, ep.id)).toHaveLength(0);
    expect((await svc.call('GET', '/v1/events')).body.data).toHaveLength(0);
  });

  it('nothing is lost across a restart: an event committed while the worker was down is delivered on start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-webhooks-restart-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const rx = await receiver();
    const first = await startWebhookService({ dataDir });
    const ep = await createEndpoint(first, { url: rx.url });
    await first.deps.webhooks.stop(); // as if the process died right after the commit
    const event = await emit(first, 'message.received', { messageId: 'msg_1', from: '+14155550100', to: '+14155550199', body: 'hi' });
    await new Promise((r) => setTimeout(r, 50));
    expect(rx.received).toHaveLength(0);
    await first.stop();

    const second = await startWebhookService({ dataDir });
    cleanup.push(() => second.stop());
    const [got] = await rx.waitFor(1);
    expect(got!.body.id).toBe(event.id);
    expect(verifyWebhookSignature(got!.rawBody, got!.headers['x-service-signature'] as string, ep.secret)).toBe(true);
    await second.deps.webhooks.flush();
    expect((await deliveries(second, ep.id))[0]).toMatchObject({ eventId: event.id, status: 'succeeded', attempt: 1 });
  });

  it('an attempt cut off mid-flight by a restart is made again on start (at-least-once)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-webhooks-restart-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const rx = await receiver(() => ({ hang: true }));
    // A long ack timeout: the attempt is still in flight when the service closes.
    const first = await startWebhookService({ dataDir, webhooks: { ackTimeoutMs: 10_000 } });
    cleanup.push(() => first.stop()); // closing twice is a no-op
    const ep = await createEndpoint(first, { url: rx.url });
    const event = await emit(first, 'message.received', { messageId: 'msg_1', from: '+14155550100', to: '+14155550199', body: 'hi' });
    await rx.waitFor(1);
    const [inFlight] = await deliveries(first, ep.id);
    expect(inFlight).toMatchObject({ status: 'pending', attempt: 0 });
    expect(first.deps.webhooks.isInFlight(inFlight.id)).toBe(true);
    await first.stop(); // the whole service closes (as on a restart), not just the worker

    // Started again on the same data, with the service clock starting from wall time (the event's
    // time is in the past either way): the delivery is still due and is attempted at once.
    rx.setHandler(() => ({ status: 200 }));
    const second = await startWebhookService({ dataDir });
    cleanup.push(() => second.stop());
    await rx.waitFor(2);
    await second.deps.webhooks.flush();
    expect(rx.received.map((r) => r.body.id)).toEqual([event.id, event.id]);
    expect(verifyWebhookSignature(rx.received[1]!.rawBody, rx.received[1]!.headers['x-service-signature'] as string, ep.secret)).toBe(true);
    const [d] = await deliveries(second, ep.id);
    // The cut-off attempt was never recorded: the one that succeeded is attempt 1 of the log.
    expect(d).toMatchObject({ id: inFlight.id, eventId: event.id, status: 'succeeded', attempt: 1, responseStatus: 200 });
  });

  it('a scheduled retry survives a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-webhooks-restart-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const rx = await receiver((_r, i) => ({ status: i === 0 ? 503 : 200 }));
    const first = await startWebhookService({ dataDir });
    alignClock(first, 10);
    const ep = await createEndpoint(first, { url: rx.url });
    await emit(first, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await first.deps.webhooks.flush();
    const clockAt = first.deps.clock.nowMs();
    await first.stop();

    const second = await startWebhookService({ dataDir });
    cleanup.push(() => second.stop());
    second.deps.clock.setTo(clockAt); // the manual clock starts from wall time; put it back where it was
    await advance(second, 300);
    expect(rx.received).toHaveLength(2);
    expect((await deliveries(second, ep.id))[0]).toMatchObject({ status: 'succeeded', attempt: 2 });
  });
});

describe('auto-disable', () => {
  it('disables after ≥ 50 consecutive failures over ≥ 72 h with no success, and tells only the other subscribed endpoint', async () => {
    const svc = await setup();
    const failing = await receiver(() => ({ status: 500 }));
    const watcher = await receiver();
    const bystander = await receiver();
    alignClock(svc, 10);
    const bad = await createEndpoint(svc, { url: failing.url });
    const watch = await createEndpoint(svc, { url: watcher.url, events: ['webhook_endpoint.disabled'] });
    const other = await createEndpoint(svc, { url: bystander.url, events: ['message.received'] });

    // 6 events × 9 attempts = 54 failed attempts within the first day.
    for (let i = 0; i < 6; i++) await emit(svc, 'message.status', { messageId: `m${i}`, status: 'sent', reason: null });
    await svc.flushWebhooks();
    await advance(svc, 24 * 3600);
    expect(failing.received).toHaveLength(54);
    let state = (await streakOf(svc, bad.id));
    expect(state.consecutiveFailures).toBe(54);
    expect(state.enabled).toBe(true); // the streak is not 72 h old yet

    // A minute short of 72 h after the streak began: one more failure (a single-attempt type, so no
    // retries run on) does not disable yet.
    await advance(svc, 48 * 3600 - 60);
    await emit(svc, 'call.ringing', { callId: 'call_1', from: '+14155550100', to: '+14155550101', devices: [] });
    await svc.flushWebhooks();
    expect((await streakOf(svc, bad.id))).toMatchObject({ enabled: true, consecutiveFailures: 55 });

    await advance(svc, 60); // the streak is now exactly 72 h old
    const trigger = await emit(svc, 'message.status', { messageId: 'late', status: 'sent', reason: null });
    await svc.flushWebhooks();
    state = (await streakOf(svc, bad.id));
    expect(state.enabled).toBe(false);
    expect(state.disabledReason).toBe('consecutive_failures');

    const ep = (await svc.call('GET', `/v1/webhooks/${bad.id}`)).body;
    expect(ep).toMatchObject({ enabled: false, disabledReason: 'consecutive_failures' });
    expect(ep.disabledAt).toBe(new Date(svc.now()).toISOString());

    // Its pending deliveries stopped: the earlier retry and the trigger's are abandoned.
    const log = await deliveries(svc, bad.id);
    for (const eventId of [trigger.id]) expect(log.find((d) => d.eventId === eventId)).toMatchObject({ status: 'abandoned', nextAttemptAt: null });
    expect(log.filter((d) => d.nextAttemptAt !== null)).toEqual([]);
    const before = failing.received.length;
    await advance(svc, 24 * 3600);
    expect(failing.received).toHaveLength(before);

    // The event is in the feed and reached only the other enabled endpoint subscribed to it.
    const feed = await svc.call('GET', '/v1/events?types=webhook_endpoint.disabled');
    expect(feed.body.data).toHaveLength(1);
    const disabled = feed.body.data[0];
    expect(disabled).toMatchObject({ type: 'webhook_endpoint.disabled', endpointId: bad.id, url: failing.url, reason: 'consecutive_failures', consecutiveFailures: 56, disabledAt: ep.disabledAt });
    expect(watcher.received.map((r) => r.body.id)).toEqual([disabled.eventId]);
    expect(bystander.received).toHaveLength(0);
    expect(failing.received.some((r) => r.body.type === 'webhook_endpoint.disabled')).toBe(false);
    expect(await deliveries(svc, watch.id)).toHaveLength(1);
    expect(await deliveries(svc, other.id)).toHaveLength(0);

    // Re-enabling starts a clean slate.
    const on = await svc.call('PATCH', `/v1/webhooks/${bad.id}`, { body: { enabled: true } });
    expect(on.body).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });
    expect((await streakOf(svc, bad.id)).consecutiveFailures).toBe(0);
  });

  it('a streak older than 72 h with fewer than 50 failures and no success does not disable', async () => {
    const svc = await setup();
    const failing = await receiver(() => ({ status: 500 }));
    alignClock(svc, 10);
    const bad = await createEndpoint(svc, { url: failing.url });
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await svc.flushWebhooks();
    await advance(svc, 24 * 3600); // its 9 attempts
    await advance(svc, 72 * 3600);
    await emit(svc, 'call.ringing', { callId: 'call_1', from: '+14155550100', to: '+14155550101', devices: [] });
    await svc.flushWebhooks();
    const state = (await streakOf(svc, bad.id));
    expect(failing.received).toHaveLength(10);
    expect(state).toMatchObject({ enabled: true, consecutiveFailures: 10, lastSuccessAt: null, disabledReason: null });
    expect(svc.now() - state.failingSince!).toBeGreaterThanOrEqual(72 * 3600_000); // old enough, but too few
    expect((await svc.call('GET', '/v1/events?types=webhook_endpoint.disabled')).body.data).toHaveLength(0);
  });

  it('a success resets the streak', async () => {
    const svc = await setup();
    let fail = true;
    const rx = await receiver(() => ({ status: fail ? 500 : 200 }));
    const ep = await createEndpoint(svc, { url: rx.url });
    for (let i = 0; i < 3; i++) await emit(svc, 'message.status', { messageId: `m${i}`, status: 'sent', reason: null });
    await svc.flushWebhooks();
    expect((await streakOf(svc, ep.id)).consecutiveFailures).toBe(3);
    fail = false;
    await advance(svc, 600);
    expect(await streakOf(svc, ep.id)).toMatchObject({ consecutiveFailures: 0, failingSince: null });
  });
});
