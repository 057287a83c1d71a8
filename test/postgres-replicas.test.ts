import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_TIME_HEADER } from '../src/api/values/sandbox.js';
import { SANDBOX_CARD_TOKEN } from '../src/api/values/billing.js';
import type { StartOptions } from './helpers/service.js';
import { startPostgres, type PostgresServer } from './helpers/postgres.js';
import { changesHeardBy, commitChangeWithoutEvent, deliveryClaimOf, deliveryStatusOf, pgApiKeyIds, pgChargeCounts, pgDeliveredCount, pgRepeatedStatusEvents } from './helpers/inspect.js';
import { startChild, client, killAll, type Child } from './helpers/service-child.js';
import { UNLIMITED, type TestService } from './helpers/service.js';
import { liveNumber } from './messages-fixtures.js';
import { PRICES } from '../src/api/values/prices.js';
import { createEndpoint, emit, startReceiver, startWebhookService, type Receiver } from './webhooks-receiver.js';

// Several services (replicas) on one PostgreSQL database, driven over HTTP: every job and
// every webhook attempt done by exactly one of them, one service clock, long polls woken by a
// commit on any replica, limits that alternating between replicas cannot bypass, and a replica that
// joins a bootstrapped database making no keys of its own.

let server: PostgresServer;
const running: Array<{ stop(): Promise<void> }> = [];
const dirs: string[] = [];
const children: Child[] = [];

/** Waits, a check at a time, until `cond` holds (a deadline against a hang, not a timing). */
async function until(cond: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'svc-replica-'));
  dirs.push(d);
  return d;
};

/**
 * Whether `svc` counts `n` replicas on its database, as its rate limit shows: each enforces its share
 * of the limit (the per-key burst over the replicas it counts) in `RateLimit-Limit`.
 */
async function counts(svc: TestService, n: number): Promise<boolean> {
  const limit = (await svc.call('GET', '/v1/keys?limit=1')).headers['ratelimit-limit'];
  return limit === String(Math.floor(UNLIMITED.burst / n));
}

/** A replica on `url`; later ones get the first one's bootstrap.json (the documented way to share its keys). */
async function replica(url: string, opts: Partial<StartOptions> & { keysFrom?: TestService } = {}): Promise<TestService> {
  const { keysFrom, ...rest } = opts;
  const dir = dataDir();
  if (keysFrom) copyFileSync(join(keysFrom.dataDir, 'bootstrap.json'), join(dir, 'bootstrap.json'));
  const svc = await startWebhookService({ store: url, dataDir: dir, heartbeatMs: 100, ...rest });
  running.push(svc);
  return svc;
}

async function replicas(n: number, opts: Partial<StartOptions> = {}): Promise<{ url: string; all: TestService[] }> {
  const url = server.url(await server.createDatabase());
  const first = await replica(url, opts);
  const all = [first];
  for (let i = 1; i < n; i++) all.push(await replica(url, { ...opts, keysFrom: first }));
  return { url, all };
}

/** Counts each replica's carrier submissions, by message id. */
function countSubmissions(services: TestService[]): Map<string, number> {
  const seen = new Map<string, number>();
  for (const svc of services) {
    const carrier = svc.deps.carrier as unknown as { submit: (m: { messageId: string }) => Promise<unknown> };
    const submit = carrier.submit.bind(carrier);
    carrier.submit = async (m) => {
      seen.set(m.messageId, (seen.get(m.messageId) ?? 0) + 1);
      return await submit(m);
    };
  }
  return seen;
}

beforeAll(async () => {
  server = await startPostgres();
});

