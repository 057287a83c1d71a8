import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { buy, enc, expectError, liveNumber, messageCount } from './messages-fixtures.js';
import { feedEvents } from './helpers/reads.js';

// contract §4 conversations and §9 inbound messages.

let svc: TestService;
let a: any;
let b: any;
let voiceOnly: any;
const tick = () => svc.advanceJobs(1);

beforeAll(async () => {
  svc = await startTestService();
  a = await liveNumber(svc);
  b = await liveNumber(svc);
  voiceOnly = await buy(svc, { want: (c) => !c.sms && c.voice });
});
afterAll(async () => {
  await svc?.stop();
});

const send = (from: string, to: string, body: string) => svc.call('POST', '/v1/messages', { body: { from, to, body } });
const inbound = (from: string, to: string, body: string) => svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from, to, body } });

describe('sandbox inbound messages', () => {
  it('rejects a `to` the account does not own, bad input, and numbers without the channel; nothing is created', async () => {
    const before = await messageCount(svc);
    const receivedBefore = (await feedEvents(svc, { types: 'message.received' })).length;
    expectError(await inbound('+14155550170', '+14155550199', 'hi'), 400, 'validation_error', ['body', 'to']);
    expectError(await inbound('nope', a.phoneNumber, 'hi'), 400, 'validation_error', ['body', 'from']);
    expectError(await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550170', to: a.phoneNumber } }), 400, 'validation_error', ['body', 'body']);
    expectError(await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550170', to: a.phoneNumber, body: 'x', extra: 1 } }), 400, 'validation_error', ['body', 'extra']);
    expectError(await inbound('+14155550170', voiceOnly.phoneNumber, 'hi'), 422, 'channel_unsupported');
    expect(await messageCount(svc)).toBe(before);
    expect(await feedEvents(svc, { types: 'message.received' })).toHaveLength(receivedBefore);
  });

  it('receives MMS with media', async () => {
    const res = await svc.call('POST', '/v1/sandbox/inbound-messages', {
      body: { from: '+14155550171', to: a.phoneNumber, mediaUrls: ['https://e.test/photo.png'] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ channel: 'mms', body: '', media: [{ url: 'https://e.test/photo.png', contentType: 'image/png', filename: 'photo.png' }] });
  });
});

describe('conversations', () => {
  it('summarises one row per counterparty, newest lastAt first, and pages without gaps or repeats', async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Threads' } });
    const headers = { 'service-subaccount': sub.body.id };
    const n = await buy(svc, { headers, areaCode: '212' });
    const call = (body: unknown) => svc.call('POST', '/v1/messages', { key: svc.bootstrap.testKey, headers, body });
    const parties = ['+14155550180', '+14155550181', '+14155550182', '+14155550183', '+14155550184'];
    for (const p of parties) {
      await call({ from: n.phoneNumber, to: p, body: `hello ${p}` });
      await tick();
    }
    // The oldest conversation gets an inbound reply: it moves to the front.
    await svc.call('POST', '/v1/sandbox/inbound-messages', { headers, body: { from: parties[0], to: n.phoneNumber, body: 'reply' } });
    // Two at the same instant (frozen clock): still a total order.
    await call({ from: n.phoneNumber, to: parties[2], body: 'same instant 1' });
    await call({ from: n.phoneNumber, to: parties[3], body: 'same instant 2' });

    const all = await svc.call('GET', '/v1/conversations?limit=100', { headers });
    expect(all.status).toBe(200);
    expect(all.body.data.map((c: { counterparty: string }) => c.counterparty)).toEqual([parties[3], parties[2], parties[0], parties[4], parties[1]]);
    expect(all.body.data[0]).toEqual({
      counterparty: parties[3],
      lastBody: 'same instant 2',
      lastAt: expect.any(String),
      direction: 'outbound',
      lastMessageId: expect.stringMatching(/^msg_/),
    });
    expect(all.body.data[2]).toMatchObject({ counterparty: parties[0], lastBody: 'reply', direction: 'inbound' });

    const paged: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await svc.call('GET', `/v1/conversations?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { headers });
      expect(page.status).toBe(200);
      paged.push(...page.body.data.map((c: { counterparty: string }) => c.counterparty));
      if (!page.body.hasMore) break;
      cursor = page.body.nextCursor;
    }
    expect(paged).toEqual(all.body.data.map((c: { counterparty: string }) => c.counterparty));

    const bare = await svc.call('GET', '/v1/conversations?format=array', { headers });
    expect(bare.body).toHaveLength(5);
    expectError(await svc.call('GET', '/v1/conversations?cursor=%%%', { headers }), 400, 'validation_error', ['query', 'cursor']);
    // The agency sees none of these.
    const agency = await svc.call('GET', '/v1/conversations?limit=100');
    expect(agency.body.data.map((c: { counterparty: string }) => c.counterparty)).not.toContain(parties[1]);
  });

  it('answers a thread oldest first, the latest `limit` messages', async () => {
    const party = '+14155550190';
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push((await send(a.phoneNumber, party, `out ${i}`)).body.id);
      await tick();
      ids.push((await inbound(party, b.phoneNumber, `in ${i}`)).body.id);
      await tick();
    }
    const thread = await svc.call('GET', `/v1/conversations/${enc(party)}`);
    expect(thread.status).toBe(200);
    expect(Object.keys(thread.body)).toEqual(['data']);
    expect(thread.body.data.map((m: { id: string }) => m.id)).toEqual(ids);
    expect(thread.body.data[0]).toMatchObject({ direction: 'outbound', body: 'out 0', status: 'delivered' });

    const latest = await svc.call('GET', `/v1/conversations/${enc(party)}?limit=3`);
    expect(latest.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(-3));
  });

  it('validates the counterparty and the limit; an unknown counterparty is an empty thread', async () => {
    expectError(await svc.call('GET', '/v1/conversations/12345'), 400, 'validation_error', ['params', 'counterparty']);
    expectError(await svc.call('GET', `/v1/conversations/${enc('+14155550190')}?limit=201`), 400, 'validation_error', ['query', 'limit']);
    expectError(await svc.call('GET', `/v1/conversations/${enc('+14155550190')}?limit=0`), 400, 'validation_error', ['query', 'limit']);
    expect((await svc.call('GET', `/v1/conversations/${enc('+19995550100')}`)).body).toEqual({ data: [] });
    // A literal + in the path works too.
    expect((await svc.call('GET', '/v1/conversations/+14155550190')).body.data.length).toBeGreaterThan(0);
  });

  it("keeps threads per account: a sub-account sees an empty thread for the agency's counterparty", async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Nosy' } });
    const res = await svc.call('GET', `/v1/conversations/${enc('+14155550190')}`, { headers: { 'service-subaccount': sub.body.id } });
    expect(res.body).toEqual({ data: [] });
  });
});
