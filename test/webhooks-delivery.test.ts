import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyWebhookSignature, parseSignatureHeader } from '../src/webhooks/verify.js';
import type { TestService } from './helpers/service.js';
import { advance, alignClock, createEndpoint, deliveries, emit, HANG_ACK_MS, startReceiver, startWebhookService, TICK_MS, type Receiver } from './webhooks-receiver.js';
import { clockMode, deliveriesDue, scheduleEmittingJob, webhookStreak } from './helpers/inspect.js';

let svc: TestService;
let rx: Receiver;

beforeEach(async () => {
  svc = await startWebhookService();
  rx = await startReceiver();
});
afterEach(async () => {
  await svc.stop();
  await rx.close();
});

describe('a delivery', () => {
  it('is the stored event body, signed, with the spec headers, identical to the feed item', async () => {
    const ep = await createEndpoint(svc, { url: rx.url });
    expect(ep.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    // The service clock is far ahead of the wall clock: the signature's t must still be real time.
    await advance(svc, 30 * 24 * 3600);
    const event = await emit(svc, 'message.received', { messageId: 'msg_1', from: '+14155550100', to: '+14155550199', body: 'héllo ✓', receivedAt: new Date().toISOString(), providerMessageId: 'p1' });
    const [got] = await rx.waitFor(1);
    await svc.flushWebhooks();

    expect(got!.headers['content-type']).toBe('application/json');
    expect(got!.headers['service-event-id']).toBe(event.id);
    expect(got!.headers['service-event-type']).toBe('message.received');
    expect(got!.headers['service-delivery-attempt']).toBe('1');
    expect(got!.headers['user-agent']).toMatch(/^svc-webhooks\//);
    const sig = got!.headers['x-service-signature'] as string;
    expect(verifyWebhookSignature(got!.rawBody, sig, ep.secret)).toBe(true);
    expect(verifyWebhookSignature(got!.rawBody, sig, 'whsec_wrong')).toBe(false);
    expect(Math.abs(parseSignatureHeader(sig)!.t - Date.now() / 1000)).toBeLessThan(5);

    expect(got!.body).toEqual({ ...event.body });
    expect(got!.body.id).toMatch(/^evt_/);
    expect(got!.body.createdAt).toBe(new Date(svc.now()).toISOString());

    const feed = await svc.call('GET', '/v1/events');
    expect(feed.status).toBe(200);
    const item = feed.body.data.find((i: any) => i.eventId === event.id);
    const { eventId, ...rest } = item;
    expect(eventId).toBe(got!.body.id);
    expect(rest).toEqual(got!.body);

    const [d] = await deliveries(svc, ep.id);
    expect(d).toMatchObject({ eventId: event.id, eventType: 'message.received', attempt: 1, status: 'succeeded', responseStatus: 200, responseBody: 'ok', error: null, nextAttemptAt: null });
    expect(d.id).toMatch(/^whd_/);
    expect(d.durationMs).toBeGreaterThanOrEqual(0);
    expect(d.attempts).toHaveLength(1);
  });

  it('goes only to enabled endpoints of the account whose filter matches', async () => {
    const rx2 = await startReceiver();
    try {
      const all = await createEndpoint(svc, { url: rx.url });
      const onlyCalls = await createEndpoint(svc, { url: rx2.url, events: ['call.*'] });
      await emit(svc, 'message.status', { messageId: 'm', status: 'delivered', reason: null });
      await emit(svc, 'call.completed', { callId: 'c' });
      await svc.flushWebhooks();
      expect(rx.received.map((r) => r.body.type)).toEqual(['message.status', 'call.completed']);
      expect(rx2.received.map((r) => r.body.type)).toEqual(['call.completed']);
      expect(await deliveries(svc, all.id)).toHaveLength(2);
      expect(await deliveries(svc, onlyCalls.id)).toHaveLength(1);
    } finally {
      await rx2.close();
    }
  });

  it('records first 1 KB of the response body and keeps only 7 days of log', async () => {
    rx.setHandler(() => ({ status: 200, body: 'x'.repeat(5000) }));
    const ep = await createEndpoint(svc, { url: rx.url });
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await svc.flushWebhooks();
    const [d] = await deliveries(svc, ep.id);
    expect(d.responseBody).toHaveLength(1024);
    await advance(svc, 7 * 24 * 3600 + 1);
    expect(await deliveries(svc, ep.id)).toHaveLength(0);
  });
});

describe('retries', () => {
  it('500 then 200: attempt 2 is sent only at the first 5-minute tick at or after 30 s', async () => {
    const boundary = alignClock(svc, 10); // event at boundary + 10 s; due at +40 s; tick at boundary + 300 s
    rx.setHandler((_r, i) => ({ status: i === 0 ? 500 : 200 }));
    const ep = await createEndpoint(svc, { url: rx.url });
    const event = await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await rx.waitFor(1);
    await svc.flushWebhooks();
    let [d] = await deliveries(svc, ep.id);
    expect(d).toMatchObject({ status: 'failed', attempt: 1, responseStatus: 500, error: 'HTTP 500', nextAttemptAt: new Date(boundary + TICK_MS).toISOString() });

    await advance(svc, 30); // 40 s after the event: due, but no tick yet
    await svc.flushWebhooks();
    expect(rx.received).toHaveLength(1);
    await advance(svc, 259); // boundary + 299 s
    await svc.flushWebhooks();
    expect(rx.received).toHaveLength(1);
    await advance(svc, 1); // the tick: advance waits for the attempt
    expect(rx.received).toHaveLength(2);
    const second = rx.received[1]!;
    expect(second.headers['service-delivery-attempt']).toBe('2');
    expect(second.headers['service-event-id']).toBe(event.id);
    expect(second.rawBody).toBe(rx.received[0]!.rawBody);
    expect(verifyWebhookSignature(second.rawBody, second.headers['x-service-signature'] as string, ep.secret)).toBe(true);
    [d] = await deliveries(svc, ep.id);
    expect(d).toMatchObject({ status: 'succeeded', attempt: 2, responseStatus: 200, nextAttemptAt: null });
    expect(d.attempts.map((a: any) => [a.attempt, a.outcome, a.responseStatus])).toEqual([[1, 'failed', 500], [2, 'succeeded', 200]]);
    expect(d.attempts[1].at).toBe(new Date(boundary + TICK_MS).toISOString());
  });

  it('an event emitted by a job during clock advance is attempted at its own service time, and advance waits for it', async () => {
    const boundary = alignClock(svc, 10);
    rx.setHandler(() => ({ status: 500 }));
    const ep = await createEndpoint(svc, { url: rx.url });
    // On every replica (SVC_TEST_REPLICAS): the advance runs on whichever the request reaches.
    await scheduleEmittingJob(svc, 'test.emit', boundary + 60_000, { accountId: svc.bootstrap.accountId, type: 'message.status', fields: { messageId: 'from-a-job', status: 'delivered', reason: null } });
    await advance(svc, 3600); // no flush: advance alone must have made and recorded the attempts
    const [d] = await deliveries(svc, ep.id);
    // first at the event's time; retries at ticks: +30s → 300 s, +2m → 600 s, +10m → 1200 s, +30m → 3000 s
    expect(d.attempts.map((a: any) => a.at)).toEqual([60, 300, 600, 1200, 3000].map((s) => new Date(boundary + s * 1000).toISOString()));
    expect(rx.received).toHaveLength(5);
  });

  it('follows the backoff 30s, 2m, 10m, 30m, 1h, 3h, 6h, 12h on tick boundaries, then abandons after 9 attempts', async () => {
    const boundary = alignClock(svc, 10);
    rx.setHandler(() => ({ status: 503 }));
    const ep = await createEndpoint(svc, { url: rx.url });
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await svc.flushWebhooks();
    await advance(svc, 48 * 3600);
    expect(rx.received).toHaveLength(9);
    const [d] = await deliveries(svc, ep.id);
    expect(d).toMatchObject({ status: 'abandoned', attempt: 9, nextAttemptAt: null });
    const ceilTick = (ms: number) => Math.ceil(ms / TICK_MS) * TICK_MS;
    const expected = [boundary + 10_000];
    for (const backoff of [30, 120, 600, 1800, 3600, 10800, 21600, 43200]) expected.push(ceilTick(expected[expected.length - 1]! + backoff * 1000));
    expect(d.attempts.map((a: any) => a.at)).toEqual(expected.map((ms) => new Date(ms).toISOString()));
    expect(rx.received.map((r) => r.headers['service-delivery-attempt'])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
  });

  it('honours Retry-After: 600 on a 429', async () => {
    const boundary = alignClock(svc, 10);
    rx.setHandler((_r, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '600' } } : { status: 200 }));
    const ep = await createEndpoint(svc, { url: rx.url });
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await svc.flushWebhooks();
    const [d] = await deliveries(svc, ep.id);
    // due at +610 s, so the tick at boundary + 900 s (not the 30 s backoff's boundary + 300 s)
    expect(d.nextAttemptAt).toBe(new Date(boundary + 3 * TICK_MS).toISOString());
    await advance(svc, 889); // boundary + 899 s
    expect(rx.received).toHaveLength(1);
    await advance(svc, 1);
    expect(rx.received).toHaveLength(2);
  });

  it('honours Retry-After: 600 on a 503', async () => {
    const boundary = alignClock(svc, 10);
    rx.setHandler((_r, i) => (i === 0 ? { status: 503, headers: { 'retry-after': '600' } } : { status: 200 }));
    const ep = await createEndpoint(svc, { url: rx.url });
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await svc.flushWebhooks();
    const [d] = await deliveries(svc, ep.id);
    expect(d).toMatchObject({ status: 'failed', responseStatus: 503 });
    // due at +610 s, so the tick at boundary + 900 s (not the 30 s backoff's boundary + 300 s)
    expect(d.nextAttemptAt).toBe(new Date(boundary + 3 * TICK_MS).toISOString());
    await advance(svc, 889); // boundary + 899 s
    expect(rx.received).toHaveLength(1);
    await advance(svc, 1);
    expect(rx.received).toHaveLength(2);
    expect((await deliveries(svc, ep.id))[0]).toMatchObject({ status: 'succeeded', attempt: 2 });
  });

  it('with the system clock, one advance of a day runs every tick in time order: 9 attempts at the backoff, then abandoned', async () => {
    const sys = await startWebhookService({ clock: 'system' });
    try {
      expect(clockMode(sys)).toBe('system');
      rx.setHandler(() => ({ status: 500 }));
      const ep = await createEndpoint(sys, { url: rx.url });
      await emit(sys, 'message.status', { messageId: 'm', status: 'sent', reason: null });
      await rx.waitFor(1);
      await sys.flushWebhooks();
      await advance(sys, 24 * 3600); // no flush: advance alone must have made and recorded every attempt
      expect(rx.received).toHaveLength(9);
      const [d] = await deliveries(sys, ep.id);
      expect(d).toMatchObject({ status: 'abandoned', attempt: 9, nextAttemptAt: null });
      expect(d.attempts.map((a: any) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      // The system clock keeps running during the advance, so an attempt is made a few ms after its
      // tick; each retry is sent at the first tick at or after (previous attempt + backoff).
      const at = d.attempts.map((a: any) => Date.parse(a.at));
      const ceilTick = (ms: number) => Math.ceil(ms / TICK_MS) * TICK_MS;
      [30, 120, 600, 1800, 3600, 10800, 21600, 43200].forEach((backoff, i) => {
        const tick = ceilTick(at[i]! + backoff * 1000);
        expect(at[i + 1]! - tick, `attempt ${i + 2}`).toBeGreaterThanOrEqual(0);
        expect(at[i + 1]! - tick, `attempt ${i + 2}`).toBeLessThan(5000);
      });
      expect(rx.received.map((r) => r.headers['service-delivery-attempt'])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    } finally {
      await sys.stop();
    }
  });

  it('with the system clock, an advance that starts while an attempt is in flight waits for it: still 9 attempts in order', async () => {
    const sys = await startWebhookService({ clock: 'system' });
    try {
      rx.setHandler((_r, i) => (i === 0 ? { status: 500, delayMs: 200 } : { status: 500 }));
      const ep = await createEndpoint(sys, { url: rx.url });
      await emit(sys, 'message.status', { messageId: 'm', status: 'sent', reason: null });
      await rx.waitFor(1); // the first attempt is now in flight (answered 200 ms later)
      await advance(sys, 24 * 3600); // no flush first
      expect(rx.received).toHaveLength(9);
      const [d] = await deliveries(sys, ep.id);
      expect(d).toMatchObject({ status: 'abandoned', attempt: 9 });
      expect(rx.received.map((r) => r.headers['service-delivery-attempt'])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    } finally {
      await sys.stop();
    }
  });

  it('with the system clock, an event emitted by a job during an advance is attempted at its own time, and advance waits for it', async () => {
    const sys = await startWebhookService({ clock: 'system' });
    try {
      rx.setHandler(() => ({ status: 500 }));
      const ep = await createEndpoint(sys, { url: rx.url });
      // The job runs 10 s past a tick boundary T about an hour from now.
      const tick = Math.ceil((sys.now() + 3600_000) / TICK_MS) * TICK_MS;
      // The job emits in its own transaction, as a domain job does.
      await scheduleEmittingJob(sys, 'test.emit', tick + 10_000, { accountId: sys.bootstrap.accountId, type: 'message.status', fields: { messageId: 'from-a-job', status: 'delivered', reason: null } });
      await advance(sys, 2 * 3600 + 6 * 60); // past T + 60 m (the 5th attempt at the latest), short of T + 115 m (the 6th at the earliest)
      const [d] = await deliveries(sys, ep.id);
      // First at the event's time (not at a tick); then at the first tick at or after each attempt +
      // 30 s, + 2 m, + 10 m, + 30 m (the running system clock may put an attempt a few ms past its tick).
      expect(rx.received).toHaveLength(5);
      const at = d.attempts.map((a: any) => Date.parse(a.at));
      expect(at[0] - (tick + 10_000)).toBeGreaterThanOrEqual(0);
      expect(at[0] - (tick + 10_000)).toBeLessThan(5000);
      const ceilTick = (ms: number) => Math.ceil(ms / TICK_MS) * TICK_MS;
      [30, 120, 600, 1800].forEach((backoff, i) => {
        const due = ceilTick(at[i]! + backoff * 1000);
        expect(at[i + 1]! - due, `attempt ${i + 2}`).toBeGreaterThanOrEqual(0);
        expect(at[i + 1]! - due, `attempt ${i + 2}`).toBeLessThan(5000);
      });
    } finally {
      await sys.stop();
    }
  });

  it('410 is abandoned at once: no more attempts', async () => {
    rx.setHandler(() => ({ status: 410, body: 'gone' }));
    const ep = await createEndpoint(svc, { url: rx.url });
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await svc.flushWebhooks();
    await advance(svc, 48 * 3600);
    expect(rx.received).toHaveLength(1);
    const [d] = await deliveries(svc, ep.id);
    expect(d).toMatchObject({ status: 'abandoned', attempt: 1, responseStatus: 410, responseBody: 'gone', nextAttemptAt: null });
  });

  it('a 3xx is abandoned and its redirect is not followed', async () => {
    rx.setHandler((r) => (r.path === '/hook' ? { status: 302, headers: { location: `http://127.0.0.1:${rx.port}/elsewhere` } } : { status: 200 }));
    const ep = await createEndpoint(svc, { url: rx.url });
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await svc.flushWebhooks();
    await advance(svc, 3600);
    expect(rx.received.map((r) => r.path)).toEqual(['/hook']);
    const [d] = await deliveries(svc, ep.id);
    expect(d).toMatchObject({ status: 'abandoned', responseStatus: 302 });
  });

  it('retries 408, 409, 425 and a refused connection; not 400', async () => {
    const statuses = [408, 409, 425, 400];
    const eps: Array<{ id: string }> = [];
    const receivers: Receiver[] = [];
    try {
      for (const s of statuses) {
        const r = await startReceiver(() => ({ status: s }));
        receivers.push(r);
        eps.push(await createEndpoint(svc, { url: r.url, events: ['message.status'] }));
      }
      // a port nobody listens on: connection refused
      const dead = await startReceiver();
      const deadUrl = dead.url;
      await dead.close();
      const deadEp = await createEndpoint(svc, { url: deadUrl, events: ['message.status'] });
      await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
      await svc.flushWebhooks();
      const states = await Promise.all([...eps, deadEp].map(async (e) => (await deliveries(svc, e.id))[0].status));
      expect(states).toEqual(['failed', 'failed', 'failed', 'abandoned', 'failed']);
      const [deadDelivery] = await deliveries(svc, deadEp.id);
      expect(deadDelivery.error).toMatch(/connection error: ECONNREFUSED/);
      expect(deadDelivery.responseStatus).toBeNull();
    } finally {
      await Promise.all(receivers.map((r) => r.close()));
    }
  });

  it('a receiver that does not answer within the ack timeout is a retried failure', async () => {
    const own = await startWebhookService({ webhooks: { ackTimeoutMs: HANG_ACK_MS } });
    try {
      rx.setHandler((_r, i) => (i === 0 ? { hang: true } : { status: 204 }));
      const ep = await createEndpoint(own, { url: rx.url });
      await emit(own, 'message.status', { messageId: 'm', status: 'sent', reason: null });
      await rx.waitFor(1);
      await own.flushWebhooks();
      const [d] = await deliveries(own, ep.id);
      expect(d).toMatchObject({ status: 'failed', attempt: 1, responseStatus: null });
      expect(d.error).toMatch(new RegExp(`^timeout: no response within ${HANG_ACK_MS} ms`));
      expect(d.durationMs).toBeGreaterThanOrEqual(HANG_ACK_MS - 10);
      await advance(own, 600);
      expect(rx.received).toHaveLength(2);
      expect((await deliveries(own, ep.id))[0].status).toBe('succeeded');
    } finally {
      await own.stop();
    }
  });

  it('call.ringing gets a single attempt', async () => {
    rx.setHandler(() => ({ status: 500 }));
    const ep = await createEndpoint(svc, { url: rx.url });
    await emit(svc, 'call.ringing', { callId: 'call_1', from: '+14155550100', to: '+14155550101', devices: [{ deviceId: 'dev_1', userId: 'u1' }] });
    await svc.flushWebhooks();
    await advance(svc, 24 * 3600);
    expect(rx.received).toHaveLength(1);
    expect((await deliveries(svc, ep.id))[0]).toMatchObject({ status: 'abandoned', attempt: 1, nextAttemptAt: null });
  });

  it('call.transcript.delta is non-durable: one attempt, no delivery log, absent from the feed', async () => {
    rx.setHandler(() => ({ status: 500 }));
    const ep = await createEndpoint(svc, { url: rx.url });
    const delta = await emit(svc, 'call.transcript.delta', { callId: 'call_1', speaker: 'caller', text: 'hi', final: false, at: new Date().toISOString() });
    expect(delta.seq).toBe(0);
    await rx.waitFor(1);
    await svc.flushWebhooks();
    await advance(svc, 3600);
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]!.body).toEqual(delta.body);
    expect(verifyWebhookSignature(rx.received[0]!.rawBody, rx.received[0]!.headers['x-service-signature'] as string, ep.secret)).toBe(true);
    expect(await deliveries(svc, ep.id)).toHaveLength(0);
    expect((await svc.call('GET', '/v1/events')).body.data).toHaveLength(0);
  });
});

describe('secret rotation', () => {
  it('the attempt after a rotation verifies only with the new secret', async () => {
    alignClock(svc, 10);
    rx.setHandler((_r, i) => ({ status: i === 0 ? 500 : 200 }));
    const ep = await createEndpoint(svc, { url: rx.url });
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await svc.flushWebhooks();
    const first = rx.received[0]!;
    expect(verifyWebhookSignature(first.rawBody, first.headers['x-service-signature'] as string, ep.secret)).toBe(true);

    const rotated = await svc.call('POST', `/v1/webhooks/${ep.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(ep.secret);
    expect(rotated.body.id).toBe(ep.id);
    expect((await svc.call('GET', `/v1/webhooks/${ep.id}`)).body.secret).toBeUndefined();

    await advance(svc, 300);
    expect(rx.received).toHaveLength(2);
    const second = rx.received[1]!;
    const header = second.headers['x-service-signature'] as string;
    expect(verifyWebhookSignature(second.rawBody, header, rotated.body.secret)).toBe(true);
    expect(verifyWebhookSignature(second.rawBody, header, ep.secret)).toBe(false);
  });
});

describe('test and manual retry', () => {
  it('POST /test sends a signed sample that is in the delivery log but not in the feed', async () => {
    const ep = await createEndpoint(svc, { url: rx.url, events: ['message.received'] });
    const res = await svc.call('POST', `/v1/webhooks/${ep.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ eventType: 'webhook_endpoint.test', status: 'succeeded', attempt: 1, responseStatus: 200 });
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0]!;
    expect(got.body).toMatchObject({ type: 'webhook_endpoint.test', endpointId: ep.id, id: res.body.eventId });
    expect(got.headers['service-event-type']).toBe('webhook_endpoint.test');
    expect(verifyWebhookSignature(got.rawBody, got.headers['x-service-signature'] as string, ep.secret)).toBe(true);
    expect((await deliveries(svc, ep.id)).map((d) => d.id)).toEqual([res.body.id]);
    expect((await svc.call('GET', '/v1/events')).body.data).toHaveLength(0);
  });

  it('POST /deliveries/{id}/retry redelivers an abandoned delivery at once with the next attempt number', async () => {
    rx.setHandler((_r, i) => (i === 0 ? { status: 400 } : { status: 200 }));
    const ep = await createEndpoint(svc, { url: rx.url });
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await svc.flushWebhooks();
    const [d] = await deliveries(svc, ep.id);
    expect(d.status).toBe('abandoned');
    const res = await svc.call('POST', `/v1/webhooks/${ep.id}/deliveries/${d.id}/retry`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: d.id, status: 'succeeded', attempt: 2, responseStatus: 200 });
    expect(rx.received[1]!.headers['service-delivery-attempt']).toBe('2');
    expect((await svc.call('POST', `/v1/webhooks/${ep.id}/deliveries/whd_nope/retry`)).status).toBe(404);
  });

  it('a test and a manual retry are sent at once, not queued behind the backlog of a hanging receiver', async () => {
    const other = await startWebhookService({ webhooks: { ackTimeoutMs: 2000 } });
    try {
      rx.setHandler((r) => {
        if (r.body?.type === 'webhook_endpoint.test') return { status: 200 };
        if (r.body?.messageId === 'old') return r.headers['service-delivery-attempt'] === '1' ? { status: 400 } : { status: 200 };
        return { hang: true };
      });
      const ep = await createEndpoint(other, { url: rx.url });
      await emit(other, 'message.status', { messageId: 'old', status: 'sent', reason: null });
      await other.flushWebhooks();
      const [old] = await deliveries(other, ep.id);
      expect(old.status).toBe('abandoned');
      // A backlog on the endpoint's lane: three attempts of 2 s each to a receiver that never answers.
      for (let i = 0; i < 3; i++) await emit(other, 'message.status', { messageId: `m${i}`, status: 'sent', reason: null });
      await rx.waitFor(2);

      let started = Date.now();
      const test = await other.call('POST', `/v1/webhooks/${ep.id}/test`);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(test.body).toMatchObject({ status: 'succeeded', responseStatus: 200 });

      started = Date.now();
      const retried = await other.call('POST', `/v1/webhooks/${ep.id}/deliveries/${old.id}/retry`);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(retried.body).toMatchObject({ id: old.id, status: 'succeeded', attempt: 2, responseStatus: 200 });
      // The backlog (in flight in the endpoint's window, hanging) is still on its first attempts.
      const backlog = rx.received.filter((r) => /^m\d$/.test(r.body?.messageId ?? ''));
      expect(backlog.length).toBeGreaterThanOrEqual(1);
      expect(new Set(backlog.map((r) => r.body.messageId)).size).toBe(backlog.length);
      expect(backlog.every((r) => r.headers['service-delivery-attempt'] === '1')).toBe(true);
    } finally {
      await other.stop();
    }
  });

  it('a retry on a disabled endpoint is a conflict', async () => {
    rx.setHandler(() => ({ status: 400 }));
    const ep = await createEndpoint(svc, { url: rx.url });
    await emit(svc, 'message.status', { messageId: 'm', status: 'sent', reason: null });
    await svc.flushWebhooks();
    const [d] = await deliveries(svc, ep.id);
    await svc.call('PATCH', `/v1/webhooks/${ep.id}`, { body: { enabled: false } });
    const res = await svc.call('POST', `/v1/webhooks/${ep.id}/deliveries/${d.id}/retry`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('conflict');
  });
});

describe('concurrency', () => {
  it('the pool is bounded: with concurrency 2, at most 2 requests are in flight at once', async () => {
    const other = await startWebhookService({ webhooks: { concurrency: 2, ackTimeoutMs: HANG_ACK_MS } });
    // Three receivers (three host:ports, so only the worker's pool can hold a request back), each
    // hanging; on every arrival, count the requests open across all three.
    const hanging: Receiver[] = [];
    let maxOpen = 0;
    try {
      for (let i = 0; i < 3; i++) {
        hanging.push(
          await startReceiver(() => {
            maxOpen = Math.max(maxOpen, hanging.reduce((n, r) => n + r.open, 0));
            return { hang: true };
          }),
        );
      }
      for (const r of hanging) await createEndpoint(other, { url: r.url });
      await emit(other, 'message.status', { messageId: 'm', status: 'sent', reason: null });
      await other.flushWebhooks(); // the third is sent once one of the first two times out
      expect(hanging.map((r) => r.received.length)).toEqual([1, 1, 1]);
      expect(maxOpen).toBe(2);
    } finally {
      await other.stop();
      await Promise.all(hanging.map((r) => r.close()));
    }
  });

  it('a healthy endpoint sharing a host:port with 4 hanging ones is sent at once and succeeds', async () => {
    const other = await startWebhookService({ webhooks: { ackTimeoutMs: HANG_ACK_MS } });
    try {
      // How many hanging requests had already been given up on when the healthy one arrived: had it
      // waited for a socket of theirs, at least one would have timed out first.
      let slowEndedBeforeFast = -1;
      rx.setHandler((r) => {
        if (r.path !== '/fast') return { hang: true };
        const slowArrived = rx.received.filter((x) => x.path !== '/fast').length;
        slowEndedBeforeFast = slowArrived - (rx.open - 1);
        return { status: 200 };
      });
      for (const path of ['/slow1', '/slow2', '/slow3', '/slow4']) await createEndpoint(other, { url: `http://127.0.0.1:${rx.port}${path}` });
      const fast = await createEndpoint(other, { url: `http://127.0.0.1:${rx.port}/fast` });
      await emit(other, 'message.status', { messageId: 'm', status: 'sent', reason: null });
      await rx.waitFor(5);
      expect(slowEndedBeforeFast).toBe(0);
      await other.flushWebhooks();
      expect((await deliveries(other, fast.id))[0]).toMatchObject({ status: 'succeeded', attempt: 1, responseStatus: 200 });
      expect(await webhookStreak(other, fast.id)).toMatchObject({ consecutiveFailures: 0 });
    } finally {
      await other.stop();
    }
  });

  it('one hanging endpoint does not hold up another: it holds at most its window, the other gets everything', async () => {
    const other = await startWebhookService({ webhooks: { window: 2, concurrency: 4, ackTimeoutMs: HANG_ACK_MS } });
    const slow = await startReceiver(() => ({ hang: true }));
    try {
      const slowEp = await createEndpoint(other, { url: slow.url });
      await createEndpoint(other, { url: rx.url });
      for (let i = 0; i < 5; i++) await emit(other, 'message.status', { messageId: `m${i}`, status: 'sent', reason: null });
      await rx.waitFor(5);
      // The fast endpoint got all five while the slow one holds its window of two (each hangs until
      // the ack timeout): had they shared a queue, the fast one would wait behind it.
      expect(slow.received.length).toBeLessThanOrEqual(2);
      expect(rx.received.map((r) => r.body.messageId).sort()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
      await other.flushWebhooks();
      expect(slow.maxOpen).toBe(2);
      expect(slow.received.map((r) => r.body.messageId).sort()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
      expect((await deliveries(other, slowEp.id)).map((d) => d.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
    } finally {
      await other.stop();
      await slow.close();
    }
  });
});

describe('a window of attempts per endpoint', () => {
  it('a slow receiver holds at most the window in flight, and every event is delivered once acknowledged', async () => {
    // An ack timeout far above the receiver's 200 ms: on a loaded machine no attempt may time out
    // (it would be retried at the next tick, after this test).
    const other = await startWebhookService({ webhooks: { window: 3, concurrency: 8, ackTimeoutMs: 5_000 } });
    try {
      // Slow enough (200 ms) that the window fills even on a loaded machine; at most 3 at once.
      rx.setHandler(() => ({ status: 200, delayMs: 200 }));
      const ep = await createEndpoint(other, { url: rx.url });
      for (let i = 0; i < 12; i++) await emit(other, 'message.status', { messageId: `m${i}`, status: 'sent', reason: null });
      await other.flushWebhooks();
      expect(rx.maxOpen).toBe(3);
      const ids = rx.received.map((r) => r.body.id);
      expect(ids).toHaveLength(12);
      expect(new Set(ids).size).toBe(12);
      const log = await deliveries(other, ep.id);
      expect(log).toHaveLength(12);
      expect(log.every((d) => d.status === 'succeeded' && d.attempt === 1 && d.responseStatus === 200)).toBe(true);
      expect(await deliveriesDue(other, Date.now() + 3600_000)).toEqual([]);
    } finally {
      await other.stop();
    }
  });

  it('a failing or hanging attempt does not block the others in the window; each is recorded on its own', async () => {
    // Long enough that a loaded machine delivers the other seven before m0's attempt gives up.
    const ACK_MS = 2_000;
    const other = await startWebhookService({ webhooks: { window: 4, concurrency: 8, ackTimeoutMs: ACK_MS } });
    try {
      rx.setHandler((r) => (r.body.messageId === 'm0' ? { hang: true } : r.body.messageId === 'm1' ? { status: 500 } : r.body.messageId === 'm2' ? { status: 410 } : { status: 200 }));
      const ep = await createEndpoint(other, { url: rx.url });
      const started = Date.now();
      for (let i = 0; i < 8; i++) await emit(other, 'message.status', { messageId: `m${i}`, status: 'sent', reason: null });
      await rx.waitFor(8);
      // All eight arrived while m0 was still hanging (before its ack timeout): it held one place only.
      expect(rx.received.at(-1)!.at - started).toBeLessThan(ACK_MS);
      await other.flushWebhooks();
      const byMessage = new Map<string, { status: string; attempt: number; responseStatus: number | null; nextAttemptAt: string | null }>();
      for (const d of await deliveries(other, ep.id)) {
        const event = rx.received.find((r) => r.body.id === d.eventId)!;
        byMessage.set(event.body.messageId, d);
      }
      expect(byMessage.get('m0')).toMatchObject({ status: 'failed', attempt: 1, responseStatus: null });
      expect(byMessage.get('m0')!.nextAttemptAt).not.toBeNull();
      expect(byMessage.get('m1')).toMatchObject({ status: 'failed', attempt: 1, responseStatus: 500 });
      expect(byMessage.get('m2')).toMatchObject({ status: 'abandoned', attempt: 1, responseStatus: 410, nextAttemptAt: null });
      for (const m of ['m3', 'm4', 'm5', 'm6', 'm7']) expect(byMessage.get(m)).toMatchObject({ status: 'succeeded', attempt: 1, responseStatus: 200 });
    } finally {
      await other.stop();
    }
  });
});
