// Credentials never reach server.log nor are taken from a URL; a test key
// cannot mint a live key; only the root account moves the shared sandbox clock or breaks payments;
// refused credentials are rate limited per client address without touching a good key's bucket.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONE_REPLICA, startTestService, type TestService } from './helpers/service.js';
import { itOnOneReplica } from './helpers/engines.js';
import { assertBuilt, runSvc, runSvcProcess } from './helpers/cli.js';
import { UNAUTHENTICATED_RATE } from '../src/api/values/http.js';
import { redactHeaders, redactUrl, scrubSecrets } from '../src/server/http/log-redaction.js';

type Res = Awaited<ReturnType<TestService['call']>>;

function expectEnvelope(res: Res, status: number, code: string): { code: string; message: string } {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['request-id']).toMatch(/^req_/);
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  return res.body.error;
}

const base62 = (n: number) => Array.from({ length: n }, (_, i) => 'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zC'[i % 32]).join('');

describe('credentials in URLs and headers never reach server.log', () => {
  beforeAll(() => assertBuilt());

  it('logs every request with the secret parts redacted, wherever the client put them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-redact-'));
    const env = { SVC_DATA_DIR: dataDir };
    try {
      const started = await runSvcProcess(['server', 'start', '--detach', '--port', '0', '--clock', 'manual'], { env });
      expect(started.code, started.stderr).toBe(0);
      const baseUrl = started.stdout.trim();
      expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const boot = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as { liveKey: string; testKey: string };
      const whsec = `whsec_${base62(32)}`;
      const plainSecret = `plain${base62(20)}`;
      const auth = { authorization: `Bearer ${boot.liveKey}` };
      const send = async (path: string, headers: Record<string, string> = {}) => {
        const res = await request(`${baseUrl}${path}`, { method: 'GET', headers });
        const text = await res.body.text();
        return { status: res.statusCode, body: JSON.parse(text), headers: res.headers };
      };

      // In the query, without a header: refused, and told where the key belongs.
      const inQuery = await send(`/v1/keys?api_key=${boot.liveKey}`);
      expect(inQuery.status).toBe(401);
      expect(inQuery.body.error.code).toBe('unauthorized');
      expect(inQuery.body.error.message).toContain('Authorization header');
      expect((await send(`/v1/keys?key=${boot.testKey}`)).body.error.message).toContain('not accepted in the URL');
      // In the query beside a good header, percent-encoded, under a credential name, in the path, in headers.
      await send(`/v1/keys?limit=5&access_token=${boot.testKey}`, auth);
      await send(`/v1/keys?q=${encodeURIComponent(boot.liveKey).replace(/_/g, '%5F')}`, auth);
      await send(`/v1/keys?token=${plainSecret}`, auth);
      expect((await send(`/v1/messages/${whsec}`, auth)).status).toBe(404);
      expect((await send(`/v1/messages/${boot.testKey}`, auth)).status).toBe(404);
      expect((await send('/v1/keys', { ...auth, 'x-debug-trace': `forwarded ${boot.testKey}`, 'x-api-key': plainSecret, 'x-hook': whsec })).status).toBe(200);
      // A bad key in the header is redacted too.
      expect((await send('/v1/keys', { authorization: `Bearer sk_live_${base62(32)}` })).status).toBe(401);

      const stopped = await runSvcProcess(['server', 'stop'], { env });
      expect(stopped.code, stopped.stderr).toBe(0);

      const log = readFileSync(join(dataDir, 'server.log'), 'utf8');
      const lines = log
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string; req?: { url: string; headers: Record<string, string> } });
      const incoming = lines.filter((l) => l.req);
      expect(incoming.length).toBeGreaterThanOrEqual(9);
      for (const secret of [boot.liveKey, boot.testKey, whsec, plainSecret, boot.liveKey.slice(8), boot.testKey.slice(8), whsec.slice(6)]) {
        expect(log).not.toContain(secret);
      }
      const urls = incoming.map((l) => l.req!.url);
      // The requests are still there, each recognisable, with the secret part replaced.
      expect(urls).toContain('/v1/keys?api_key=[redacted]');
      expect(urls).toContain('/v1/keys?key=[redacted]');
      expect(urls).toContain('/v1/keys?limit=5&access_token=[redacted]');
      expect(urls).toContain('/v1/keys?q=sk_live_[redacted]');
      expect(urls).toContain('/v1/keys?token=[redacted]');
      expect(urls).toContain('/v1/messages/whsec_[redacted]');
      expect(urls).toContain('/v1/messages/sk_test_[redacted]');
      const withHeaders = incoming.find((l) => l.req!.headers['x-debug-trace']);
      expect(withHeaders?.req!.headers).toMatchObject({ 'x-debug-trace': 'forwarded sk_test_[redacted]', 'x-api-key': '[redacted]', 'x-hook': 'whsec_[redacted]', authorization: 'Bearer [redacted]' });
    } finally {
      await runSvcProcess(['server', 'stop'], { env }).catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('redacts every encoding and place of a key (the serializers, directly)', () => {
    const key = `sk_live_${base62(32)}`;
    expect(redactUrl(`/a/${key}/b?x=1`)).toBe('/a/sk_live_[redacted]/b?x=1');
    // Encoded twice to slip past a filter.
    expect(redactUrl(`/a?x=${encodeURIComponent(encodeURIComponent(key).replace(/_/g, '%5F'))}`)).toBe('/a?x=sk_live_[redacted]');
    expect(redactUrl(`/a?${key}`)).toBe('/a?sk_live_[redacted]');
    expect(redactUrl('/a?password=hunter2&limit=3')).toBe('/a?password=[redacted]&limit=3');
    expect(redactUrl('/v1/messages?limit=3&to=%2B14155550100')).toBe('/v1/messages?limit=3&to=%2B14155550100');
    expect(redactHeaders({ cookie: 'sid=1', 'user-agent': 'curl', 'x-a': [key, 'ok'] })).toEqual({ cookie: '[redacted]', 'user-agent': 'curl', 'x-a': ['sk_live_[redacted]', 'ok'] });
    expect(scrubSecrets(`error near SK_TEST_${base62(32)} and whsec_${base62(32)}`)).toBe('error near SK_TEST_[redacted] and whsec_[redacted]');
  });
});

