// contract §2: "A test key may read everything, but may change or delete
// only what a test key created: a live key, a number bought with a live key, an endpoint created
// with a live key (its secret included), and every service-wide sandbox act (clock, wallet,
// payments) are `403 forbidden` to it. Idempotency keys are scoped by mode as well."
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { runSvc } from './helpers/cli.js';
import { emit } from './webhooks-receiver.js';
import { GOOD_CAMPAIGN, mockBrand } from './registration-fixtures.js';

type Res = Awaited<ReturnType<TestService['call']>>;

const RULE = 'a test key cannot change what a live key created';

let svc: TestService;
let testKey: string;
beforeAll(async () => {
  svc = await startTestService();
  testKey = svc.bootstrap.testKey;
});
afterAll(async () => {
  await svc?.stop();
});

function expectForbidden(res: Res, words: string): void {
  expect(res.status, res.text).toBe(403);
  expect(res.body.error.code).toBe('forbidden');
  expect(res.body.error.message).toContain(words);
}

async function buyNumber(key: string, areaCode: string): Promise<{ id: string; phoneNumber: string }> {
  const found = await svc.call('POST', '/v1/numbers/search', { key, body: { areaCode, limit: 1 } });
  expect(found.status, found.text).toBe(200);
  const bought = await svc.call('POST', '/v1/numbers/buy', { key, body: { phoneNumber: found.body.data[0].phoneNumber } });
  expect(bought.status, bought.text).toBe(201);
  return bought.body;
}

const ledgerRows = async () => (await svc.call('GET', '/v1/billing')).body;

describe('a test key moves no money: service-wide sandbox acts need a live key of the root account', () => {
  it('refuses the clock advance, the sandbox wallet and fail-next to the root account’s test key; nothing moves', async () => {
    const clockBefore = (await svc.call('GET', '/v1/sandbox/clock')).body.now;
    const billingBefore = await ledgerRows();

    expectForbidden(await svc.call('POST', '/v1/sandbox/clock/advance', { key: testKey, body: { seconds: 30 * 86_400 } }), 'test keys move no money');
    expectForbidden(await svc.call('PUT', '/v1/sandbox/wallet', { key: testKey, body: { balanceCents: 5 } }), 'test keys move no money');
    expectForbidden(await svc.call('POST', '/v1/sandbox/payments/fail-next', { key: testKey }), 'test keys move no money');

    expect((await svc.call('GET', '/v1/sandbox/clock', { key: testKey })).body.now).toBe(clockBefore);
    expect(await ledgerRows()).toEqual(billingBefore);
    // The next card charge was not armed to fail: a live top-up with a card goes through.
    expect((await svc.call('PUT', '/v1/billing/card', { body: { token: 'tok_visa' } })).status).toBe(200);
    expect((await svc.call('POST', '/v1/billing/wallet/top-up', { body: { amountCents: 500 } })).status).toBe(200);

    // The root account's live key still does all three.
    expect((await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 1 } })).status).toBe(200);
    expect((await svc.call('PUT', '/v1/sandbox/wallet', { body: { balanceCents: 5000 } })).status).toBe(200);
    expect((await svc.call('POST', '/v1/sandbox/payments/fail-next')).status).toBe(204);
    // Disarm it for the other tests: the failing charge happens once.
    expect((await svc.call('POST', '/v1/billing/wallet/top-up', { body: { amountCents: 500 } })).status).toBe(502);
  });

  it('says so in the OpenAPI descriptions', async () => {
    const doc = (await svc.call('GET', '/openapi.json', { key: null })).body;
    for (const [path, method] of [['/v1/sandbox/clock/advance', 'post'], ['/v1/sandbox/payments/fail-next', 'post'], ['/v1/sandbox/wallet', 'put']] as const) {
      expect(doc.paths[path][method].description, `${method} ${path}`).toMatch(/live key/);
    }
  });
});

