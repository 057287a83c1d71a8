import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { buy, enc, expectError, liveNumber, messageCount } from './messages-fixtures.js';
import { approvedCampaign } from './registration-fixtures.js';
import { chargesFor, setCampaignStatus } from './helpers/inspect.js';
import { feedEvents, feedHead } from './helpers/reads.js';

// contract §4: POST /v1/messages with every rule, reads, idempotency, other accounts.

let svc: TestService;
let live: any; // local, full capabilities, approved campaign
let idle: any; // local, full capabilities, no campaign
let voiceOnly: any;
let smsOnly: any;
let released: any;
let rejectedCampaignNumber: any;
let testKey: string;

beforeAll(async () => {
  svc = await startTestService();
  testKey = svc.bootstrap.testKey;
  live = await liveNumber(svc);
  idle = await buy(svc);
  voiceOnly = await buy(svc, { want: (c) => !c.sms && c.voice });
  smsOnly = await buy(svc, { want: (c) => c.sms && !c.mms });
  rejectedCampaignNumber = await liveNumber(svc);
  // The campaign is later rejected: the number keeps it attached but may no longer send live.
  await setCampaignStatus(svc, rejectedCampaignNumber.campaignId, 'rejected');
  // Bought last: once released it is back in the inventory, and a later buy would take it again.
  released = await buy(svc);
  expect((await svc.call('POST', `/v1/numbers/${released.id}/release`)).status).toBe(200);
});
afterAll(async () => {
  await svc?.stop();
});

const send = (body: unknown, o: { key?: string; headers?: Record<string, string> } = {}) =>
  svc.call('POST', '/v1/messages', { body, ...o });

describe('POST /v1/messages validation (nothing is created)', () => {
  const valid = () => ({ to: '+14155550100', from: live.phoneNumber, body: 'hello' });
  const cases: Array<[string, () => unknown, number, string, Array<string | number> | undefined, string?]> = [
    ['to not E.164', () => ({ ...valid(), to: '4155550100' }), 400, 'validation_error', ['body', 'to']],
    ['to missing', () => ({ from: live.phoneNumber, body: 'x' }), 400, 'validation_error', ['body', 'to']],
    ['from not E.164', () => ({ ...valid(), from: 'me' }), 400, 'validation_error', ['body', 'from']],
    ['body over 1600 characters', () => ({ ...valid(), body: 'a'.repeat(1601) }), 400, 'validation_error', ['body', 'body']],
    ['more than 10 mediaUrls', () => ({ ...valid(), mediaUrls: Array.from({ length: 11 }, (_, i) => `https://e.test/${i}.jpg`) }), 400, 'validation_error', ['body', 'mediaUrls']],
    ['a media URL that is not a URI', () => ({ ...valid(), mediaUrls: ['not a url'] }), 400, 'validation_error', ['body', 'mediaUrls', 0]],
    ['neither body nor mediaUrls', () => ({ to: '+14155550100', from: live.phoneNumber }), 400, 'validation_error', ['body', 'body']],
    ['an empty body without media', () => ({ ...valid(), body: '' }), 400, 'validation_error', ['body', 'body']],
    ['an empty body and empty mediaUrls', () => ({ ...valid(), body: '', mediaUrls: [] }), 400, 'validation_error', ['body', 'body']],
    ['an unknown field', () => ({ ...valid(), priority: 'high' }), 400, 'validation_error', ['body', 'priority']],
    ['from a number the account does not own', () => ({ ...valid(), from: '+14155550199' }), 400, 'validation_error', ['body', 'from']],
    ['live key, local number without a campaign', () => ({ ...valid(), from: idle.phoneNumber }), 409, 'conflict', undefined],
    ['live key, campaign no longer approved', () => ({ ...valid(), from: rejectedCampaignNumber.phoneNumber }), 409, 'conflict', undefined],
    ['a number without sms', () => ({ ...valid(), from: voiceOnly.phoneNumber }), 422, 'channel_unsupported', undefined, 'test'],
    ['media from a number without mms', () => ({ ...valid(), from: smsOnly.phoneNumber, mediaUrls: ['https://e.test/a.png'] }), 422, 'channel_unsupported', undefined, 'test'],
    ['a released number', () => ({ ...valid(), from: released.phoneNumber }), 409, 'conflict', undefined],
    ['a released number (test key)', () => ({ ...valid(), from: released.phoneNumber }), 409, 'conflict', undefined, 'test'],
  ];
  for (const [name, body, status, code, path, mode] of cases) {
    it(`rejects ${name}`, async () => {
      const before = await messageCount(svc);
      const head = await feedHead(svc);
      const res = await send(body(), { key: mode === 'test' ? testKey : undefined, headers: { 'idempotency-key': `bad-${name.replace(/[^a-z0-9]+/gi, '-')}` } });
      expectError(res, status, code, path);
      if (name.startsWith('a released number')) expect(res.body.error.message).toMatch(/released/);
      expect(await messageCount(svc)).toBe(before);
      expect(await feedEvents(svc, { types: 'message.status', after: head })).toEqual([]);
    });
  }

  it('frees the idempotency key of a failed request for a corrected retry', async () => {
    const key = 'fix-me';
    expectError(await send({ to: 'nope', from: live.phoneNumber, body: 'x' }, { headers: { 'idempotency-key': key } }), 400, 'validation_error', ['body', 'to']);
    const ok = await send({ to: '+14155550100', from: live.phoneNumber, body: 'x' }, { headers: { 'idempotency-key': key } });
    expect(ok.status).toBe(201);
  });
});

