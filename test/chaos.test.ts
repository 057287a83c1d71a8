// Seeded chaos — every fault kind injected where the simulated world meets the service,
// logged, reproducible from its seed, and changed while the service runs.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type ChaosProfile, type TestService } from '../src/testing/index.js';
import { CHAOS_FAULT_KINDS, type ChaosFaultKind } from '../src/api/values/chaos.js';
import { ChaosRun, chaosRoll } from '../src/server/world/chaos.js';
import { assertBuilt } from './helpers/cli.js';

const TEN_DLC = fileURLToPath(new URL('../examples/mock-10dlc.yaml', import.meta.url));
const EMAIL_DOMAIN = fileURLToPath(new URL('../examples/email-domain.yaml', import.meta.url));
const CUSTOMER = '+14155550123';

/** A request as the app under test makes it: no exemption header, so the API's faults apply. */
const appFetch = (t: TestService, method: string, path: string, body?: unknown) =>
  fetch(`${t.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${t.liveKey}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });

const only = (kind: ChaosFaultKind, extra: Record<string, unknown> = {}): ChaosProfile => ({ seed: 7, faults: { [kind]: { rate: 1, ...extra } } });

/** Collects webhook deliveries on loopback. */
async function receiver(): Promise<{ server: Server; url: string; received: Array<{ id: string; type: string }> }> {
  const received: Array<{ id: string; type: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const event = JSON.parse(body) as { id: string; type: string };
      received.push({ id: event.id, type: event.type });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the seeded roll', () => {
  it('depends only on seed, kind and id, and spreads over [0, 1)', () => {
    expect(chaosRoll(1, 'api.429', 'GET /v1/numbers#1')).toBe(chaosRoll(1, 'api.429', 'GET /v1/numbers#1'));
    expect(chaosRoll(1, 'api.429', 'GET /v1/numbers#1')).not.toBe(chaosRoll(2, 'api.429', 'GET /v1/numbers#1'));
    expect(chaosRoll(1, 'api.429', 'GET /v1/numbers#1')).not.toBe(chaosRoll(1, 'api.502', 'GET /v1/numbers#1'));
    const rolls = Array.from({ length: 2000 }, (_, i) => chaosRoll(42, 'carrier.failed', `sms #${i}`));
    expect(rolls.every((r) => r >= 0 && r < 1)).toBe(true);
    const share = rolls.filter((r) => r < 0.3).length / rolls.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
  });
});

describe('an event\'s stable name (what webhook faults are keyed by)', () => {
  it('is the same whichever of two concurrent events commits first, and blind to ids and times', () => {
    const delivered = { id: 'evt_0MkZq7xAbCdEfGhIjKlMn', type: 'message.status', createdAt: '2026-11-27T10:00:00.000Z', messageId: 'msg_0MkZq7xAbCdEfGhIjKlMo', status: 'delivered', reason: null as string | null };
    const failed = { ...delivered, id: 'evt_0MkZq7xAbCdEfGhIjKlMp', messageId: 'msg_0MkZq7xAbCdEfGhIjKlMq', status: 'failed', reason: 'carrier_violation' };
    const names = (order: Array<typeof delivered>) => {
      const chaos = new ChaosRun(only('webhook.duplicate'));
      for (const e of order) chaos.noteEvent(e.id, e.type, e);
      return { delivered: chaos.eventName(delivered.id), failed: chaos.eventName(failed.id) };
    };
    expect(names([delivered, failed])).toEqual(names([failed, delivered]));
    // Another run's ids and times give the same name.
    const chaos = new ChaosRun(only('webhook.duplicate'));
    chaos.noteEvent('evt_x', 'message.status', { ...delivered, id: 'evt_1111111111111111111a', messageId: 'msg_2222222222222222222b', createdAt: '2026-11-28T11:12:13.000Z' });
    expect(chaos.eventName('evt_x')).toBe(names([delivered]).delivered);
  });
});

