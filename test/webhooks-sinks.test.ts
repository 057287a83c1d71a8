// Sinks, resend and replay over HTTP (contract §10, extensions): a sink is a webhook endpoint the
// service serves itself and which keeps what it receives. Proofs: a retry scenario seen from the
// sink (500 to the first two attempts, then 200: three requests kept, each with its verified
// signature, and a succeeded delivery); a forged request kept as not verified, credentials redacted;
// a flooded sink keeps only its cap; a held read of its requests answers as one arrives; a replay
// after a receiver's outage delivers every failed event once more and nothing else; a test key
// cannot resend a live event. Loopback only (the service's delivery resolver and guard).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ONE_REPLICA, type TestService } from './helpers/service.js';
import { itOnOneReplica } from './helpers/engines.js';
import { HANG_ACK_MS, advance, alignClock, createEndpoint, deliveries, startReceiver, startWebhookService, type Receiver } from './webhooks-receiver.js';
import { SINK_LIMITS } from '../src/api/values/sinks.js';
import { SinkRequestPageSchema, SinkWithSecretSchema } from '../src/api/schemas/sinks.js';
import { signWebhookPayload } from '../src/webhooks/verify.js';
import { DeliveryDetailSchema } from '../src/api/schemas/webhooks.js';

let svc: TestService;
let n = 0;

beforeAll(async () => {
  svc = await startWebhookService();
});
afterAll(async () => {
  await svc?.stop();
});

/** An inbound text to the test sender: one `message.received` event, live (the outside world sent it). */
async function inbound(key?: string): Promise<string> {
  const res = await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550123', to: '+15005550006', body: `hello ${++n}` }, key });
  expect(res.status, res.text).toBe(201);
  const events = await svc.call('GET', '/v1/events?order=desc&limit=1&types=message.received');
  expect(events.body.data[0].messageId).toBe(res.body.id);
  return events.body.data[0].id as string;
}

async function createSink(body: Record<string, unknown>, key?: string, service: TestService = svc) {
  const res = await service.call('POST', '/v1/sandbox/sinks', { body, key });
  expect(res.status, res.text).toBe(201);
  return SinkWithSecretSchema.parse(res.body);
}

async function requestsOf(sinkId: string, query = '') {
  const res = await svc.call('GET', `/v1/sandbox/sinks/${sinkId}/requests${query}`);
  expect(res.status, res.text).toBe(200);
  return SinkRequestPageSchema.parse(res.body);
}

