import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { buy, enc, expectError, messageCount } from './messages-fixtures.js';
import { chargesFor } from './helpers/inspect.js';

// contract §4, "Opt-out keywords" over HTTP on loopback: GET /v1/opt-outs (page, newest first,
// filters, tenancy), the inbound keyword through the sandbox, and the refused send.

const CONSUMER = '+14155550131';
const OTHER_CONSUMER = '+14155550132';
const KEYS = ['createdAt', 'from', 'id', 'keyword', 'numberId', 'phoneNumber'];

let svc: TestService;
let first: any;
let second: any;
let childId: string;
let asChild: Record<string, string>;

const inbound = (to: string, body: string, from = CONSUMER, headers?: Record<string, string>) =>
  svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from, to, body }, headers, key: svc.bootstrap.testKey });
const list = async (query = '', o: { key?: string; headers?: Record<string, string> } = {}) => {
  const res = await svc.call('GET', `/v1/opt-outs${query}`, o);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

beforeAll(async () => {
  svc = await startTestService();
  first = await buy(svc, { key: svc.bootstrap.testKey });
  second = await buy(svc, { key: svc.bootstrap.testKey, areaCode: '212' });
  const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'opt-out child' } });
  expect(sub.status).toBe(201);
  childId = sub.body.id;
  asChild = { 'service-subaccount': childId };
  // Oldest first: first ← CONSUMER (STOP), second ← CONSUMER (cancel), first ← OTHER_CONSUMER (Quit).
  for (const [to, body, from] of [
    [first.phoneNumber, 'STOP', CONSUMER],
    [second.phoneNumber, ' cancel ', CONSUMER],
    [first.phoneNumber, 'Quit', OTHER_CONSUMER],
  ] as const) {
    expect((await inbound(to, body, from)).status).toBe(201);
    await svc.advanceJobs(1);
  }
});
afterAll(async () => {
  await svc?.stop();
});