describe('POST /v1/messages accepted', () => {
  it('answers 201 with a queued SMS carrying every field', async () => {
    const res = await send({ to: '+14155550101', from: live.phoneNumber, body: 'Your table is ready' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^msg_[0-9A-Za-z]{20}$/),
      to: '+14155550101',
      from: live.phoneNumber,
      body: 'Your table is ready',
      direction: 'outbound',
      status: 'queued',
      segments: 1,
      channel: 'sms',
      media: null,
      createdAt: expect.any(String),
      reason: null,
      test: false,
      updatedAt: expect.any(String),
    });
    const read = await svc.call('GET', `/v1/messages/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(res.body.id);
  });

  it('counts segments: GSM-7 160 per segment, UCS-2 70, extension characters twice', async () => {
    const gsm = await send({ to: '+14155550102', from: live.phoneNumber, body: 'a'.repeat(161) });
    expect(gsm.body.segments).toBe(2);
    const ucs = await send({ to: '+14155550102', from: live.phoneNumber, body: `${'é'.repeat(60)}中${'x'.repeat(10)}` });
    expect(ucs.body.segments).toBe(2);
    const ext = await send({ to: '+14155550102', from: live.phoneNumber, body: '€'.repeat(80) });
    expect(ext.body.segments).toBe(1);
    const ext2 = await send({ to: '+14155550102', from: live.phoneNumber, body: '€'.repeat(81) });
    expect(ext2.body.segments).toBe(2);
  });

  it('sends an MMS with media described by URL', async () => {
    const res = await send({
      to: '+14155550103',
      from: live.phoneNumber,
      mediaUrls: ['https://cdn.example.com/menus/Lunch%20Menu.PDF', 'https://cdn.example.com/img/cat.jpg?size=large', 'https://cdn.example.com/'],
    });
    expect(res.status).toBe(201);
    expect(res.body.channel).toBe('mms');
    expect(res.body.body).toBe('');
    expect(res.body.segments).toBe(0);
    expect(res.body.media).toEqual([
      { url: 'https://cdn.example.com/menus/Lunch%20Menu.PDF', contentType: 'application/pdf', filename: 'Lunch Menu.PDF' },
      { url: 'https://cdn.example.com/img/cat.jpg?size=large', contentType: 'image/jpeg', filename: 'cat.jpg' },
      { url: 'https://cdn.example.com/', contentType: 'application/octet-stream', filename: 'media-3' },
    ]);
  });

  it('treats an empty mediaUrls as a plain SMS', async () => {
    const res = await send({ to: '+14155550107', from: live.phoneNumber, body: 'no media', mediaUrls: [] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ channel: 'sms', media: null });
  });

  it('lets a test key send from a number without a campaign, and finishes the send at once', async () => {
    const res = await send({ to: '+14155550104', from: idle.phoneNumber, body: 'test' }, { key: testKey });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'queued', test: true });
    const read = await svc.call('GET', `/v1/messages/${res.body.id}`);
    expect(read.body.status).toBe('delivered');
    const statuses = (await feedEvents(svc, { types: 'message.status' }))
      .filter((e) => e.messageId === res.body.id)
      .map((e) => e.status);
    expect(statuses).toEqual(['sent', 'delivered']);
    expect((await chargesFor(svc, svc.bootstrap.accountId, res.body.id))).toEqual([]);
  });

  it('treats +15005550006 as a test send even with a live key (no ownership, no campaign, no charge)', async () => {
    const res = await send({ to: '+14155550105', from: '+15005550006', body: 'stub', mediaUrls: ['https://e.test/a.gif'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ from: '+15005550006', test: true, channel: 'mms' });
    expect((await svc.call('GET', `/v1/messages/${res.body.id}`)).body.status).toBe('delivered');
    expect((await chargesFor(svc, svc.bootstrap.accountId, res.body.id))).toEqual([]);
  });

  it('lets a test key send from a voice-capable number only when it has sms', async () => {
    expectError(await send({ to: '+14155550106', from: voiceOnly.phoneNumber, body: 'x' }, { key: testKey }), 422, 'channel_unsupported');
    const ok = await send({ to: '+14155550106', from: smsOnly.phoneNumber, body: 'x' }, { key: testKey });
    expect(ok.status).toBe(201);
  });
});

describe('idempotent sends', () => {
  it('replays the same key and body, and sends once', async () => {
    const body = { to: '+14155550110', from: live.phoneNumber, body: 'once only' };
    const before = await messageCount(svc);
    const first = await send(body, { headers: { 'idempotency-key': 'send-1' } });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send(body, { headers: { 'idempotency-key': 'send-1' } });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await messageCount(svc)).toBe(before + 1);

    // Finish it: one charge, one set of events, however often it was retried.
    await svc.advanceJobs(2);
    const third = await send(body, { headers: { 'idempotency-key': 'send-1' } });
    expect(third.body.id).toBe(first.body.id);
    expect((await chargesFor(svc, svc.bootstrap.accountId, first.body.id))).toHaveLength(1);
    const events = (await feedEvents(svc, { types: 'message.status' })).filter((e) => e.messageId === first.body.id);
    expect(events.map((e) => e.status)).toEqual(['sent', 'delivered']);
  });

  it('refuses the same key with a different body', async () => {
    await send({ to: '+14155550111', from: live.phoneNumber, body: 'a' }, { headers: { 'idempotency-key': 'send-2' } });
    const before = await messageCount(svc);
    expectError(await send({ to: '+14155550111', from: live.phoneNumber, body: 'b' }, { headers: { 'idempotency-key': 'send-2' } }), 409, 'conflict');
    expect(await messageCount(svc)).toBe(before);
  });

  it('keeps keys apart per account', async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Idem Co' } });
    const headers = { 'service-subaccount': sub.body.id, 'idempotency-key': 'shared' };
    const a = await send({ to: '+14155550112', from: '+15005550006', body: 'a' }, { headers });
    const b = await send({ to: '+14155550112', from: '+15005550006', body: 'a' }, { headers: { 'idempotency-key': 'shared' } });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(a.body.id).not.toBe(b.body.id);
  });
});

describe('GET /v1/messages', () => {
  it('lists newest first with working keyset pages', async () => {
    const total = await messageCount(svc);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const r = await svc.call('GET', `/v1/messages?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(r.status).toBe(200);
      seen.push(...r.body.data.map((m: { id: string }) => m.id));
      if (!r.body.hasMore) {
        expect(r.body.nextCursor).toBeNull();
        break;
      }
      cursor = r.body.nextCursor;
    }
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const all = await svc.call('GET', '/v1/messages?limit=100&format=array');
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body.map((m: { id: string }) => m.id)).toEqual(seen);
  });

  it('filters by direction, from, to and status', async () => {
    const to = '+14155550120';
    const sent = await send({ to, from: live.phoneNumber, body: 'filter me' });
    await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: to, to: live.phoneNumber, body: 'reply' } });
    const byTo = await svc.call('GET', `/v1/messages?to=${enc(to)}`);
    expect(byTo.body.data.map((m: { id: string }) => m.id)).toEqual([sent.body.id]);
    // An unencoded + arrives as a space and still works.
    const byFrom = await svc.call('GET', `/v1/messages?from=+${to.slice(1)}`);
    expect(byFrom.body.data).toHaveLength(1);
    expect(byFrom.body.data[0].direction).toBe('inbound');
    const inbound = await svc.call('GET', '/v1/messages?direction=inbound&limit=100');
    expect(inbound.body.data.every((m: { direction: string }) => m.direction === 'inbound')).toBe(true);
    const queued = await svc.call('GET', `/v1/messages?status=queued&from=${enc(live.phoneNumber)}&limit=100`);
    expect(queued.body.data.map((m: { id: string }) => m.id)).toContain(sent.body.id);
    expect(queued.body.data.every((m: { status: string }) => m.status === 'queued')).toBe(true);
  });

  it('rejects bad filters and cursors', async () => {
    expectError(await svc.call('GET', '/v1/messages?status=lost'), 400, 'validation_error', ['query', 'status']);
    expectError(await svc.call('GET', '/v1/messages?direction=sideways'), 400, 'validation_error', ['query', 'direction']);
    expectError(await svc.call('GET', '/v1/messages?to=123'), 400, 'validation_error', ['query', 'to']);
    expectError(await svc.call('GET', '/v1/messages?cursor=bogus'), 400, 'validation_error', ['query', 'cursor']);
    expectError(await svc.call('GET', '/v1/messages?limit=101'), 400, 'validation_error', ['query', 'limit']);
  });

  it('answers 404 for an unknown message', async () => {
    expectError(await svc.call('GET', '/v1/messages/msg_nope'), 404, 'not_found');
  });
});