describe('a sink', () => {
  it('is an endpoint at the service\'s own /sinks/{id}; sees a retry: 500 to the first 2 attempts, then 200, three requests kept, each verified, and the delivery succeeds', async () => {
    alignClock(svc, 10);
    const sink = await createSink({ respond: { failFirst: 2 }, events: ['message.received'] });
    // The service's own address (with replicas, the one that made it), never leaving the machine.
    expect(svc.replicas.map((r) => `${r.baseUrl}/sinks/${sink.id}`)).toContain(sink.url);
    expect(sink.secret).toMatch(/^whsec_/);
    const endpoint = (await svc.call('GET', `/v1/webhooks/${sink.endpointId}`)).body;
    expect(endpoint).toMatchObject({ url: sink.url, events: ['message.received'], enabled: true, description: `sink ${sink.id}` });

    const eventId = await inbound();
    await svc.flushWebhooks();
    await advance(svc, 300); // the retry 30 s later, sent at the next 5-minute tick
    await advance(svc, 300); // the next, 2 min after that one

    const kept = await requestsOf(sink.id);
    expect(kept.data.map((r) => [r.attempt, r.answeredStatus])).toEqual([[3, 200], [2, 500], [1, 500]]);
    for (const r of kept.data) {
      expect(r).toMatchObject({ eventId, eventType: 'message.received', signatureValid: true });
      expect(JSON.parse(r.body)).toMatchObject({ id: eventId, type: 'message.received' });
      expect(r.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(r.headers['service-event-id']).toBe(eventId);
    }
    const [delivery] = await deliveries(svc, sink.endpointId);
    expect(delivery).toMatchObject({ eventId, status: 'succeeded', attempt: 3, responseStatus: 200 });
    expect(delivery.attempts.map((a: any) => a.responseStatus)).toEqual([500, 500, 200]);
    const listed = (await svc.call('GET', '/v1/sandbox/sinks')).body.data.find((s: any) => s.id === sink.id);
    expect(listed).toEqual({ id: sink.id, url: sink.url, endpointId: sink.endpointId, events: ['message.received'], respond: { status: 200, failFirst: 2, delayMs: 0 }, received: 3, createdAt: sink.createdAt });
    expect(listed.secret).toBeUndefined();
  });

  it("a delivery's GET shows each attempt's request as sent (the signature's MAC redacted) and the answer, and the body once", async () => {
    alignClock(svc, 10);
    const sink = await createSink({ respond: { failFirst: 1 }, events: ['message.received'] });
    const eventId = await inbound();
    await svc.flushWebhooks();
    await advance(svc, 300); // the retry 30 s later, sent at the next 5-minute tick
    const [listed] = await deliveries(svc, sink.endpointId);
    const res = await svc.call('GET', `/v1/webhooks/${sink.endpointId}/deliveries/${listed.id}`);
    expect(res.status, res.text).toBe(200);
    const d = DeliveryDetailSchema.parse(res.body);
    expect(d).toMatchObject({ id: listed.id, eventId, status: 'succeeded', attempt: 2, bodyTruncated: false });
    expect(d.attempts.map((a) => [a.attempt, a.responseStatus, a.responseBody])).toEqual([
      [1, 500, '{"error":"this sink answers 500 (as it was told)"}'],
      [2, 200, '{"received":true}'],
    ]);
    // What the sink received is what the attempts say they sent, but for the MAC.
    const kept = (await requestsOf(sink.id)).data.reverse();
    for (const [i, a] of d.attempts.entries()) {
      expect(a.request!.url).toBe(sink.url);
      expect(a.request!.headers).toMatchObject({ 'Service-Event-Id': eventId, 'Service-Event-Type': 'message.received', 'Service-Delivery-Attempt': String(i + 1) });
      const sent = kept[i]!.headers['x-service-signature']!;
      expect(sent).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(a.request!.headers['X-Service-Signature']).toBe(`${sent.split(',')[0]},v1=[redacted]`);
    }
    expect(res.text).not.toMatch(/v1=[0-9a-f]{64}/);
    expect(res.text).not.toContain(sink.secret);
    // The body every attempt sent, byte for byte what the sink received.
    expect(d.body).toBe(kept[0]!.body);
    expect(JSON.parse(d.body!)).toMatchObject({ id: eventId, type: 'message.received' });
    // Another account finds no such delivery.
    const child = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Inspector shop' } });
    expect(child.status, child.text).toBe(201);
    const other = await svc.call('POST', '/v1/keys', { headers: { 'Service-Subaccount': child.body.id }, body: { name: 'other', mode: 'live' } });
    expect(other.status, other.text).toBe(201);
    expect((await svc.call('GET', `/v1/webhooks/${sink.endpointId}/deliveries/${listed.id}`, { key: other.body.key })).status).toBe(404);
  });

  it('keeps a request whose signature is not its secret\'s as not verified, and redacts credentials sent to it', async () => {
    const sink = await createSink({ respond: { status: 202 } });
    const body = '{"id":"evt_forged","type":"message.received"}';
    const forged = await svc.call('POST', `/sinks/${sink.id}`, {
      key: null,
      rawBody: body,
      headers: { 'content-type': 'application/json', 'x-service-signature': signWebhookPayload(body, 'whsec_not_its_secret'), 'service-event-id': 'evt_forged', authorization: 'Bearer sk_live_oops', cookie: 'a=b' },
    });
    expect(forged.status).toBe(202);
    expect(forged.body).toEqual({ received: true });
    const signed = await svc.call('POST', `/sinks/${sink.id}`, { key: null, rawBody: body, headers: { 'content-type': 'application/json', 'x-service-signature': signWebhookPayload(body, sink.secret) } });
    expect(signed.status).toBe(202);
    const [last, first] = (await requestsOf(sink.id)).data;
    expect(first).toMatchObject({ eventId: 'evt_forged', attempt: null, signatureValid: false, answeredStatus: 202, body });
    expect(first!.headers).toMatchObject({ authorization: '[redacted]', cookie: '[redacted]' });
    expect(last).toMatchObject({ eventId: null, signatureValid: true });
    expect((await svc.call('POST', '/sinks/snk_unknown0000000000000', { key: null, rawBody: '{}' })).status).toBe(404);
  });

  it(`flooded with ${3 * SINK_LIMITS.keptRequests} requests keeps only its newest ${SINK_LIMITS.keptRequests}`, async () => {
    const sink = await createSink({});
    const total = 3 * SINK_LIMITS.keptRequests;
    let sent = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (sent < total) {
          const i = ++sent;
          const res = await svc.call('POST', `/sinks/${sink.id}`, { key: null, rawBody: JSON.stringify({ i }), headers: { 'content-type': 'application/json' } });
          expect(res.status).toBe(200);
        }
      }),
    );
    const bodies: string[] = [];
    let page = await requestsOf(sink.id, '?limit=100');
    bodies.push(...page.data.map((r) => r.body));
    while (page.hasMore) {
      page = await requestsOf(sink.id, `?limit=100&before=${page.cursor}`);
      bodies.push(...page.data.map((r) => r.body));
    }
    expect(bodies).toHaveLength(SINK_LIMITS.keptRequests);
    expect(new Set(bodies).size).toBe(SINK_LIMITS.keptRequests);
    expect((await svc.call('GET', '/v1/sandbox/sinks')).body.data.find((s: any) => s.id === sink.id).received).toBe(total);
    // The oldest kept is the first of the newest 1,000: position 2,001 of 3,000.
    const oldest = await requestsOf(sink.id, '?order=asc&limit=1');
    expect(oldest.data).toHaveLength(1);
    expect((await requestsOf(sink.id, `?order=asc&limit=1&after=${oldest.cursor}`)).data[0]!.body).toBe(bodies[bodies.length - 2]);
  });

  it('keeps the first 64 KB of a 1 MB body read as it streams, its signature verified over all of it; refuses a longer one (400)', async () => {
    const sink = await createSink({});
    const body = JSON.stringify({ id: 'evt_long', pad: 'é'.repeat(SINK_LIMITS.readBodyBytes / 2 - 20) });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(SINK_LIMITS.readBodyBytes);
    const signed = await svc.call('POST', `/sinks/${sink.id}`, { key: null, rawBody: body, headers: { 'content-type': 'application/json', 'x-service-signature': signWebhookPayload(body, sink.secret) } });
    expect(signed.status, signed.text).toBe(200);
    const [kept] = (await requestsOf(sink.id)).data;
    expect(kept!.signatureValid).toBe(true);
    // Cut on a character boundary: the 2-byte é never split.
    expect(kept!.body).toBe(Buffer.from(body).subarray(0, SINK_LIMITS.keptBodyBytes).toString('utf8').replace(/\uFFFD$/, ''));
    const tampered = body.slice(0, -2) + '!}';
    const forged = await svc.call('POST', `/sinks/${sink.id}`, { key: null, rawBody: tampered, headers: { 'content-type': 'application/json', 'x-service-signature': signWebhookPayload(body, sink.secret) } });
    expect(forged.status).toBe(200);
    expect((await requestsOf(sink.id)).data[0]!.signatureValid).toBe(false);
    const over = await svc.call('POST', `/sinks/${sink.id}`, { key: null, rawBody: Buffer.alloc(SINK_LIMITS.readBodyBytes + 1, 'x'), headers: { 'content-type': 'text/plain' } });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'validation_error', details: [{ path: ['body'] }] });
    expect((await requestsOf(sink.id)).data).toHaveLength(2);
  });

  it('holds a read of its requests (`wait`) until one arrives, then answers it; deleting the sink deletes its endpoint', async () => {
    const sink = await createSink({});
    const head = await requestsOf(sink.id, '?after=now');
    expect(head.data).toEqual([]);
    const held = svc.call('GET', `/v1/sandbox/sinks/${sink.id}/requests?order=asc&after=${head.cursor}&wait=20`);
    // Posted once the read is held (it re-reads on waking, so a post before it is held is answered too).
    const posted = await svc.call('POST', `/sinks/${sink.id}`, { key: null, rawBody: '{"late":true}' });
    expect(posted.status).toBe(200);
    const answered = await held;
    expect(answered.status).toBe(200);
    expect(answered.body.data.map((r: any) => r.body)).toEqual(['{"late":true}']);

    expect((await svc.call('DELETE', `/v1/sandbox/sinks/${sink.id}`)).status).toBe(204);
    expect((await svc.call('GET', `/v1/webhooks/${sink.endpointId}`)).status).toBe(404);
    expect((await svc.call('GET', `/v1/sandbox/sinks/${sink.id}/requests`)).status).toBe(404);
    expect((await svc.call('POST', `/sinks/${sink.id}`, { key: null, rawBody: '{}' })).status).toBe(404);
  });
});