describe('chaos on the local service', () => {
  let t: TestService;
  let number: string;
  let hook: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    assertBuilt();
    hook = await receiver();
    t = await startService();
    await t.seed(TEN_DLC);
    await t.seed(EMAIL_DOMAIN);
    number = (await t.request('GET', '/v1/numbers')).body.data[0].phoneNumber;
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    hook?.server.close();
  });

  const setChaos = async (profile: ChaosProfile) => {
    await t.reset();
    const put = await t.request('PUT', '/v1/sandbox/chaos', profile);
    expect(put.status).toBe(200);
  };
  const logKinds = async () => (await t.chaos.log()).map((e) => e.kind);
  const liveSend = async (body = 'Your table is ready') => (await t.request('POST', '/v1/messages', { from: number, to: CUSTOMER, body })).body as { id: string };
  const message = async (id: string) => (await t.request('GET', `/v1/messages/${id}`)).body as { status: string; reason?: string | null; errorMessage?: string | null };

  it('answers 429 with Retry-After, and a retry is a new chance', async () => {
    await setChaos({ seed: 1, faults: { 'api.429': { rate: 0.5, retryAfterSecs: 2 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await appFetch(t, 'GET', '/v1/numbers');
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.headers.get('retry-after')).toBe('2');
        expect((await res.json()).error.code).toBe('rate_limited');
      }
    }
    expect(statuses).toContain(429);
    expect(statuses).toContain(200);
    expect((await t.chaos.log()).filter((e) => e.kind === 'api.429')).toHaveLength(statuses.filter((s) => s === 429).length);
    // The test's own requests are spared.
    expect((await t.request('GET', '/v1/numbers')).status).toBe(200);
  });

  it('answers 502 provider_error, or late', async () => {
    await setChaos(only('api.502'));
    const res = await appFetch(t, 'GET', '/v1/messages');
    expect(res.status).toBe(502);
    expect((await res.json()).error.code).toBe('provider_error');
    // The exemption header spares only svc/testing's own requests: an app that sends it with any
    // value of its own still meets the fault.
    for (const value of ['1', 'true', '']) {
      const guessed = await fetch(`${t.baseUrl}/v1/messages`, { headers: { authorization: `Bearer ${t.liveKey}`, 'svc-chaos-exempt': value } });
      expect(guessed.status).toBe(502);
    }
    expect((await t.request('GET', '/v1/messages')).status).toBe(200);
    await setChaos(only('api.slow', { delayMs: 150 }));
    const started = performance.now();
    expect((await appFetch(t, 'GET', '/v1/messages')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(await logKinds()).toEqual(['api.slow']);
  });

  it('fails or undelivers live messages with a reason', async () => {
    await setChaos(only('carrier.failed', { reason: 'carrier says no' }));
    const failed = await liveSend();
    await t.clock.advance(2);
    expect(await message(failed.id)).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(await message(failed.id))).toContain('carrier says no');
    await setChaos(only('carrier.undelivered'));
    const undelivered = await liveSend();
    await t.clock.advance(2);
    expect(await message(undelivered.id)).toMatchObject({ status: 'undelivered' });
    expect((await t.chaos.log())[0]).toMatchObject({ kind: 'carrier.undelivered', detail: { messageId: undelivered.id, reason: 'unreachable handset: chaos' } });
  });

  it('delivers receipts late, and a stale receipt after the final one', async () => {
    await setChaos(only('carrier.late', { delayMs: 60_000 }));
    const late = await liveSend();
    await t.clock.advance(2);
    expect((await message(late.id)).status).toBe('sent');
    await t.clock.advance(60);
    expect((await message(late.id)).status).toBe('delivered');
    await setChaos(only('carrier.out_of_order'));
    const stale = await liveSend();
    await t.clock.advance(2);
    expect((await message(stale.id)).status).toBe('delivered');
    expect(await logKinds()).toEqual(['carrier.out_of_order']);
  });

  it('defers, bounces or accepts emails late', async () => {
    const send = async (to: string) => (await t.request('POST', '/v1/emails', { from: 'Shop <hello@mail.fixtures-demo.example>', to, subject: 'Welcome', text: 'Hi' })).body as { id: string };
    const status = async (id: string) => ((await t.request('GET', `/v1/emails/${id}`)).body as { status: string }).status;
    await setChaos(only('mail.bounce'));
    const bounced = await send('ada@example.net');
    await t.clock.advance('10m');
    expect(await status(bounced.id)).toBe('bounced');
    await setChaos(only('mail.defer', { delaySecs: 3600 }));
    const deferred = await send('bob@example.net');
    await t.clock.advance('10m');
    expect(await t.waitFor.event('email.deferred', { emailId: deferred.id })).toBeTruthy();
    expect(await status(deferred.id)).toBe('sent');
    await t.clock.advance('1h');
    expect(await status(deferred.id)).toBe('delivered');
    await setChaos(only('mail.late', { delaySecs: 3600 }));
    const late = await send('cy@example.net');
    await t.clock.advance('10m');
    expect(await status(late.id)).not.toBe('delivered');
    await t.clock.advance('1h');
    expect(await status(late.id)).toBe('delivered');
    expect(await logKinds()).toEqual(['mail.late']);
  });

  it('sends webhook deliveries twice, or late', async () => {
    await setChaos(only('webhook.duplicate'));
    await t.request('POST', '/v1/webhooks', { url: hook.url, events: ['message.received'] });
    hook.received.length = 0;
    await t.inbound.sms({ to: number, from: CUSTOMER, body: 'hi' });
    const twice = await until('two deliveries', () => (hook.received.length >= 2 ? hook.received : undefined));
    expect(twice[0]!.id).toBe(twice[1]!.id);
    await setChaos(only('webhook.delay', { delayMs: 100 }));
    await t.request('POST', '/v1/webhooks', { url: hook.url, events: ['message.received'] });
    hook.received.length = 0;
    await t.inbound.sms({ to: number, from: CUSTOMER, body: 'again' });
    await until('a delivery', () => (hook.received.length >= 1 ? true : undefined));
    expect((await t.chaos.log())[0]).toMatchObject({ kind: 'webhook.delay', detail: { eventType: 'message.received', delayMs: 100 } });
  });

  it('leaves calls unanswered or drops them', async () => {
    await setChaos({ seed: 7, faults: {} });
    const numberId = (await t.request('GET', '/v1/numbers')).body.data[0].id as string;
    expect((await t.request('PUT', `/v1/numbers/${numberId}/route`, { destinations: [{ destinationType: 'pstn', destination: '+14155550102' }] })).status).toBe(200);
    const answer = { answer: { afterSecs: 0, durationSecs: 120 } };
    const normal = await t.calls.simulate({ from: CUSTOMER, to: number, scenario: answer });
    expect(normal.call.status).toBe('completed');
    await t.chaos.set(only('call.no_answer'));
    const unanswered = await t.calls.simulate({ from: CUSTOMER, to: number, scenario: answer });
    expect(unanswered.call.status).not.toBe('completed');
    expect(await logKinds()).toEqual(['call.no_answer']);
    await t.chaos.set(only('call.drop', { afterSecs: 3 }));
    const dropped = await t.calls.simulate({ from: CUSTOMER, to: number, scenario: answer });
    expect(dropped.call).toMatchObject({ status: 'completed' });
    expect(normal.call.durationSeconds).toBe(120);
    expect(dropped.call.durationSeconds).toBeLessThanOrEqual(3);
    expect(await logKinds()).toEqual(['call.no_answer', 'call.drop']);
  });

  it('refuses a bad profile naming the field, and changes nothing', async () => {
    await setChaos(only('api.502'));
    const bad = await t.request('PUT', '/v1/sandbox/chaos', { seed: 1, faults: { 'api.429': { rate: 2 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toEqual(['body', 'faults', 'api.429', 'rate']);
    const unknown = await t.request('PUT', '/v1/sandbox/chaos', { seed: 1, faults: { 'api.418': { rate: 1 } } });
    expect(unknown.status).toBe(400);
    expect((await t.request('GET', '/v1/sandbox/chaos')).body).toEqual(only('api.502'));
    // The test key may change it too (chaos exists only on the local service).
    expect((await t.request('PUT', '/v1/sandbox/chaos', only('api.slow'), t.testKey)).status).toBe(200);
  });

  it('reset() puts back the profile of the reset point and empties the log', async () => {
    await setChaos(only('api.502'));
    await appFetch(t, 'GET', '/v1/messages');
    expect(await logKinds()).toEqual(['api.502']);
    await t.reset();
    expect(await t.chaos.log()).toEqual([]);
    expect((await t.request('GET', '/v1/sandbox/chaos')).body).toEqual({ seed: 0, faults: {} });
  });
});

describe('reproducibility', () => {
  /** Every kind at once (carrier, API, webhooks, calls; mail is covered above), half the chances each. */
  const profile = (seed: number): ChaosProfile => ({
    seed,
    faults: Object.fromEntries(CHAOS_FAULT_KINDS.filter((k) => !k.startsWith('mail.')).map((k) => [k, { rate: 0.4, delayMs: 10, afterSecs: 2 }])),
  });

  async function run(seed: number): Promise<string[]> {
    const t = await startService({ chaos: profile(seed) });
    const hook = await receiver();
    try {
      await t.seed(TEN_DLC);
      const number = (await t.request('GET', '/v1/numbers')).body.data[0].phoneNumber as string;
      await t.request('POST', '/v1/webhooks', { url: hook.url, events: ['message.*'] });
      // The same requests, some of them concurrent: the order they interleave in must not matter.
      await Promise.all(Array.from({ length: 8 }, (_, i) => appFetch(t, 'GET', i % 2 ? '/v1/numbers' : '/v1/messages')));
      for (let i = 0; i < 6; i++) await t.request('POST', '/v1/messages', { from: number, to: `+1415555010${i}`, body: `note ${i}` });
      await t.clock.advance(5);
      for (let i = 0; i < 3; i++) await t.inbound.sms({ to: number, from: CUSTOMER, body: `in ${i}` });
      for (let i = 0; i < 4; i++) await t.calls.simulate({ from: `+1415555020${i}`, to: number, scenario: { answer: { afterSecs: 0, durationSecs: 10 } } });
      await t.request('GET', '/v1/messages');
      await until('deliveries settled', async () => ((await t.chaos.log()).length > 0 ? true : undefined));
      await new Promise((r) => setTimeout(r, 300));
      return (await t.chaos.log()).map((e) => `${e.kind} ${e.id}`).sort();
    } finally {
      await t.close();
      hook.server.close();
    }
  }

  it('the same seed and the same requests give the same fault log; another seed another', async () => {
    const [a, b] = [await run(29), await run(29)];
    expect(a.length).toBeGreaterThan(5);
    expect(b).toEqual(a);
    const kinds = new Set(a.map((l) => l.split(' ')[0]));
    expect(kinds.size).toBeGreaterThan(4);
    expect(await run(30)).not.toEqual(a);
  }, 120_000);
});