describe('a test key changes only what a test key created', () => {
  it('cannot revoke a live key (the account would be locked out of live work); revokes test keys', async () => {
    const live = await svc.call('POST', '/v1/keys', { body: { name: 'prod', mode: 'live' } });
    expect(live.status).toBe(201);
    expectForbidden(await svc.call('DELETE', `/v1/keys/${live.body.id}`, { key: testKey }), RULE);
    // The bootstrap live key too; both still work.
    const keys = (await svc.call('GET', '/v1/keys?limit=100', { key: testKey })).body.data as Array<{ id: string; mode: string; revokedAt: string | null }>;
    const bootstrapLive = keys.find((k) => k.mode === 'live' && k.id !== live.body.id)!;
    expectForbidden(await svc.call('DELETE', `/v1/keys/${bootstrapLive.id}`, { key: testKey }), RULE);
    expect((await svc.call('GET', '/v1/keys?limit=1', { key: live.body.key })).status).toBe(200);
    expect((await svc.call('GET', '/v1/keys?limit=1')).status).toBe(200);

    const ci = await svc.call('POST', '/v1/keys', { key: testKey, body: { name: 'ci', mode: 'test' } });
    expect((await svc.call('DELETE', `/v1/keys/${ci.body.id}`, { key: testKey })).status).toBe(204);
    expect((await svc.call('GET', '/v1/keys?limit=1', { key: ci.body.key })).status).toBe(401);
  });

  it('svc keys revoke with a test key names the rule and exits 3 (forbidden)', async () => {
    const live = await svc.call('POST', '/v1/keys', { body: { name: 'prod-cli', mode: 'live' } });
    const res = await runSvc(['keys', 'revoke', live.body.id, '--yes'], { service: svc, key: testKey });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(`error: forbidden: ${RULE}`);
    expect((await svc.call('GET', '/v1/keys?limit=1', { key: live.body.key })).status).toBe(200);
  });

  it('cannot release, change or route a number bought with a live key; can its own', async () => {
    const live = await buyNumber(svc.bootstrap.liveKey, '415');
    const before = (await svc.call('GET', `/v1/numbers/${live.id}`)).body;
    expectForbidden(await svc.call('POST', `/v1/numbers/${live.id}/release`, { key: testKey }), RULE);
    expectForbidden(await svc.call('PATCH', `/v1/numbers/${live.id}`, { key: testKey, body: { label: 'mine now' } }), RULE);
    expectForbidden(await svc.call('PUT', `/v1/numbers/${live.id}/route`, { key: testKey, body: { voicemailEnabled: true } }), RULE);
    expectForbidden(await svc.call('POST', `/v1/numbers/${live.phoneNumber}/release`, { key: testKey }), RULE);
    // Read: allowed, and nothing changed.
    const read = await svc.call('GET', `/v1/numbers/${live.id}`, { key: testKey });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(before);

    const mine = await buyNumber(testKey, '415');
    expect((await svc.call('PATCH', `/v1/numbers/${mine.id}`, { key: testKey, body: { label: 'test' } })).status).toBe(200);
    expect((await svc.call('POST', `/v1/numbers/${mine.id}/release`, { key: testKey })).body.status).toBe('released');
    // A live key changes either kind.
    expect((await svc.call('POST', `/v1/numbers/${live.id}/release`)).body.status).toBe('released');
  });

  it('cannot change, delete, rotate, probe or disable an endpoint created with a live key, nor read its secret', async () => {
    const created = await svc.call('POST', '/v1/webhooks', { body: { url: 'http://127.0.0.1:9/hook' } });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const rotated = await svc.call('POST', `/v1/webhooks/${id}/rotate-secret`, { key: testKey });
    expectForbidden(rotated, RULE);
    expect(rotated.text).not.toContain('whsec_');
    expectForbidden(await svc.call('PATCH', `/v1/webhooks/${id}`, { key: testKey, body: { url: 'http://127.0.0.1:9/elsewhere' } }), RULE);
    expectForbidden(await svc.call('DELETE', `/v1/webhooks/${id}`, { key: testKey }), RULE);
    expectForbidden(await svc.call('POST', `/v1/webhooks/${id}/test`, { key: testKey }), RULE);
    expectForbidden(await svc.call('POST', `/v1/sandbox/webhooks/${id}/disable`, { key: testKey }), RULE);
    // Reads show no secret to anyone.
    const read = await svc.call('GET', `/v1/webhooks/${id}`, { key: testKey });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ url: 'http://127.0.0.1:9/hook', enabled: true });
    expect(read.text).not.toContain('whsec_');
    expect((await svc.call('GET', '/v1/webhooks', { key: testKey })).text).not.toContain('whsec_');

    const mine = await svc.call('POST', '/v1/webhooks', { key: testKey, body: { url: 'http://127.0.0.1:9/test-hook' } });
    const again = await svc.call('POST', `/v1/webhooks/${mine.body.id}/rotate-secret`, { key: testKey });
    expect(again.status).toBe(200);
    expect(again.body.secret).toMatch(/^whsec_/);
    expect((await svc.call('DELETE', `/v1/webhooks/${mine.body.id}`, { key: testKey })).status).toBe(204);
    expect((await svc.call('DELETE', `/v1/webhooks/${id}`)).status).toBe(204);
  });
});