describe('GET /v1/opt-outs', () => {
  it('pages the active opt-outs newest first, in the contract shape', async () => {
    const page = await list();
    expect(page.hasMore).toBe(false);
    expect(page.data.map((o: any) => [o.from, o.phoneNumber, o.keyword])).toEqual([
      [first.phoneNumber, OTHER_CONSUMER, 'QUIT'],
      [second.phoneNumber, CONSUMER, 'CANCEL'],
      [first.phoneNumber, CONSUMER, 'STOP'],
    ]);
    for (const o of page.data) {
      expect(Object.keys(o).sort()).toEqual(KEYS);
      expect(o.id).toMatch(/^opt_/);
      expect(o.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    expect(page.data[0].numberId).toBe(first.id);

    // Keyset pages of one follow each other to the end.
    const p1 = await list('?limit=1');
    expect(p1.hasMore).toBe(true);
    const p2 = await list(`?limit=1&cursor=${p1.nextCursor}`);
    const p3 = await list(`?limit=1&cursor=${p2.nextCursor}`);
    expect([...p1.data, ...p2.data, ...p3.data]).toEqual(page.data);
    expect(p3.hasMore).toBe(false);
    expect((await svc.call('GET', '/v1/opt-outs?format=array')).body).toEqual(page.data);
  });

  it('`from` narrows to a number, `phoneNumber` to a consumer (a `+` sent unencoded still reads as +)', async () => {
    const pairs = (p: any) => p.data.map((o: any) => [o.from, o.phoneNumber]);
    expect(pairs(await list(`?from=${enc(first.phoneNumber)}`))).toEqual([
      [first.phoneNumber, OTHER_CONSUMER],
      [first.phoneNumber, CONSUMER],
    ]);
    expect(pairs(await list(`?phoneNumber=${enc(CONSUMER)}`))).toEqual([
      [second.phoneNumber, CONSUMER],
      [first.phoneNumber, CONSUMER],
    ]);
    expect(pairs(await list(`?from=${second.phoneNumber}&phoneNumber=${enc(CONSUMER)}`))).toEqual([[second.phoneNumber, CONSUMER]]);
    expect((await list(`?from=${enc(second.phoneNumber)}&phoneNumber=${enc(OTHER_CONSUMER)}`)).data).toEqual([]);
  });

  it('a malformed filter is a validation_error naming it', async () => {
    expectError(await svc.call('GET', '/v1/opt-outs?from=4155550100'), 400, 'validation_error', ['query', 'from']);
    expectError(await svc.call('GET', '/v1/opt-outs?phoneNumber=abc'), 400, 'validation_error', ['query', 'phoneNumber']);
    expectError(await svc.call('GET', '/v1/opt-outs?limit=0'), 400, 'validation_error', ['query', 'limit']);
  });

  it("tenancy: a sub-account sees only its own, and the parent does not see the sub-account's", async () => {
    const childNumber = await buy(svc, { key: svc.bootstrap.testKey, headers: asChild });
    expect((await inbound(childNumber.phoneNumber, 'stop', CONSUMER, asChild)).status).toBe(201);
    const child = await list('', { headers: asChild });
    expect(child.data.map((o: any) => [o.from, o.phoneNumber])).toEqual([[childNumber.phoneNumber, CONSUMER]]);
    expect((await list(`?from=${enc(childNumber.phoneNumber)}`)).data).toEqual([]);
    expect((await list(`?from=${enc(first.phoneNumber)}`, { headers: asChild })).data).toEqual([]);
    // The child's own key reads the same page as the agency acting through Service-Subaccount.
    const childKey = await svc.call('POST', '/v1/keys', { body: { name: 'child', mode: 'test' }, headers: asChild });
    expect((await list('', { key: childKey.body.key })).data).toEqual(child.data);
  });

  it('has no create and no delete: only the consumer lifts an opt-out', async () => {
    const [{ id }] = (await list('?limit=1')).data;
    expect((await svc.call('DELETE', `/v1/opt-outs/${id}`)).status).toBe(404);
    expect((await svc.call('POST', '/v1/opt-outs', { body: { from: first.phoneNumber, phoneNumber: CONSUMER } })).status).toBe(404);
  });
});

describe('the keyword round trip over HTTP', () => {
  it('a send to the opted-out consumer is 422 channel_unsupported {reason, keyword, at}; nothing is stored', async () => {
    const [stop] = (await list(`?from=${enc(first.phoneNumber)}&phoneNumber=${enc(CONSUMER)}`)).data;
    const before = await messageCount(svc);
    const res = await svc.call('POST', '/v1/messages', { key: svc.bootstrap.testKey, body: { from: first.phoneNumber, to: CONSUMER, body: 'sale!' } });
    expectError(res, 422, 'channel_unsupported');
    expect(res.body.error.details).toEqual({ reason: 'opted_out', keyword: 'STOP', at: stop.createdAt });
    expect(res.body.error.message).toContain(`${CONSUMER} opted out of ${first.phoneNumber}`);
    expect(await messageCount(svc)).toBe(before);
  });

  it('START lifts it with one reply, the number may send again; the replies are listed and unbilled', async () => {
    const before = await messageCount(svc);
    expect((await inbound(second.phoneNumber, 'start')).status).toBe(201);
    expect((await list(`?from=${enc(second.phoneNumber)}`)).data).toEqual([]);
    const thread = await svc.call('GET', `/v1/conversations/${enc(CONSUMER)}`);
    const last = thread.body.data.at(-1);
    expect(last).toMatchObject({ direction: 'outbound', from: second.phoneNumber, to: CONSUMER, test: true, status: 'delivered' });
    expect(await messageCount(svc)).toBe(before + 2);
    const sent = await svc.call('POST', '/v1/messages', { key: svc.bootstrap.testKey, body: { from: second.phoneNumber, to: CONSUMER, body: 'welcome back' } });
    expect(sent.status, sent.text).toBe(201);
    expect((await chargesFor(svc, svc.bootstrap.accountId)).filter((c) => c.category === 'sms')).toEqual([]);
  });

  it('the test sender can be texted, and opted out of', async () => {
    expect((await inbound('+15005550006', 'STOP', '+14155550133')).status).toBe(201);
    const [o] = (await list(`?from=%2B15005550006`)).data;
    expect(o).toMatchObject({ numberId: null, from: '+15005550006', phoneNumber: '+14155550133', keyword: 'STOP' });
    const res = await svc.call('POST', '/v1/messages', { body: { from: '+15005550006', to: '+14155550133', body: 'hi' } });
    expectError(res, 422, 'channel_unsupported');
  });
});
