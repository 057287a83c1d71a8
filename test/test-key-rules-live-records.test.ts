// contract §2: "A test key may read everything, but may change or delete only what a test
// key created". The refusals test-key-rules.test.ts does not cover, over HTTP: a live call's transfer,
// a sandbox report on a live email, a suppression a live email caused, blocked numbers (a live key's
// block, a suggestion a live call counted toward) and the sandbox DNS (a live domain's zone, a name a
// live key published). Each is a 403 `forbidden` whose detail names the credential, and changes nothing;
// the same act on what a test key created goes through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { PSTN, placeCall, traceOf, voiceNumber } from './calls-fixtures.js';
import { addDomain, freshDomain, publishDomainRecords, verifiedDomain } from './helpers/email-fixtures.js';
import { KEY_MODE_REFUSAL_PATH } from '../src/api/values/keys.js';
import { addSuppression } from './helpers/inspect.js';
import { MAIL_SIMULATOR_TIMINGS } from '../src/api/values/email.js';
import { BLOCK_SUGGESTION } from '../src/api/values/calls.js';

type Res = Awaited<ReturnType<TestService['call']>>;

/** The words every test-key refusal starts with (contract §2), as a CLI user reads them. */
const TEST_KEY_RULE = 'a test key cannot change what a live key created';

let svc: TestService;
let testKey: string;
beforeAll(async () => {
  svc = await startTestService();
  testKey = svc.bootstrap.testKey;
});
afterAll(async () => {
  await svc?.stop();
});

/** The test-key refusal: 403 `forbidden`, the rule's words naming `what`, the detail on the Authorization header. */
function expectTestKeyRefusal(res: Res, what: string): void {
  expect(res.status, res.text).toBe(403);
  expect(res.body.error.code).toBe('forbidden');
  expect(res.body.error.message).toContain(TEST_KEY_RULE);
  expect(res.body.error.message).toContain(what);
  expect(res.body.error.details).toEqual([expect.objectContaining({ path: [...KEY_MODE_REFUSAL_PATH] })]);
}

describe('calls: a test key cannot transfer a live call', () => {
  it('403 for a call placed with a live key, nothing moved; its own call transfers', async () => {
    const n = await voiceNumber(svc);
    const live = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 1, durationSecs: 60 } });
    const own = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 1, durationSecs: 60 } }, { key: testKey });
    await svc.advanceJobs(5);
    const before = (await svc.call('GET', `/v1/calls/${live.id}`)).body;
    expect(before).toMatchObject({ status: 'in_progress', answeredBy: PSTN });

    expectTestKeyRefusal(await svc.call('POST', `/v1/calls/${live.id}/transfer`, { key: testKey, body: { to: '+14155550155' } }), `call ${live.id}`);
    expect((await svc.call('GET', `/v1/calls/${live.id}`)).body).toEqual(before);
    expect((await traceOf(svc, live.id)).filter((t) => t.step === 'transfer')).toEqual([]);

    const moved = await svc.call('POST', `/v1/calls/${own.id}/transfer`, { key: testKey, body: { to: '+14155550155' } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.answeredBy).toBe('+14155550155');
    // The live key transfers the live call.
    expect((await svc.call('POST', `/v1/calls/${live.id}/transfer`, { body: { to: '+14155550155' } })).status).toBe(200);
  });
});