describe('a sink flooded', () => {
  // The intake is counted per service process: one replica shows its bound.
  let single: TestService;
  beforeAll(async () => {
    single = await startWebhookService(ONE_REPLICA);
  });
  afterAll(async () => {
    await single?.stop();
  });

  itOnOneReplica('takes in a bounded number of bytes a second: past it, 429 with Retry-After before the body is read, the request not kept', () => single, async () => {
    const sink = await createSink({}, undefined, single);
    const { hostname, port } = new URL(single.baseUrl);
    // Requests that say 1 MB is coming and send none of it: the intake decides on what they say.
    const count = 160;
    const started = performance.now();
    const answers: string[] = [];
    const sockets = Array.from({ length: count }, () => {
      const socket = connect(Number(port), hostname);
      let text = '';
      socket.on('data', (b) => {
        text += b.toString('latin1');
        if (text.includes('\r\n\r\n') && !socket.destroyed) {
          answers.push(text);
          socket.destroy();
        }
      });
      socket.on('error', () => {});
      socket.write(`POST /sinks/${sink.id} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: text/plain\r\nContent-Length: ${SINK_LIMITS.readBodyBytes}\r\n\r\n`);
      return socket;
    });
    // At most a second's worth at once, then what refills meanwhile: the rest are refused. Waited for
    // until that many answers came (or the time in which all might have been taken ran out).
    const mayTake = () => Math.ceil((SINK_LIMITS.intakeBytesPerSec * (1 + (performance.now() - started) / 1000)) / SINK_LIMITS.readBodyBytes);
    // (A taken one whose body never comes is answered 408 once the service stops waiting for it.)
    const refused = () => answers.filter((a) => !a.startsWith('HTTP/1.1 408 '));
    await vi.waitUntil(() => refused().length >= count - mayTake() || mayTake() >= count, { timeout: 60_000, interval: 20 });
    for (const s of sockets) s.destroy();
    expect(refused().length).toBeGreaterThan(0);
    expect(refused().length).toBeGreaterThanOrEqual(count - mayTake());
    for (const a of refused()) {
      expect(a).toMatch(/^HTTP\/1\.1 429 /);
      expect(Number(/\r\nretry-after: (\d+)\r\n/i.exec(a)?.[1])).toBeGreaterThanOrEqual(1);
    }
    // None was kept: the refused were never read, the taken never finished.
    expect((await single.call('GET', '/v1/sandbox/sinks')).body.data.find((s: any) => s.id === sink.id).received).toBe(0);
  });
});