describe('privilege', () => {
  let svc: TestService;
  let testKey: string;
  beforeAll(async () => {
    svc = await startTestService();
    testKey = svc.bootstrap.testKey;
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('refuses a live key to a test key (403), and still lets it create test keys', async () => {
    const before = (await svc.call('GET', '/v1/keys?limit=100')).body.data.length;
    const refused = expectEnvelope(await svc.call('POST', '/v1/keys', { key: testKey, body: { name: 'escalate', mode: 'live' } }), 403, 'forbidden');
    expect(refused.message).toContain('test key can create test keys only');
    // The default mode is live: a test key that names none is refused the same way.
    expectEnvelope(await svc.call('POST', '/v1/keys', { key: testKey, body: { name: 'escalate' } }), 403, 'forbidden');
    const list = (await svc.call('GET', '/v1/keys?limit=100')).body.data as Array<{ name: string }>;
    expect(list.length).toBe(before);
    expect(list.map((k) => k.name)).not.toContain('escalate');

    const test = await svc.call('POST', '/v1/keys', { key: testKey, body: { name: 'ci', mode: 'test' } });
    expect(test.status).toBe(201);
    expect(test.body.key).toMatch(/^sk_test_/);
    const live = await svc.call('POST', '/v1/keys', { body: { name: 'prod', mode: 'live' } });
    expect(live.status).toBe(201);
    expect(live.body.key).toMatch(/^sk_live_/);
  });

  it('svc keys create --mode live with a test key shows the error and exits 3 (cli.md: forbidden)', async () => {
    const res = await runSvc(['keys', 'create', '--name', 'escalate', '--mode', 'live'], { service: svc, key: testKey });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('error: forbidden: a test key can create test keys only');
    expect(res.stdout).toBe('');
    const ok = await runSvc(['keys', 'create', '--name', 'fine', '--mode', 'test', '-o', 'json'], { service: svc, key: testKey });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).key).toMatch(/^sk_test_/);
  });

  it('lets only the root account advance the shared clock or arm a payment failure', async () => {
    const child = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Tenant' } });
    expect(child.status).toBe(201);
    const viaChild = { 'service-subaccount': child.body.id };
    const childKey = await svc.call('POST', '/v1/keys', { body: { name: 'tenant key' }, headers: viaChild });
    expect(childKey.status).toBe(201);
    const clockBefore = (await svc.call('GET', '/v1/sandbox/clock')).body.now;

    for (const attempt of [{ key: childKey.body.key as string }, { headers: viaChild }, { key: testKey, headers: viaChild }]) {
      const advance = expectEnvelope(await svc.call('POST', '/v1/sandbox/clock/advance', { ...attempt, body: { seconds: 3600 } }), 403, 'forbidden');
      expect(advance.message).toContain('only the root account of the local service');
      const fail = expectEnvelope(await svc.call('POST', '/v1/sandbox/payments/fail-next', attempt), 403, 'forbidden');
      expect(fail.message).toContain('every account');
    }
    // Nothing moved: the clock reads as before for every key.
    expect((await svc.call('GET', '/v1/sandbox/clock', { key: childKey.body.key })).body.now).toBe(clockBefore);
    // A sub-account still reads the clock and acts on its own sandbox.
    expect((await svc.call('PUT', '/v1/sandbox/wallet', { key: childKey.body.key, body: { balanceCents: 500 } })).status).toBe(200);

    // The root account, with its live key (a test key moves no money, and an advance runs
    // every account's renewals; test/test-key-rules.test.ts).
    const moved = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 60 } });
    expect(moved.status).toBe(200);
    expect(Date.parse(moved.body.now) - Date.parse(clockBefore)).toBe(60_000);
    expectEnvelope(await svc.call('POST', '/v1/sandbox/clock/advance', { key: testKey, body: { seconds: 1 } }), 403, 'forbidden');
    expect((await svc.call('POST', '/v1/sandbox/payments/fail-next')).status).toBe(204);
  });

  it('svc clock advance: refused with a sub-account key (exit 3), done as the root in a sub-account context', async () => {
    const child = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Tenant CLI' } });
    const childKey = (await svc.call('POST', '/v1/keys', { body: { name: 'tenant cli key' }, headers: { 'service-subaccount': child.body.id } })).body.key as string;
    const before = Date.parse((await svc.call('GET', '/v1/sandbox/clock')).body.now);
    const refused = await runSvc(['clock', 'advance', '1h'], { service: svc, key: childKey });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('error: forbidden: this sandbox act changes the service for every account');
    expect(Date.parse((await svc.call('GET', '/v1/sandbox/clock')).body.now)).toBe(before);
    // The agency's (root) key in a sub-account context: the clock belongs to no one account, so the
    // CLI sends the act without Service-Subaccount and it is the root's to do.
    const done = await runSvc(['clock', 'advance', '1h'], { service: svc, env: { SVC_SUBACCOUNT: child.body.id } });
    expect(done.code, done.stderr).toBe(0);
    expect(Date.parse((await svc.call('GET', '/v1/sandbox/clock')).body.now) - before).toBe(3_600_000);
  });

  it("a sandbox DNS name in another account's registered domain is that account's to change (403); reading stays open", async () => {
    const owner = await svc.call('POST', '/v1/subaccounts', { body: { name: 'zone owner' } });
    const other = await svc.call('POST', '/v1/subaccounts', { body: { name: 'neighbour' } });
    expect([owner.status, other.status]).toEqual([201, 201]);
    const as = (id: string) => ({ 'service-subaccount': id });
    const added = await svc.call('POST', '/v1/domains', { body: { domain: 'zone-owner-14.example' }, headers: as(owner.body.id) });
    expect(added.status).toBe(201);
    const txt = { records: [{ type: 'TXT', value: 'v=spf1 -all' }] };
    // The owner publishes in its zone (and below it); the neighbour may not, nor remove it.
    expect((await svc.call('PUT', '/v1/sandbox/dns/send.zone-owner-14.example', { body: txt, headers: as(owner.body.id) })).status).toBe(200);
    const refused = expectEnvelope(await svc.call('PUT', '/v1/sandbox/dns/send.zone-owner-14.example', { body: { records: [{ type: 'TXT', value: 'v=spf1 +all' }] }, headers: as(other.body.id) }), 403, 'forbidden');
    expect(refused.message).toContain('another account');
    expectEnvelope(await svc.call('DELETE', '/v1/sandbox/dns/_dmarc.zone-owner-14.example', { headers: as(other.body.id) }), 403, 'forbidden');
    expectEnvelope(await svc.call('DELETE', '/v1/sandbox/dns/send.zone-owner-14.example', { headers: as(other.body.id) }), 403, 'forbidden');
    const read = await svc.call('GET', '/v1/sandbox/dns/send.zone-owner-14.example', { headers: as(other.body.id) });
    expect(read.status).toBe(200);
    expect(read.body.records).toEqual([expect.objectContaining({ type: 'TXT', value: 'v=spf1 -all' })]);
    // A name no account registered is anyone's.
    expect((await svc.call('PUT', '/v1/sandbox/dns/unclaimed-14.example', { body: txt, headers: as(other.body.id) })).status).toBe(200);
  });

  it('documents the root-only rule on both operations', async () => {
    const doc = (await svc.call('GET', '/openapi.json', { key: null })).body;
    expect(doc.paths['/v1/sandbox/clock/advance'].post.description).toMatch(/only the root account/i);
    expect(doc.paths['/v1/sandbox/payments/fail-next'].post.description).toMatch(/only the root account/i);
    expect(doc.info.description).toContain(`${UNAUTHENTICATED_RATE.burst} in a burst`);
  });
});