describe('email: a test key cannot report on a live email, nor lift a suppression that protects live sending', () => {
  let domain: string;
  beforeAll(async () => {
    domain = freshDomain('tk');
    await verifiedDomain(svc, domain);
  });
  const send = async (to: string, key?: string): Promise<string> => {
    const res = await svc.call('POST', '/v1/emails', { key, body: { from: `news@${domain}`, to: [to], subject: 'hi', text: 'hello' } });
    expect(res.status, res.text).toBe(201);
    return res.body.id;
  };
  const recipient = async (id: string) => (await svc.call('GET', `/v1/emails/${id}`)).body.recipients[0];
  const report = (emailId: string, to: string, type: string, key?: string) =>
    svc.call('POST', '/v1/sandbox/email-events', { key, body: { emailId, recipient: to, type } });

  it('POST /v1/sandbox/email-events on a live email: 403, the recipient unchanged; on a test email: 200', async () => {
    const live = await send('reader-live@example.com');
    const own = await send('reader-test@example.com', testKey);
    await svc.advanceJobs(MAIL_SIMULATOR_TIMINGS.deliverAfterSecs + 1);
    expect(await recipient(live)).toMatchObject({ status: 'delivered', openedAt: null, complainedAt: null });

    expectTestKeyRefusal(await report(live, 'reader-live@example.com', 'open', testKey), `email ${live}`);
    expectTestKeyRefusal(await report(live, 'reader-live@example.com', 'complaint', testKey), `email ${live}`);
    expect(await recipient(live)).toMatchObject({ status: 'delivered', openedAt: null, complainedAt: null });
    expect((await svc.call('GET', '/v1/email-suppressions?limit=100')).body.data.map((s: any) => s.address)).not.toContain('reader-live@example.com');

    const opened = await report(own, 'reader-test@example.com', 'open', testKey);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.recipients[0].openedAt).not.toBeNull();
    expect((await report(live, 'reader-live@example.com', 'open')).status).toBe(200);
  });

  it('DELETE /v1/email-suppressions/{address}: 403 for one a live email caused or with no email on record; its own: 204', async () => {
    const live = await send('bounce+tk-live@simulator.test');
    await send('bounce+tk-test@simulator.test', testKey);
    await svc.advanceJobs(MAIL_SIMULATOR_TIMINGS.deliverAfterSecs + 1);
    const listed = async () => (await svc.call('GET', '/v1/email-suppressions?limit=100')).body.data.map((s: any) => s.address);
    expect(await listed()).toEqual(expect.arrayContaining(['bounce+tk-live@simulator.test', 'bounce+tk-test@simulator.test']));
    const remove = (address: string, key?: string) => svc.call('DELETE', `/v1/email-suppressions/${encodeURIComponent(address)}`, { key });

    expectTestKeyRefusal(await remove('bounce+tk-live@simulator.test', testKey), 'the suppression of bounce+tk-live@simulator.test');
    expect(await listed()).toContain('bounce+tk-live@simulator.test');
    expect((await svc.call('GET', `/v1/emails/${live}`)).body.recipients[0].status).toBe('bounced');
    // One with no email on record (an address suppressed before emails kept their mode) counts as live.
    await addSuppression(svc, svc.bootstrap.accountId, 'unsub-tk@example.com', 'unsubscribe');
    expectTestKeyRefusal(await remove('unsub-tk@example.com', testKey), 'the suppression of unsub-tk@example.com');
    expect(await listed()).toContain('unsub-tk@example.com');

    expect((await remove('bounce+tk-test@simulator.test', testKey)).status).toBe(204);
    expect((await remove('bounce+tk-live@simulator.test')).status).toBe(204);
    expect((await remove('unsub-tk@example.com')).status).toBe(204);
  });
});

describe('blocked numbers: a test key cannot confirm, change or remove a live block (migration 17)', () => {
  const block = (phoneNumber: string, key?: string) => svc.call('POST', '/v1/blocked-numbers', { key, body: { phoneNumber, reason: 'spam' } });
  const get = async (id: string) => (await svc.call('GET', `/v1/blocked-numbers/${id}`)).body;

  it('403 to PATCH and DELETE an entry a live key added, nothing changed; its own: changed and removed', async () => {
    const live = await block('+14155550711');
    expect(live.status, live.text).toBe(201);
    expectTestKeyRefusal(await svc.call('PATCH', `/v1/blocked-numbers/${live.body.id}`, { key: testKey, body: { reason: null } }), 'the block of +14155550711');
    expectTestKeyRefusal(await svc.call('DELETE', `/v1/blocked-numbers/${live.body.id}`, { key: testKey }), 'the block of +14155550711');
    expect(await get(live.body.id)).toEqual(live.body);

    const own = await block('+14155550712', testKey);
    expect(own.status, own.text).toBe(201);
    expect((await svc.call('PATCH', `/v1/blocked-numbers/${own.body.id}`, { key: testKey, body: { reason: 'mine' } })).body.reason).toBe('mine');
    expect((await svc.call('DELETE', `/v1/blocked-numbers/${own.body.id}`, { key: testKey })).status).toBe(204);
    expect((await svc.call('DELETE', `/v1/blocked-numbers/${live.body.id}`)).status).toBe(204);
  });

  it('a suggestion is live when a live call counted toward it: the test key may not confirm or remove it; one of test calls only it may', async () => {
    const n = await voiceNumber(svc);
    const testCaller = '+14155550721';
    const mixedCaller = '+14155550722';
    for (let i = 0; i < BLOCK_SUGGESTION.calls; i++) {
      await placeCall(svc, n.phoneNumber, {}, { from: testCaller, key: testKey });
      // One of the mixed caller's calls is placed with the live key.
      await placeCall(svc, n.phoneNumber, {}, { from: mixedCaller, key: i === 0 ? undefined : testKey });
    }
    await svc.advanceJobs(60); // every call rings out unanswered: missed
    const suggestions = (await svc.call('GET', '/v1/blocked-numbers?autoSuggested=true&limit=100')).body.data as any[];
    const mixed = suggestions.find((e) => e.phoneNumber === mixedCaller);
    const testOnly = suggestions.find((e) => e.phoneNumber === testCaller);
    expect(mixed, 'the mixed caller is suggested').toBeDefined();
    expect(testOnly, 'the test caller is suggested').toBeDefined();

    expectTestKeyRefusal(await svc.call('PATCH', `/v1/blocked-numbers/${mixed.id}`, { key: testKey, body: { autoSuggested: false } }), `the block of ${mixedCaller}`);
    expectTestKeyRefusal(await svc.call('DELETE', `/v1/blocked-numbers/${mixed.id}`, { key: testKey }), `the block of ${mixedCaller}`);
    expect(await get(mixed.id)).toEqual(mixed);

    const confirmed = await svc.call('PATCH', `/v1/blocked-numbers/${testOnly.id}`, { key: testKey, body: { autoSuggested: false } });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.autoSuggested).toBe(false);
    expect((await svc.call('PATCH', `/v1/blocked-numbers/${mixed.id}`, { body: { autoSuggested: false } })).body.autoSuggested).toBe(false);
  });
});