afterEach(async () => {
  killAll(children.splice(0));
  for (const s of running.splice(0).reverse()) await s.stop().catch(() => undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

afterAll(async () => {
  await server?.stop();
});

describe('replicas on one PostgreSQL database', () => {
  it('a replica started on a bootstrapped database writes no keys and says where they come from', async () => {
    const url = server.url(await server.createDatabase());
    const a = await replica(url);
    const keysBefore = await pgApiKeyIds(url);
    expect(keysBefore).toHaveLength(2);
    const b = await replica(url);
    expect(b.bootstrapCreated).toBe(false);
    expect(b.joined).toMatch(/bootstrapped by another replica/);
    expect(b.joined).toContain(`${b.dataDir}/bootstrap.json`);
    expect(b.joined).toContain('svc keys create');
    expect(() => b.bootstrap).toThrow(/no keys were made here/);
    expect(existsSync(join(b.dataDir, 'bootstrap.json'))).toBe(false);
    expect(await pgApiKeyIds(url)).toEqual(keysBefore);
    // The first replica's keys work on it.
    expect((await b.call('GET', '/v1/keys?limit=1', { key: a.bootstrap.liveKey })).status).toBe(200);
    // With the first replica's bootstrap.json in its data directory, it starts as that replica did.
    await b.stop();
    copyFileSync(join(a.dataDir, 'bootstrap.json'), join(b.dataDir, 'bootstrap.json'));
    const again = await replica(url, { dataDir: b.dataDir });
    expect(again.joined).toBeUndefined();
    expect(again.bootstrap.liveKey).toBe(a.bootstrap.liveKey);
    expect(await pgApiKeyIds(url)).toEqual(keysBefore);
  });

  it('an idempotency key sent to A, then to B, replays A\'s answer', async () => {
    const { all: [a, b] } = await replicas(2);
    const body = { url: 'http://localhost:9/hook', description: 'once' };
    const first = await a!.call('POST', '/v1/webhooks', { body, headers: { 'idempotency-key': 'replicated-key' } });
    expect(first.status, first.text).toBe(201);
    const second = await b!.call('POST', '/v1/webhooks', { body, headers: { 'idempotency-key': 'replicated-key' } });
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body.id).toBe(first.body.id);
    expect((await b!.call('GET', '/v1/webhooks')).body.data).toHaveLength(1);
  });

  it("a `wait` long poll on A is answered when B emits the event, well before its timeout", async () => {
    const { all: [a, b] } = await replicas(2);
    const head = await a!.call('GET', '/v1/events?limit=1');
    expect(head.status).toBe(200);
    const after = head.body.data[0]?.id ? `after=${head.body.data[0].id}` : 'after=now';
    const polled = a!.call('GET', `/v1/events?${after}&wait=25`);
    // Emitted a moment after the poll was sent: if the poll is held by then, only B's notification
    // can wake it; if not, its first read finds the event. Either way an answer with the event.
    await new Promise((r) => setTimeout(r, 300));
    const event = await emit(b!, 'message.status', { messageId: 'msg_elsewhere', status: 'delivered', reason: null });
    const answer = await polled;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.map((e: { id: string }) => e.id)).toContain(event.id);
  });

  it('`clock advance` through A moves B\'s clock and runs what falls due once: a message sent on B is delivered', async () => {
    const { all: [a, b] } = await replicas(2);
    const submitted = countSubmissions([a!, b!]);
    const sender = await liveNumber(b!);
    const sent = await b!.call('POST', '/v1/messages', { body: { to: '+14155550100', from: sender.phoneNumber, body: 'from B' } });
    expect(sent.status, sent.text).toBe(201);
    const advanced = await a!.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 60 } });
    expect(advanced.status, advanced.text).toBe(200);
    const aTime = Date.parse(String(advanced.headers[SERVICE_TIME_HEADER.toLowerCase()]));
    await until(async () => Date.parse(String((await b!.call('GET', '/v1/keys?limit=1')).headers[SERVICE_TIME_HEADER.toLowerCase()])) >= aTime, "B's clock reaches A's");
    expect(b!.now()).toBe(a!.now());
    const got = await b!.call('GET', `/v1/messages/${sent.body.id}`);
    expect(got.body.status).toBe('delivered');
    expect([...submitted.values()]).toEqual([1]);
    // Advancing through B now runs nothing that already ran.
    const again = await b!.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 60 } });
    expect(again.status).toBe(200);
    expect([...submitted.values()]).toEqual([1]);
  });

  it('`clock advance` through A answers once B follows: the very next request to B reads the new time', async () => {
    // Heartbeats a minute apart (the join notice counts B at once): at this file's 100 ms a loaded
    // machine can leave a beat late past its 300 ms window, A then counts itself alone and waits
    // for nobody. What is tested is the wait for B's answer, not the beat.
    const { all: [a, b] } = await replicas(2, { heartbeatMs: 60_000 });
    await until(() => counts(a!, 2), 'A counting B');
    // Several rounds: B reading the old time for the moment a notice takes would show in one of them.
    for (let round = 0; round < 5; round++) {
      const advanced = await a!.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 3600 } });
      expect(advanced.status, advanced.text).toBe(200);
      const onB = await b!.call('GET', '/v1/keys?limit=1');
      expect(Date.parse(String(onB.headers[SERVICE_TIME_HEADER.toLowerCase()])), `round ${round}`).toBe(Date.parse(advanced.body.now));
    }
  });

  it('a burst of live sends on one wallet through two replicas: exactly what the wallet covers is accepted, every other send a 402, none a 429', async () => {
    const { all: [a, b] } = await replicas(2);
    const sender = await liveNumber(a!);
    expect((await a!.call('PUT', '/v1/sandbox/wallet', { body: { balanceCents: 50 * PRICES.smsSegment } })).status).toBe(200);
    // Both replicas' pools (2 × 10 connections) write the one wallet row at once.
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? a! : b!).call('POST', '/v1/messages', { body: { to: '+14155550100', from: sender.phoneNumber, body: `burst ${i}` } })),
    );
    const byStatus = new Map<number, number>();
    for (const r of results) byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
    expect(Object.fromEntries(byStatus)).toEqual({ 201: 50, 402: 150 });
    expect((await b!.call('GET', '/v1/billing')).body.wallet.balanceCents).toBe(0);
  }, 180_000); // a hang bound: 200 sends on one row take 15-25 s at a load average of 10, far more at 20

  it('jobs run once when replicas drain at once: a burst of live sends through three replicas, each message submitted once and charged once', async () => {
    const { url, all } = await replicas(3, { clock: 'system' });
    const submitted = countSubmissions(all);
    const sender = await liveNumber(all[0]!);
    const ids: string[] = [];
    // One after another, alternating: the three replicas' schedulers drain the jobs meanwhile, all
    // at once. (Thirty sends at once on one account's wallet can exhaust a write's ten attempts at
    // SERIALIZABLE: a limit of the engine on one hot row, not of the claims.)
    for (let i = 0; i < 30; i++) {
      const via = all[i % all.length]!;
      const sent = await via.call('POST', '/v1/messages', { body: { to: '+14155550100', from: sender.phoneNumber, body: `burst ${i}` } });
      expect(sent.status, sent.text).toBe(201);
      ids.push(sent.body.id);
    }
    await until(async () => (await pgDeliveredCount(url, ids)) === ids.length, 'every message delivered', 60_000);
    expect([...submitted.keys()].sort()).toEqual([...ids].sort());
    expect([...submitted.values()].every((n) => n === 1)).toBe(true);
    const charges = await pgChargeCounts(url, ids);
    expect(charges).toHaveLength(ids.length);
    expect(charges.every((c) => c.n === 1)).toBe(true);
    expect(await pgRepeatedStatusEvents(url)).toEqual([]);
  });

  it('deliveries are attempted once per due attempt when two replicas send what is due at once', async () => {
    const rx = await startReceiver();
    try {
      const { all: [a, b] } = await replicas(2);
      expect((await a!.call('POST', '/v1/webhooks', { body: { url: rx.url } })).status).toBe(201);
      // Both workers stopped: the deliveries are written and wait, due.
      await a!.deps.webhooks.stop();
      await b!.deps.webhooks.stop();
      const events = [];
      for (let i = 0; i < 40; i++) events.push(await emit(i % 2 ? a! : b!, 'message.status', { messageId: `msg_${i}`, status: 'delivered', reason: null }));
      // Both start together: each sends every delivery due that it can claim.
      await Promise.all([a!.deps.webhooks.start(), b!.deps.webhooks.start()]);
      await Promise.all([a!.deps.webhooks.idle(), b!.deps.webhooks.idle()]);
      await rx.waitFor(events.length);
      await Promise.all([a!.flushWebhooks(), b!.flushWebhooks()]);
      const byEvent = new Map<string, number>();
      for (const r of rx.received) byEvent.set(r.body.id, (byEvent.get(r.body.id) ?? 0) + 1);
      expect(byEvent.size).toBe(events.length);
      expect([...byEvent.values()].every((n) => n === 1)).toBe(true);
    } finally {
      await rx.close();
    }
  });

  it('a replica killed (kill -9) mid-delivery: the other takes its claimed attempt over once the lease ran out; nothing lost, nothing doubled', async () => {
    let first = true;
    const rx: Receiver = await startReceiver(() => {
      if (!first) return { status: 200 };
      first = false;
      return { hang: true };
    });
    try {
      const url = server.url(await server.createDatabase());
      const dirA = dataDir();
      const a = await startChild(dirA, 'manual', { SVC_CHILD_STORE: url, SVC_CHILD_LEASE_MS: '2000', SVC_CHILD_ACK_MS: '1000' });
      children.push(a);
      const b = await replica(url, { claimLeaseMs: 2000, dataDir: (() => {
        const d = dataDir();
        copyFileSync(join(dirA, 'bootstrap.json'), join(d, 'bootstrap.json'));
        return d;
      })() });
      const agent = new Agent();
      try {
        const callA = client(a.baseUrl, a.liveKey, agent);
        const endpoint = await b.call('POST', '/v1/webhooks', { body: { url: rx.url } });
        expect(endpoint.status).toBe(201);
        // A test delivery made on A: A claims it and sends it; the receiver holds it; A dies.
        void callA('POST', `/v1/webhooks/${endpoint.body.id}/test`, {}).catch(() => undefined);
        await rx.waitFor(1);
        a.proc.kill('SIGKILL');
        await a.exited;
        // B finds the claim expired and sends it again; this time the receiver answers.
        await rx.waitFor(2, 30_000);
        await until(async () => (await b.call('GET', `/v1/webhooks/${endpoint.body.id}/deliveries`)).body.data[0]?.status === 'succeeded', 'the delivery recorded as succeeded');
        const deliveries = (await b.call('GET', `/v1/webhooks/${endpoint.body.id}/deliveries`)).body.data;
        expect(deliveries).toHaveLength(1);
        expect(deliveries[0]).toMatchObject({ status: 'succeeded', attempt: 1 });
        expect(rx.received).toHaveLength(2);
        expect(rx.received[1]!.body.id).toBe(rx.received[0]!.body.id);
      } finally {
        await agent.close();
      }
    } finally {
      await rx.close();
    }
  });

  it('a delivery its writer never claimed (the replica died after the commit, before its worker reached it) is attempted by another once due for a lease', async () => {
    const rx = await startReceiver();
    try {
      const { url, all: [a, b] } = await replicas(2, { clock: 'system', claimLeaseMs: 2000 });
      expect((await a!.call('POST', '/v1/webhooks', { body: { url: rx.url } })).status).toBe(201);
      // A's worker stopped: the event's delivery is committed on A and handed to no one, as when A
      // dies between the commit and the claim. B's worker runs and is not told of it.
      await a!.deps.webhooks.stop();
      const event = await emit(a!, 'message.status', { messageId: 'msg_orphan', status: 'delivered', reason: null });
      expect(await deliveryClaimOf(url, event.id)).toEqual({ claimed_by: null, attempt: 0 });
      await rx.waitFor(1, 30_000);
      expect(rx.received.map((r) => r.body.id)).toEqual([event.id]);
      await until(async () => (await deliveryStatusOf(url, event.id)) === 'succeeded', 'the delivery recorded by B');
      expect(b!.deps.webhooks.isRunning).toBe(true);
    } finally {
      await rx.close();
    }
  });

  it('the rate limit per key holds across replicas: a client alternating between two gets no more than the limit', async () => {
    const limit = { ratePerSec: 0.01, burst: 10 };
    const { all: [a, b] } = await replicas(2, { rateLimit: limit });
    // Each replica counts the other from its heartbeats, then enforces half the burst.
    await until(async () => (await a!.call('GET', '/v1/keys?limit=1')).headers['ratelimit-limit'] === '5' && (await b!.call('GET', '/v1/keys?limit=1')).headers['ratelimit-limit'] === '5', 'each replica enforcing its half');
    // Fresh buckets: a key of its own, made on A.
    const made = await a!.call('POST', '/v1/keys', { body: { name: 'alternating', mode: 'live' } });
    expect(made.status, made.text).toBe(201);
    let allowed = 0;
    for (let i = 0; i < 40; i++) {
      const via = i % 2 ? b! : a!;
      const r = await via.call('GET', '/v1/keys?limit=1', { key: made.body.key });
      if (r.status === 200) allowed++;
      else expect(r.status).toBe(429);
    }
    expect(allowed).toBeLessThanOrEqual(limit.burst);
    expect(allowed).toBeGreaterThan(0);
  });

  it("a change that is no event committed on A (a call's trace, a message's status) reaches B's live pages", async () => {
    const { all: [a, b] } = await replicas(2);
    await until(() => counts(a!, 2), 'A counting two');
    const heard = changesHeardBy(b!);
    const accountId = a!.bootstrap.accountId;
    await commitChangeWithoutEvent(a!, { accountId, kind: 'message', id: 'msg_elsewhere', status: 'sending' });
    await commitChangeWithoutEvent(a!, { accountId, kind: 'call', id: 'call_elsewhere' });
    await until(() => heard.length === 2, 'B hearing both changes');
    expect(heard).toEqual([
      { accountId, kind: 'message', id: 'msg_elsewhere', status: 'sending' },
      { accountId, kind: 'call', id: 'call_elsewhere' },
    ]);
  });

  it("`clock advance` through A waits for B's webhook attempt in flight (whose retry is scheduled from when it ended)", async () => {
    const { all: [a, b] } = await replicas(2, { clock: 'system' });
    await until(async () => (await counts(a!, 2)) && (await counts(b!, 2)), 'each replica counting two');
    // B's attempt is held by the receiver until released; A's advance must not start before it ends.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let answered = false;
    const rx = http.createServer((req, res) => {
      req.resume();
      void held.then(() => res.writeHead(500).end());
    });
    await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/hook`;
      await createEndpoint(b!, { url });
      const inFlight = new Promise<void>((r) => rx.once('request', () => r()));
      await emit(b!, 'message.status', { messageId: 'm', status: 'sent', reason: null });
      await inFlight;
      const advanced = a!.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 60 } }).then((r) => ((answered = true), r));
      await new Promise((r) => setTimeout(r, 300)); // not a wait for a condition: the advance must still be waiting after it
      expect(answered).toBe(false);
      release();
      expect((await advanced).status).toBe(200);
    } finally {
      release();
      await new Promise<void>((r) => rx.close(() => r()));
    }
  });

  it("the payment provider's fail-next armed through A fails the next charge, made by B, once", async () => {
    const { all: [a, b] } = await replicas(2);
    expect((await b!.call('PUT', '/v1/billing/card', { body: { token: SANDBOX_CARD_TOKEN } })).status).toBe(200);
    expect((await a!.call('POST', '/v1/sandbox/payments/fail-next')).status).toBe(204);
    const failed = await b!.call('POST', '/v1/billing/wallet/top-up', { body: { amountCents: 700 } });
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body.error.code).toBe('provider_error');
    // Once: the next charge, through either replica, goes through.
    expect((await a!.call('POST', '/v1/billing/wallet/top-up', { body: { amountCents: 700 } })).status).toBe(200);
  });

  it('a replica that joins is counted by the others at once, not at their next heartbeat; one that leaves, too', async () => {
    // Heartbeats a minute apart: only the join and leave notices can move the counts within the test.
    const { all: [a, b] } = await replicas(2, { heartbeatMs: 60_000 });
    await until(async () => (await counts(a!, 2)) && (await counts(b!, 2)), 'each replica counting two');
    expect((await a!.call('GET', '/v1/keys?limit=1')).headers['ratelimit-limit']).toBe(String(Math.floor(UNLIMITED.burst / 2)));
    await b!.stop();
    await until(() => counts(a!, 1), 'A counting itself alone once B stopped');
  });

  it('the refused-credentials limit holds across replicas too', async () => {
    const limit = { ratePerSec: 0.01, burst: 10 };
    const { all: [a, b] } = await replicas(2, { unauthenticatedRate: limit });
    await until(async () => (await a!.call('GET', '/v1/keys?limit=1')).headers['ratelimit-limit'] !== undefined && (await b!.call('GET', '/v1/keys?limit=1')).status === 200, 'both up');
    await until(async () => (await counts(a!, 2)) && (await counts(b!, 2)), 'each replica counting two');
    let refused401 = 0;
    for (let i = 0; i < 40; i++) {
      const via = i % 2 ? b! : a!;
      const r = await via.call('GET', '/v1/keys', { key: 'sk_live_not_a_real_key_0000000000000000' });
      if (r.status === 401) refused401++;
      else expect(r.status).toBe(429);
    }
    expect(refused401).toBeLessThanOrEqual(limit.burst);
    expect(refused401).toBeGreaterThan(0);
  });
});