describe('refused credentials are rate limited per client address', () => {
  let svc: TestService;
  // The default burst, refilled a token every 5 s instead of 5 a second: a loaded CI machine must not
  // earn a token back between the 429 and the checks after it (it did, answering 401).
  const RATE = { burst: UNAUTHENTICATED_RATE.burst, ratePerSec: 0.2 };
  beforeAll(async () => {
    // One replica even in the replicas pass (SINGLE_REPLICA_TESTS says why).
    svc = await startTestService({ ...ONE_REPLICA, unauthenticatedRate: RATE });
  });
  afterAll(async () => {
    await svc?.stop();
  });

  itOnOneReplica('answers 429 with Retry-After once an address used its bucket, while a good key on it is served', () => svc, async () => {
    const bad = `sk_live_${base62(32)}`;
    const statuses: number[] = [];
    let limited: Res | undefined;
    // Twice the burst: the bucket must run dry.
    for (let i = 0; i < RATE.burst * 2; i++) {
      const res = await svc.call('GET', '/v1/keys', { key: i % 3 === 0 ? null : bad });
      statuses.push(res.status);
      if (res.status === 429) {
        limited = res;
        break;
      }
      // A good key on the same address between the bad ones: its own bucket, always served.
      if (i % 10 === 0) expect((await svc.call('GET', '/v1/keys')).status).toBe(200);
    }
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(RATE.burst);
    expect(limited, `statuses: ${statuses.join(',')}`).toBeDefined();
    const err = expectEnvelope(limited!, 429, 'rate_limited');
    expect(err.message).toMatch(/retry after \d+s/);
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // Limited now: a bad key, no key, a key in the URL. The good key still gets through.
    expectEnvelope(await svc.call('GET', '/v1/keys', { key: bad }), 429, 'rate_limited');
    expectEnvelope(await svc.call('GET', '/v1/keys', { key: null }), 429, 'rate_limited');
    const good = await svc.call('GET', '/v1/keys');
    expect(good.status).toBe(200);
    expect(good.headers['ratelimit-limit']).toBeDefined();
    // Public routes take no credentials and are not counted here.
    expect((await svc.call('GET', '/healthz', { key: null })).status).toBe(200);
  });
});