describe('sandbox DNS: a test key cannot change a live domain’s zone, nor a name a live key published (migration 17)', () => {
  const put = (name: string, value: string, key?: string) => svc.call('PUT', `/v1/sandbox/dns/${name}`, { key, body: { records: [{ type: 'TXT', value }] } });
  const del = (name: string, key?: string) => svc.call('DELETE', `/v1/sandbox/dns/${name}`, { key });
  const read = async (name: string) => svc.call('GET', `/v1/sandbox/dns/${name}`, { key: testKey });

  it('403 in the zone of a domain added with a live key (pending or verified); the records stay', async () => {
    const pending = await addDomain(svc, freshDomain('live-zone'));
    expectTestKeyRefusal(await put(`_dmarc.${pending.domain}`, 'v=DMARC1; p=none', testKey), `the domain ${pending.domain}`);
    expect((await read(`_dmarc.${pending.domain}`)).status).toBe(404);

    const verified = await verifiedDomain(svc, freshDomain('live-zone'));
    const spf = verified.records.find((r: any) => r.purpose === 'spf');
    const before = (await read(spf.name)).body;
    expectTestKeyRefusal(await put(spf.name, 'v=spf1 -all', testKey), `the domain ${verified.domain}`);
    expectTestKeyRefusal(await del(spf.name, testKey), `the domain ${verified.domain}`);
    expect((await read(spf.name)).body).toEqual(before);
    // The live domain still verifies.
    expect((await svc.call('POST', `/v1/domains/${verified.id}/verify`)).body.status).toBe('verified');
  });

  it('a name no domain holds: the test key publishes, changes and removes its own; a live key’s entry is 403 to it', async () => {
    const name = `setup.${freshDomain('unclaimed')}`;
    expect((await put(name, 'one', testKey)).status).toBe(200);
    expect((await put(name, 'two', testKey)).status).toBe(200);
    expect((await del(name, testKey)).status).toBe(204);

    // A tenant sets up its records with a live key before adding the domain: the test key may not touch them.
    expect((await put(name, 'live setup')).status).toBe(200);
    expectTestKeyRefusal(await put(name, 'overwritten', testKey), `the DNS entry of ${name}`);
    expectTestKeyRefusal(await del(name, testKey), `the DNS entry of ${name}`);
    expect((await read(name)).body.records).toEqual([{ type: 'TXT', value: 'live setup' }]);
    expect((await del(name)).status).toBe(204);
  });

  it('a domain added with a test key: the test key publishes its records and verifies it', async () => {
    const created = await svc.call('POST', '/v1/domains', { key: testKey, body: { domain: freshDomain('test-zone') } });
    expect(created.status, created.text).toBe(201);
    await publishDomainRecords({ call: (m: string, p: string, o: any = {}) => svc.call(m, p, { ...o, key: testKey }) } as unknown as TestService, created.body.records);
    const verified = await svc.call('POST', `/v1/domains/${created.body.id}/verify`, { key: testKey });
    expect(verified.body.status).toBe('verified');
  });
});