describe('a sink told to wait', () => {
  it('answers after its delay; past the worker\'s ack timeout the attempt times out and the request says nobody was answered', async () => {
    // Its own service: a short ack timeout, so the timeout is quick to see.
    const quick = await startWebhookService({ webhooks: { ackTimeoutMs: HANG_ACK_MS } });
    try {
      const sinkOf = async (delayMs: number) => {
        const res = await quick.call('POST', '/v1/sandbox/sinks', { body: { respond: { delayMs }, events: ['message.received'] } });
        expect(res.status, res.text).toBe(201);
        return res.body as { id: string; endpointId: string };
      };
      const slow = await sinkOf(HANG_ACK_MS / 5);
      const late = await sinkOf(HANG_ACK_MS * 2);
      expect((await quick.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550123', to: '+15005550006', body: 'wait for it' } })).status).toBe(201);
      await quick.flushWebhooks();
      const [answered] = await deliveries(quick, slow.endpointId);
      expect(answered).toMatchObject({ status: 'succeeded', responseStatus: 200 });
      expect(answered.durationMs).toBeGreaterThanOrEqual(HANG_ACK_MS / 5);
      const [timedOut] = await deliveries(quick, late.endpointId);
      expect(timedOut).toMatchObject({ status: 'failed', responseStatus: null });
      expect(timedOut.error).toMatch(/timeout|timed out/i);
      // The sink kept the request at once; that its answer reached nobody is written once the client has gone.
      const keptNow = async (): Promise<any[]> => (await quick.call('GET', `/v1/sandbox/sinks/${late.id}/requests`)).body.data;
      let kept = await keptNow();
      for (const deadline = Date.now() + 15_000; kept[0]?.answeredStatus !== null && Date.now() < deadline; kept = await keptNow()) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(kept).toHaveLength(1);
      expect(kept[0]).toMatchObject({ attempt: 1, answeredStatus: null, signatureValid: true });
    } finally {
      await quick.stop();
    }
  });
});

describe('replay and resend', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it("a replay after a receiver's outage delivers every failed event once more, and nothing else", async () => {
    alignClock(svc, 10);
    let down = false;
    receiver.setHandler(() => ({ status: down ? 503 : 200 }));
    const ep = await createEndpoint(svc, { url: receiver.url, events: ['message.received'] });
    const before = await inbound();
    await svc.flushWebhooks();
    const sinceBefore = (await svc.call('GET', '/v1/events?after=now')).body.cursor as string;
    down = true;
    const missed = [await inbound(), await inbound(), await inbound()];
    await svc.flushWebhooks();
    down = false;
    const log = await deliveries(svc, ep.id);
    expect(new Map(log.map((d: any) => [d.eventId, d.status]))).toEqual(new Map([[before, 'succeeded'], ...missed.map((id) => [id, 'failed'] as const)]));

    const seen = receiver.received.length;
    const replay = await svc.call('POST', `/v1/webhooks/${ep.id}/replay`, { body: { status: 'failed' } });
    expect(replay.status, replay.text).toBe(202);
    expect(replay.body).toEqual({ count: 3 });
    await svc.flushWebhooks();
    const again = receiver.received.slice(seen);
    expect(again.map((r) => r.body.id).sort()).toEqual([...missed].sort());
    expect(again.map((r) => r.headers['service-delivery-attempt'])).toEqual(['1', '1', '1']);
    // Nothing failed is left to replay once every event's newest delivery succeeded.
    expect((await svc.call('POST', `/v1/webhooks/${ep.id}/replay`, { body: { status: 'failed' } })).body).toEqual({ count: 0 });
    // Without a status: every event the endpoint is subscribed to after `after` (a feed cursor, or a time).
    expect((await svc.call('POST', `/v1/webhooks/${ep.id}/replay`, { body: { after: sinceBefore } })).body).toEqual({ count: 3 });
    const future = new Date(svc.now() + 1000).toISOString();
    expect((await svc.call('POST', `/v1/webhooks/${ep.id}/replay`, { body: { after: future } })).body).toEqual({ count: 0 });
    expect((await svc.call('POST', `/v1/webhooks/${ep.id}/replay`, { body: { after: 'nonsense' } })).body.error.details[0].path).toEqual(['body', 'after']);
    await svc.call('DELETE', `/v1/webhooks/${ep.id}`);
  });

  it('a test key cannot resend a live event (403 forbidden); a live key can, to one endpoint or to every subscribed one', async () => {
    const ep = await createEndpoint(svc, { url: receiver.url, events: ['message.received'] });
    const live = await inbound();
    const refused = await svc.call('POST', `/v1/events/${live}/resend`, { key: svc.bootstrap.testKey, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    const resent = await svc.call('POST', `/v1/events/${live}/resend`, { body: { endpointId: ep.id } });
    expect(resent.status, resent.text).toBe(202);
    expect(resent.body.deliveries).toHaveLength(1);
    expect(resent.body.deliveries[0]).toMatchObject({ endpointId: ep.id, eventId: live, status: 'pending', attempt: 0 });
    await svc.flushWebhooks();
    expect((await svc.call('GET', `/v1/webhooks/${ep.id}/deliveries/${resent.body.deliveries[0].id}`)).body).toMatchObject({ status: 'succeeded', attempt: 1 });
    expect((await svc.call('POST', `/v1/events/evt_unknown/resend`)).status).toBe(404);
    await svc.call('DELETE', `/v1/webhooks/${ep.id}`);
  });
});