describe('every other record a live key created is a live key\'s to change', () => {
  it('sub-accounts, softphone devices, brands and campaigns: 403 to a test key, nothing changed; their own: changed', async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'live tenant' } });
    expectForbidden(await svc.call('PATCH', `/v1/subaccounts/${sub.body.id}`, { key: testKey, body: { status: 'suspended' } }), RULE);
    expect((await svc.call('GET', `/v1/subaccounts/${sub.body.id}`)).body.status).toBe('active');

    const device = await svc.call('POST', '/v1/webrtc/devices', { body: { userId: 'u-live', label: 'desk' } });
    expect(device.status, device.text).toBe(201);
    const d = device.body.id as string;
    expectForbidden(await svc.call('POST', `/v1/webrtc/devices/${d}/token`, { key: testKey }), RULE);
    expectForbidden(await svc.call('POST', `/v1/webrtc/devices/${d}/presence`, { key: testKey, body: { status: 'online' } }), RULE);
    expectForbidden(await svc.call('DELETE', `/v1/webrtc/devices/${d}`, { key: testKey }), RULE);
    expect((await svc.call('GET', `/v1/webrtc/devices/${d}`, { key: testKey })).body.presence).toBe('offline');

    const brand = await mockBrand(svc);
    expectForbidden(await svc.call('PATCH', `/v1/brands/${brand.id}`, { key: testKey, body: { pageConfig: { headline: 'x' } } }), RULE);
    const campaign = await svc.call('POST', '/v1/campaigns', { body: { ...GOOD_CAMPAIGN, brandId: brand.id } });
    expect(campaign.status, campaign.text).toBe(201);
    expectForbidden(await svc.call('PATCH', `/v1/campaigns/${campaign.body.id}`, { key: testKey, body: { name: 'renamed' } }), RULE);
    expect((await svc.call('GET', `/v1/campaigns/${campaign.body.id}`)).body.name).toBe(campaign.body.name);

    // What a test key created stays its own to change.
    const ownSub = await svc.call('POST', '/v1/subaccounts', { key: testKey, body: { name: 'test tenant' } });
    expect((await svc.call('PATCH', `/v1/subaccounts/${ownSub.body.id}`, { key: testKey, body: { status: 'suspended' } })).body.status).toBe('suspended');
    const ownDevice = await svc.call('POST', '/v1/webrtc/devices', { key: testKey, body: { userId: 'u-test', label: 'desk' } });
    expect((await svc.call('POST', `/v1/webrtc/devices/${ownDevice.body.id}/token`, { key: testKey })).status).toBe(200);
    const ownBrand = await mockBrand(svc, { key: testKey });
    expect((await svc.call('PATCH', `/v1/brands/${ownBrand.id}`, { key: testKey, body: { pageConfig: { headline: 'x' } } })).status).toBe(200);
  });
});

