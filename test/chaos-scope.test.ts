// contract §9: chaos acts on the account whose key set it (an agency's on its sub-accounts too) and
// on nothing else; only the root account's live key sets a service-wide profile; the log shows a
// caller only its own account's entries; the profiles are stored, so every process on a shared
// database applies them (SVC_TEST_REPLICAS=2: the requests alternate between two replicas on one
// PostgreSQL database; the worker test adds a worker process beside API-only processes).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, UNLIMITED, type TestService } from './helpers/service.js';
import { until } from './helpers/started-service.js';
import { liveNumber } from './messages-fixtures.js';
import { verifiedDomain } from './helpers/email-fixtures.js';
import { startService, type RunningService } from '../src/server/main.js';
import type { ChaosProfile } from '../src/api/values/chaos.js';

const OFF: ChaosProfile = { seed: 0, faults: {} };
const FAIL_ALL: ChaosProfile = { seed: 1, faults: { 'api.502': { rate: 1 } } };
const SERVICE = '/v1/sandbox/chaos?scope=service';

/** Counts the deliveries a loopback receiver gets. */
async function receiver(): Promise<{ server: Server; url: string; received: string[] }> {
  const received: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(req.url ?? '');
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received };
}

describe('chaos scoped to accounts', () => {
  let svc: TestService;
  let hook: Awaited<ReturnType<typeof receiver>>;
  /** Sub-accounts B and C of the agency (the root account), and their keys. */
  let b: string;
  let c: string;
  const keys = { bTest: '', bLive: '', cLive: '', agencyTest: '' };

  beforeAll(async () => {
    hook = await receiver();
    svc = await startTestService();
    const sub = async (name: string) => {
      const r = await svc.call('POST', '/v1/subaccounts', { body: { name } });
      expect(r.status, r.text).toBe(201);
      return r.body.id as string;
    };
    const key = async (mode: 'live' | 'test', subaccount?: string) => {
      const r = await svc.call('POST', '/v1/keys', { body: { name: `${mode} key`, mode }, headers: subaccount ? { 'service-subaccount': subaccount } : {} });
      expect(r.status, r.text).toBe(201);
      return r.body.key as string;
    };
    b = await sub('tenant B');
    c = await sub('sibling C');
    keys.bTest = await key('test', b);
    keys.bLive = await key('live', b);
    keys.cLive = await key('live', c);
    keys.agencyTest = svc.bootstrap.testKey;
  }, 120_000);

  afterAll(async () => {
    await svc?.stop();
    hook?.server.close();
  });

  /** Every chaos profile off, set with the keys that may. */
  const allOff = async () => {
    for (const key of [undefined, keys.bLive, keys.cLive]) expect((await svc.call('PUT', '/v1/sandbox/chaos', { body: OFF, key })).status).toBe(200);
    expect((await svc.call('PUT', SERVICE, { body: OFF })).status).toBe(200);
  };
  /** A plain read as each caller makes it: the agency, the agency acting as B or C, B's and C's own keys. */
  const statuses = async () => ({
    agency: (await svc.call('GET', '/v1/messages')).status,
    agencyAsB: (await svc.call('GET', '/v1/messages', { headers: { 'service-subaccount': b } })).status,
    agencyAsC: (await svc.call('GET', '/v1/messages', { headers: { 'service-subaccount': c } })).status,
    b: (await svc.call('GET', '/v1/messages', { key: keys.bLive })).status,
    bTest: (await svc.call('GET', '/v1/messages', { key: keys.bTest })).status,
    c: (await svc.call('GET', '/v1/messages', { key: keys.cLive })).status,
  });
  /**
   * A caller's log, as every process keeps its own (the log stays in memory where the fault was
   * injected): asked once per replica, as the proxy hands each request to the next one.
   */
  const logOf = async (key?: string, headers?: Record<string, string>) => {
    const all: unknown[] = [];
    for (let i = 0; i < svc.replicas.length; i++) {
      const r = await svc.call('GET', '/v1/sandbox/chaos/log', { key, headers });
      expect(r.status).toBe(200);
      all.push(...r.body.data);
    }
    return all as Array<{ kind: string; id: string; detail: Record<string, unknown> }>;
  };

  it("a sub-account's test key sets faults on its own account only: the agency and a sibling are untouched", async () => {
    await allOff();
    const set = await svc.call('PUT', '/v1/sandbox/chaos', { body: FAIL_ALL, key: keys.bTest });
    expect(set.status, set.text).toBe(200);
    // Asked twice each: with replicas, the second lands on the other process.
    for (let i = 0; i < 2; i++) expect(await statuses()).toEqual({ agency: 200, agencyAsB: 502, agencyAsC: 200, b: 502, bTest: 502, c: 200 });
    // B reads its own profile; the agency's own and the service-wide one are unchanged.
    expect((await svc.call('GET', '/v1/sandbox/chaos', { key: keys.bLive })).body).toEqual(FAIL_ALL);
    expect((await svc.call('GET', '/v1/sandbox/chaos')).body).toEqual(OFF);
    expect((await svc.call('GET', SERVICE)).body).toEqual(OFF);
    await allOff();
    expect(await statuses()).toEqual({ agency: 200, agencyAsB: 200, agencyAsC: 200, b: 200, bTest: 200, c: 200 });
  });

  it("an agency's profile acts on its sub-accounts; a sub-account's own profile goes first", async () => {
    await allOff();
    expect((await svc.call('PUT', '/v1/sandbox/chaos', { body: FAIL_ALL, key: keys.agencyTest })).status).toBe(200);
    expect(await statuses()).toEqual({ agency: 502, agencyAsB: 502, agencyAsC: 502, b: 502, bTest: 502, c: 502 });
    expect((await svc.call('PUT', '/v1/sandbox/chaos', { body: { seed: 1, faults: { 'api.429': { rate: 1 } } }, key: keys.bLive })).status).toBe(200);
    expect(await statuses()).toEqual({ agency: 502, agencyAsB: 429, agencyAsC: 502, b: 429, bTest: 429, c: 502 });
    await allOff();
  });

  it("the service-wide profile is the root account's live key's alone (403 to a test key, a sub-account, the agency acting as one), and applies to all", async () => {
    await allOff();
    const refusals = [
      await svc.call('PUT', SERVICE, { body: FAIL_ALL, key: keys.agencyTest }),
      await svc.call('PUT', SERVICE, { body: FAIL_ALL, key: keys.bLive }),
      await svc.call('PUT', SERVICE, { body: FAIL_ALL, key: keys.bTest }),
      await svc.call('PUT', SERVICE, { body: FAIL_ALL, headers: { 'service-subaccount': b } }),
    ];
    for (const r of refusals) {
      expect(r.status, r.text).toBe(403);
      expect(r.body.error.code).toBe('forbidden');
    }
    expect((await svc.call('GET', SERVICE)).body).toEqual(OFF);
    expect(await statuses()).toEqual({ agency: 200, agencyAsB: 200, agencyAsC: 200, b: 200, bTest: 200, c: 200 });
    expect((await svc.call('PUT', SERVICE, { body: FAIL_ALL })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect(await statuses()).toEqual({ agency: 502, agencyAsB: 502, agencyAsC: 502, b: 502, bTest: 502, c: 502 });
    expect((await svc.call('GET', SERVICE, { key: keys.bLive })).body).toEqual(FAIL_ALL);
    await allOff();
  });

  it("the log shows a caller its own account's faults only: never the agency's message text, email recipient and subject, webhook URL", async () => {
    await allOff();
    const number = await liveNumber(svc);
    await verifiedDomain(svc, 'mail.chaos-scope.example');
    const endpoint = await svc.call('POST', '/v1/webhooks', { body: { url: `${hook.url}/agency-hook-7f3a`, events: ['message.*'] } });
    expect(endpoint.status, endpoint.text).toBe(201);
    const profile: ChaosProfile = { seed: 3, faults: { 'carrier.late': { rate: 1, delayMs: 1000 }, 'mail.late': { rate: 1, delaySecs: 60 }, 'webhook.duplicate': { rate: 1 } } };
    expect((await svc.call('PUT', SERVICE, { body: profile })).status).toBe(200);
    const sms = await svc.call('POST', '/v1/messages', { body: { from: number.phoneNumber, to: '+14155550123', body: 'Your one-time login code is 559120' } });
    expect(sms.status, sms.text).toBe(201);
    const email = await svc.call('POST', '/v1/emails', { body: { from: 'Shop <hello@mail.chaos-scope.example>', to: 'otp-recipient@example.net', subject: 'Agency secret subject 42', text: 'Hi' } });
    expect(email.status, email.text).toBe(201);
    await svc.advanceJobs(5);
    await svc.advanceJobs(120);
    const secrets = ['559120', 'otp-recipient', 'Agency secret subject', 'agency-hook-7f3a'];
    // The agency's own log has every one of them (the faults were injected and logged)…
    const agencyLog = await until('the agency\'s faults logged', async () => {
      await svc.flushWebhooks();
      const log = await logOf();
      const text = JSON.stringify(log);
      return secrets.every((s) => text.includes(s)) ? log : undefined;
    });
    expect([...new Set(agencyLog.map((e) => e.kind))]).toEqual(expect.arrayContaining(['carrier.late', 'mail.late', 'webhook.duplicate']));
    // …and no other account's log has any (B's has its own 502s of the tests above, and only those).
    for (const [who, key, headers] of [['B', keys.bLive], ['B test key', keys.bTest], ['C', keys.cLive], ['agency as B', undefined, { 'service-subaccount': b }]] as const) {
      const log = await logOf(key, headers);
      for (const s of secrets) expect(JSON.stringify(log), `${who}'s log`).not.toContain(s);
      expect(log.every((e) => e.kind === 'api.502' || e.kind === 'api.429'), `${who}'s log`).toBe(true);
    }
    await allOff();
  }, 60_000);
});

describe('chaos across processes on one database', () => {
  let api: TestService;
  let worker: RunningService;

  beforeAll(async () => {
    // API-only processes (two replicas on PostgreSQL with SVC_TEST_REPLICAS=2) and a worker process
    // beside them: the worker alone hands messages to the carrier.
    api = await startTestService({ role: 'api' });
    worker = await startService({ host: '127.0.0.1', port: 0, dataDir: api.dataDir, clock: 'manual', role: 'worker', rateLimit: UNLIMITED, unauthenticatedRate: UNLIMITED, guardOutsideCalls: true, ...(api.storeUrl ? { store: api.storeUrl } : {}) });
  }, 120_000);

  afterAll(async () => {
    await worker?.close();
    await api?.stop();
  });

  it('a profile set through an API process reaches the worker: its carrier fails the live message', async () => {
    const number = await liveNumber(api);
    const set = await api.call('PUT', '/v1/sandbox/chaos', { body: { seed: 5, faults: { 'carrier.failed': { rate: 1, reason: 'chaos reached the worker' } } } });
    expect(set.status, set.text).toBe(200);
    // An advance is run by the worker, in a look at the database that begins after the PUT committed
    // (SQLite; on PostgreSQL the PUT answered once every process had read it): it applies the profile from then on.
    expect((await api.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 1 } })).status).toBe(200);
    const sent = await api.call('POST', '/v1/messages', { body: { from: number.phoneNumber, to: '+14155550123', body: 'hello from the api process' } });
    expect(sent.status, sent.text).toBe(201);
    const message = await until('the message ends', async () => {
      const advanced = await api.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 5 } });
      expect(advanced.status, advanced.text).toBe(200);
      const m = (await api.call('GET', `/v1/messages/${sent.body.id}`)).body;
      return ['failed', 'delivered', 'undelivered'].includes(m.status) ? m : undefined;
    });
    expect(message.status).toBe('failed');
    expect(JSON.stringify(message)).toContain('chaos reached the worker');
  }, 60_000);
});
