import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { startReceiver, startWebhookService, createEndpoint, type Receiver, type Reply } from './webhooks-receiver.js';
import type { TestService } from './helpers/service.js';
import { CALLER, PSTN, callEvents, getCall, placeCall, traceOf, voiceNumber } from './calls-fixtures.js';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '../src/webhooks/verify.js';
import { callState } from './helpers/inspect.js';

// spec: Routing decision request; contract §6 (signed with the same-origin endpoint's secret, fail-open,
// sent once), §10 (URL safety at call time) — a REAL loopback receiver answers the decision webhook.

let svc: TestService;
let receiver: Receiver;
/** How /decide answers in the current test; /events (webhook deliveries) always 200. */
let decide: (index: number) => Reply;

beforeAll(async () => {
  receiver = await startReceiver();
  // Names resolve from a table only; decide.example.com points at a private address.
  svc = await startWebhookService({ dns: { 'decide.example.com': '10.0.0.5' } });
});
afterAll(async () => {
  await svc?.stop();
  await receiver?.close();
});
beforeEach(() => {
  decide = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"action":"continue"}' });
  receiver.setHandler((r) => (r.path === '/decide' ? decide(decisionRequests().indexOf(r)) : { status: 200 }));
});

const decisionRequests = () => receiver.received.filter((r) => r.path === '/decide');
const origin = () => `http://127.0.0.1:${receiver.port}`;

/** A voice number whose route asks the decision webhook first, and an endpoint of the same origin (its secret signs). */
async function decidingNumber(timeoutMs = 800, url = `${origin()}/decide`): Promise<any> {
  return voiceNumber(svc, { destinationType: 'pstn', destination: PSTN, decisionWebhook: { enabled: true, url, timeoutMs } });
}

let endpoint: { id: string; secret: string } | undefined;
async function sameOriginEndpoint(): Promise<{ id: string; secret: string }> {
  endpoint ??= await createEndpoint(svc, { url: `${origin()}/events`, events: ['message.status'] });
  return endpoint;
}

const decisionTrace = async (callId: string) => (await traceOf(svc, callId)).filter((t) => t.step === 'decision').map((t) => t.detail);