describe('idempotency keys are scoped by mode', () => {
  it('the same key with a test key, then with a live key, is two requests: nothing replayed across modes', async () => {
    const headers = { 'idempotency-key': 'same-key-both-modes' };
    const body = { name: 'made twice', mode: 'test' };
    const fromTest = await svc.call('POST', '/v1/keys', { key: testKey, headers, body });
    expect(fromTest.status).toBe(201);
    const fromLive = await svc.call('POST', '/v1/keys', { headers, body });
    expect(fromLive.status).toBe(201);
    expect(fromLive.headers['idempotent-replayed']).toBeUndefined();
    expect(fromLive.body.id).not.toBe(fromTest.body.id);
    expect(fromLive.body.key).toMatch(/^sk_test_/);
    // Within one mode it still replays.
    const replay = await svc.call('POST', '/v1/keys', { headers, body });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(fromLive.body.id);
    const testReplay = await svc.call('POST', '/v1/keys', { key: testKey, headers, body });
    expect(testReplay.body.id).toBe(fromTest.body.id);
  });
});

describe('a held read checks its credentials again when it wakes', () => {
  /** A fresh key (its lastUsedAt tells when a request with it was authenticated). */
  async function freshKey(mode: 'live' | 'test', headers?: Record<string, string>): Promise<{ id: string; key: string }> {
    const res = await svc.call('POST', '/v1/keys', { headers, body: { name: `held ${mode}`, mode } });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }
  /** Waits until the service has authenticated a request made with the key (a condition, not a sleep). */
  async function authenticated(id: string, headers?: Record<string, string>): Promise<void> {
    for (let i = 0; i < 500; i++) {
      const keys = (await svc.call('GET', '/v1/keys?limit=100', { headers })).body.data as Array<{ id: string; lastUsedAt: string | null }>;
      if (keys.find((k) => k.id === id)?.lastUsedAt) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`key ${id} was never used`);
  }
  const head = async (key: string, headers?: Record<string, string>) => (await svc.call('GET', '/v1/events?after=now', { key, headers })).body.cursor as string;

  it('events feed: a key revoked while its read is held gets 401, never the event created after the revocation', async () => {
    const k = await freshKey('test');
    const after = await head(k.key);
    const held = svc.call('GET', `/v1/events?after=${after}&wait=30`, { key: k.key });
    await authenticated(k.id);
    expect((await svc.call('DELETE', `/v1/keys/${k.id}`)).status).toBe(204);
    const event = await emit(svc, 'message.received', { messageId: 'msg_after_revocation' });
    const res = await held;
    expect(res.status, res.text).toBe(401);
    expect(res.body.error.message).toContain('revoked');
    expect(res.text).not.toContain(event.id);
  });

  it('events feed: a sub-account suspended while a read of it is held gets 403 (its own key and through the header)', async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'held tenant' } });
    const viaSub = { 'service-subaccount': sub.body.id };
    const own = await freshKey('live', viaSub);
    const agency = await freshKey('live');
    const after = await head(own.key);
    const heldOwn = svc.call('GET', `/v1/events?after=${after}&wait=30`, { key: own.key });
    const heldAgency = svc.call('GET', `/v1/events?after=${after}&wait=30`, { key: agency.key, headers: viaSub });
    await authenticated(own.id, viaSub);
    await authenticated(agency.id);
    expect((await svc.call('PATCH', `/v1/subaccounts/${sub.body.id}`, { body: { status: 'suspended' } })).status).toBe(200);
    const event = await emit(svc, 'message.received', { messageId: 'msg_after_suspension' }, sub.body.id);
    for (const res of [await heldOwn, await heldAgency]) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.error.message).toContain('suspended');
      expect(res.text).not.toContain(event.id);
    }
  });

  it('mail sandbox: a key revoked while its read is held gets 401 when the wait runs out', async () => {
    const k = await freshKey('live');
    const held = svc.call('GET', '/v1/sandbox/mailbox?after=now&wait=1', { key: k.key });
    await authenticated(k.id);
    expect((await svc.call('DELETE', `/v1/keys/${k.id}`)).status).toBe(204);
    const res = await held;
    expect(res.status, res.text).toBe(401);
  });
});