describe('another account', () => {
  it("sees none of the agency's messages, cannot read them, and cannot send from its numbers", async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Other Co' } });
    expect(sub.status).toBe(201);
    const headers = { 'service-subaccount': sub.body.id };
    const mine = await send({ to: '+14155550130', from: live.phoneNumber, body: 'agency only' });
    expectError(await svc.call('GET', `/v1/messages/${mine.body.id}`, { headers }), 404, 'not_found');
    expect((await svc.call('GET', '/v1/messages', { headers })).body.data).toEqual([]);
    expectError(await send({ to: '+14155550130', from: live.phoneNumber, body: 'x' }, { headers }), 400, 'validation_error', ['body', 'from']);
    expect(await messageCount(svc, headers)).toBe(0);

    // The sub-account's own send is its own, and invisible to the agency.
    const subNumber = await liveNumber(svc, { headers, areaCode: '512' });
    const own = await send({ to: '+14155550131', from: subNumber.phoneNumber, body: 'sub' }, { headers });
    expect(own.status).toBe(201);
    expectError(await svc.call('GET', `/v1/messages/${own.body.id}`), 404, 'not_found');
    expect((await svc.call('GET', `/v1/messages/${own.body.id}`, { headers })).status).toBe(200);
  });

  it("cannot assign another account's campaign", async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Third Co' } });
    const headers = { 'service-subaccount': sub.body.id };
    const n = await buy(svc, { headers, areaCode: '212' });
    const agencyCampaign = await approvedCampaign(svc);
    expectError(await svc.call('POST', `/v1/numbers/${n.id}/assign`, { headers, body: { campaignId: agencyCampaign.id } }), 404, 'not_found');
  });
});