describe('the routing decision request', () => {
  it('reject: a fast 200 {"action":"reject"} ends the call as blocked; the request is signed and carries the spec fields', async () => {
    const ep = await sameOriginEndpoint();
    const n = await decidingNumber();
    decide = () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"action":"reject"}' });
    const before = decisionRequests().length;
    const call = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 1, durationSecs: 5 } });
    await svc.advanceJobs(0);
    expect(await getCall(svc, call.id)).toMatchObject({ status: 'blocked' });
    expect(await callEvents(svc, call.id)).toEqual([]);
    const sent = decisionRequests().slice(before);
    expect(sent).toHaveLength(1);
    const req = sent[0]!;
    expect(req.body).toEqual({ numberId: n.id, callId: call.id, from: CALLER, to: n.phoneNumber, startedAt: call.startedAt });
    expect(req.headers['content-type']).toBe('application/json');
    expect(verifyWebhookSignature(req.rawBody, req.headers[SIGNATURE_HEADER.toLowerCase()] as string, ep.secret)).toBe(true);
    expect(verifyWebhookSignature(req.rawBody, req.headers[SIGNATURE_HEADER.toLowerCase()] as string, 'whsec_other')).toBe(false);
    const [detail] = await decisionTrace(call.id);
    expect(detail).toMatch(/^reject in \d+ ms$/);
  });

  it('forward: {"action":"forward","to"} rings that number instead of the route', async () => {
    await sameOriginEndpoint();
    const n = await decidingNumber();
    decide = () => ({ status: 200, body: JSON.stringify({ action: 'forward', to: '+14155550144' }) });
    const call = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 2, durationSecs: 3 } });
    await svc.advanceJobs(5);
    expect(await getCall(svc, call.id)).toMatchObject({ status: 'completed', answeredBy: '+14155550144' });
    expect((await decisionTrace(call.id))[0]).toMatch(/^forward to \+14155550144 in \d+ ms$/);
  });

  it('a slow answer past timeoutMs fails open: the normal route runs', async () => {
    await sameOriginEndpoint();
    const n = await decidingNumber(200);
    decide = () => ({ status: 200, body: '{"action":"reject"}', delayMs: 700 });
    const call = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 1, durationSecs: 2 } });
    await svc.advanceJobs(3);
    expect(await getCall(svc, call.id)).toMatchObject({ status: 'completed', answeredBy: PSTN });
    const [detail] = await decisionTrace(call.id);
    expect(detail).toContain('fail-open: timeout');
  });

  it('a 500 and a malformed body fail open', async () => {
    await sameOriginEndpoint();
    const n = await decidingNumber();
    decide = () => ({ status: 500, body: '{"action":"reject"}' });
    const a = await placeCall(svc, n.phoneNumber);
    await svc.advanceJobs(0);
    expect((await getCall(svc, a.id)).status).toBe('ringing');
    expect((await decisionTrace(a.id))[0]).toMatch(/^fail-open: HTTP 500 in \d+ ms/);

    decide = () => ({ status: 200, body: 'reject, please' });
    const b = await placeCall(svc, n.phoneNumber);
    await svc.advanceJobs(0);
    expect((await getCall(svc, b.id)).status).toBe('ringing');
    expect((await decisionTrace(b.id))[0]).toContain('fail-open: malformed body');
    expect((await traceOf(svc, b.id)).some((t) => t.step === 'leg.dialed')).toBe(true);
    await svc.advanceJobs(25);
  });

  it('with no enabled endpoint of the same origin it is not sent (fail-open, the trace says why)', async () => {
    await sameOriginEndpoint();
    // Another port on loopback: another origin; nothing listens there and nothing is sent.
    const n = await decidingNumber(800, `http://127.0.0.1:${receiver.port === 1 ? 2 : 1}/decide`);
    const before = receiver.received.length;
    const call = await placeCall(svc, n.phoneNumber);
    await svc.advanceJobs(0);
    expect(receiver.received.length).toBe(before);
    expect((await getCall(svc, call.id)).status).toBe('ringing');
    expect((await decisionTrace(call.id))[0]).toMatch(/^fail-open: not sent \(no enabled webhook endpoint of this account has the origin http:\/\/127\.0\.0\.1:\d+/);
    await svc.advanceJobs(25);
  });

  it('signs with the newest enabled endpoint of the origin; a disabled one is not used', async () => {
    await sameOriginEndpoint();
    const newer = await createEndpoint(svc, { url: `${origin()}/other-path`, events: ['message.status'] });
    const n = await decidingNumber();
    const before = decisionRequests().length;
    const call = await placeCall(svc, n.phoneNumber);
    await svc.advanceJobs(0);
    const req = decisionRequests()[before]!;
    expect(verifyWebhookSignature(req.rawBody, req.headers[SIGNATURE_HEADER.toLowerCase()] as string, newer.secret)).toBe(true);
    // Disabled: the older endpoint signs again.
    expect((await svc.call('PATCH', `/v1/webhooks/${newer.id}`, { body: { enabled: false } })).status).toBe(200);
    const second = await placeCall(svc, n.phoneNumber);
    await svc.advanceJobs(0);
    const req2 = decisionRequests()[before + 1]!;
    expect(req2.body.callId).toBe(second.id);
    expect(verifyWebhookSignature(req2.rawBody, req2.headers[SIGNATURE_HEADER.toLowerCase()] as string, endpoint!.secret)).toBe(true);
    expect(call.id).not.toBe(second.id);
    await svc.advanceJobs(25);
  });

  it('a URL whose name resolves to a private address is refused at call time (not sent), whatever the route saved', async () => {
    await createEndpoint(svc, { url: 'https://decide.example.com/events', events: ['message.status'] });
    const n = await decidingNumber(800, 'https://decide.example.com/decide');
    const call = await placeCall(svc, n.phoneNumber);
    await svc.advanceJobs(0);
    expect((await getCall(svc, call.id)).status).toBe('ringing');
    const [detail] = await decisionTrace(call.id);
    expect(detail).toContain('fail-open: not sent (refused: decide.example.com resolves to a private address (10.0.0.5)');
    await svc.advanceJobs(25);
  });
});

describe('sent once, across a restart', () => {
  it('a service stopped while the decision is awaited fails open on the next start without a second request', async () => {
    const own = await startWebhookService();
    const dataDir = own.dataDir;
    let again: TestService | undefined;
    const hanging = await startReceiver((r) => (r.path === '/decide' ? { hang: true } : { status: 200 }));
    try {
      await createEndpoint(own, { url: `http://127.0.0.1:${hanging.port}/events`, events: ['message.status'] });
      const n = await voiceNumber(own, { destinationType: 'pstn', destination: PSTN, decisionWebhook: { enabled: true, url: `http://127.0.0.1:${hanging.port}/decide`, timeoutMs: 5000 } });
      const call = await placeCall(own, n.phoneNumber, { answer: { afterSecs: 2, durationSecs: 4 } });
      const stepping = own.advanceJobs(0);
      await hanging.waitFor(1);
      expect(await callState(own, call.id)).toMatchObject({ phase: { kind: 'decision.awaiting' } });
      const stoppedAt = own.now();
      await own.close(); // drops the request in flight; the data directory stays
      await stepping;
      expect(hanging.received.filter((r) => r.path === '/decide')).toHaveLength(1);

      again = await startWebhookService({ dataDir });
      again.deps.clock.setTo(stoppedAt);
      expect((await getCall(again, call.id)).status).toBe('ringing');
      await again.advanceJobs(6);
      expect(await getCall(again, call.id)).toMatchObject({ status: 'completed', answeredBy: PSTN });
      expect(hanging.received.filter((r) => r.path === '/decide')).toHaveLength(1);
      const details = (await traceOf(again, call.id)).filter((t) => t.step === 'decision').map((t) => t.detail);
      expect(details).toEqual(['fail-open: interrupted while waiting for the answer (not sent again); the normal route runs']);
      expect((await callEvents(again, call.id)).map((e) => e.type)).toEqual(['call.completed']);
    } finally {
      await again?.stop();
      await hanging.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
