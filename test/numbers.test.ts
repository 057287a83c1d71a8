import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { buy, enc, expectError, numberCount } from './messages-fixtures.js';
import { approvedCampaign, submittedCampaign } from './registration-fixtures.js';
import { PRICES } from '../src/api/values/prices.js';
import { chargesFor } from './helpers/inspect.js';

// contract §5: search, buy, list, get, release, assign; §11 first month on buy (live only).

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const search = (body: unknown, query = '') => svc.call('POST', `/v1/numbers/search${query}`, { body });
const charges = async () => await chargesFor(svc, svc.bootstrap.accountId);

describe('POST /v1/numbers/search', () => {
  it('finds local numbers by area code, deterministically', async () => {
    const first = await search({ areaCode: '415', limit: 5 });
    expect(first.status).toBe(200);
    expect(first.body.hasMore).toBe(false);
    expect(first.body.nextCursor).toBeNull();
    expect(first.body.data).toHaveLength(5);
    for (const n of first.body.data) {
      expect(n).toEqual({
        phoneNumber: expect.stringMatching(/^\+1415\d{7}$/),
        type: 'local',
        capabilities: { sms: expect.any(Boolean), mms: expect.any(Boolean), voice: expect.any(Boolean) },
        monthlyPriceCents: PRICES.localNumberMonthly,
        locality: 'San Francisco',
        region: 'CA',
      });
    }
    expect((await search({ areaCode: '415', limit: 5 })).body).toEqual(first.body);
    expect((await search({ type: 'local', areaCode: '415' })).body.data).toHaveLength(20);
  });

  it('finds by locality within an area code, by contains, by capabilities, and toll-free', async () => {
    const austin = await search({ areaCode: '512', locality: 'Austin, TX', limit: 10 });
    expect(austin.body.data.length).toBe(10);
    expect(austin.body.data.every((n: { region: string }) => n.region === 'TX')).toBe(true);
    // contract §5: a local search without areaCode is a validation_error, even with a locality.
    const noArea = await search({ locality: 'Austin, TX' });
    expect(noArea.status).toBe(400);
    expect(noArea.body.error.details).toEqual([{ path: ['body', 'areaCode'], message: 'required for local numbers; area codes for Austin, TX: 512, 737' }]);
    const contains = await search({ areaCode: '212', contains: '7', limit: 10 });
    expect(contains.body.data.length).toBeGreaterThan(0);
    expect(contains.body.data.every((n: { phoneNumber: string }) => n.phoneNumber.slice(2).includes('7'))).toBe(true);
    const mms = await search({ areaCode: '212', capabilities: ['mms', 'voice'], limit: 30 });
    expect(mms.body.data.length).toBeGreaterThan(0);
    expect(mms.body.data.every((n: { capabilities: { mms: boolean; voice: boolean } }) => n.capabilities.mms && n.capabilities.voice)).toBe(true);
    const tf = await search({ type: 'tollfree', limit: 7 });
    expect(tf.body.data.map((n: { phoneNumber: string }) => n.phoneNumber.slice(2, 5)).sort()).toEqual(['800', '833', '844', '855', '866', '877', '888']);
    expect(tf.body.data.every((n: { type: string; monthlyPriceCents: number }) => n.type === 'tollfree' && n.monthlyPriceCents === PRICES.tollfreeNumberMonthly)).toBe(true);
    const tf888 = await search({ type: 'tollfree', areaCode: '888', limit: 3 });
    expect(tf888.body.data.length).toBeGreaterThan(0);
    expect(tf888.body.data.every((n: { phoneNumber: string }) => n.phoneNumber.startsWith('+1888'))).toBe(true);
    // Disagreeing area code and locality, or an unknown area code: nothing matches.
    expect((await search({ areaCode: '415', locality: 'Austin' })).body.data).toEqual([]);
    expect((await search({ areaCode: '999' })).body.data).toEqual([]);
    const bare = await search({ areaCode: '415', limit: 2 }, '?format=array');
    expect(Array.isArray(bare.body)).toBe(true);
    expect(bare.body).toHaveLength(2);
  });

  it('rejects bad searches', async () => {
    expectError(await search({}), 400, 'validation_error', ['body', 'areaCode']);
    expectError(await search({ type: 'local' }), 400, 'validation_error', ['body', 'areaCode']);
    expectError(await search({ type: 'mobile', areaCode: '415' }), 400, 'validation_error', ['body', 'type']);
    expectError(await search({ areaCode: '41' }), 400, 'validation_error', ['body', 'areaCode']);
    expectError(await search({ areaCode: '415', contains: '' }), 400, 'validation_error', ['body', 'contains']);
    expectError(await search({ areaCode: '415', contains: '12345678' }), 400, 'validation_error', ['body', 'contains']);
    expectError(await search({ areaCode: '415', contains: '12a' }), 400, 'validation_error', ['body', 'contains']);
    expectError(await search({ areaCode: '415', capabilities: ['fax'] }), 400, 'validation_error', ['body', 'capabilities', 0]);
    expectError(await search({ areaCode: '415', limit: 0 }), 400, 'validation_error', ['body', 'limit']);
    expectError(await search({ areaCode: '415', limit: 101 }), 400, 'validation_error', ['body', 'limit']);
    expectError(await search({ areaCode: '415', color: 'gold' }), 400, 'validation_error', ['body', 'color']);
  });

  it('never offers a number an account owns', async () => {
    const before = await search({ areaCode: '303', limit: 3 });
    const taken = before.body.data[0].phoneNumber;
    expect((await svc.call('POST', '/v1/numbers/buy', { key: svc.bootstrap.testKey, body: { phoneNumber: taken } })).status).toBe(201);
    const after = await search({ areaCode: '303', limit: 3 });
    expect(after.body.data.map((n: { phoneNumber: string }) => n.phoneNumber)).not.toContain(taken);
    expect(after.body.data).toHaveLength(3);
    // Another account does not see it either.
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Searcher' } });
    const theirs = await svc.call('POST', '/v1/numbers/search', { headers: { 'service-subaccount': sub.body.id }, body: { areaCode: '303', limit: 3 } });
    expect(theirs.body.data.map((n: { phoneNumber: string }) => n.phoneNumber)).not.toContain(taken);
  });
});

describe('POST /v1/numbers/buy', () => {
  it('buys a local number idle, every field present, and charges the first month (live)', async () => {
    const offer = (await search({ areaCode: '206', limit: 1 })).body.data[0];
    const before = (await charges()).length;
    const res = await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: offer.phoneNumber } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^num_[0-9A-Za-z]{20}$/),
      phoneNumber: offer.phoneNumber,
      label: null,
      route: null,
      status: 'idle',
      type: 'local',
      capabilities: offer.capabilities,
      campaignId: null,
      campaignName: null,
      callerIdName: { name: null, status: 'off' },
      emergency: { enabled: false, address: null, status: 'off' },
      tfvStatus: 'not_applicable',
      tfvRejectionReason: null,
      releasedAt: null,
      locality: 'Seattle',
      region: 'WA',
      createdAt: expect.any(String),
    });
    const added = (await charges()).slice(before);
    expect(added).toMatchObject([{ category: 'local_number', quantity: 1, amountCents: PRICES.localNumberMonthly, ref: res.body.id }]);
  });

  it('buys toll-free unverified; a test key is never charged', async () => {
    const offer = (await search({ type: 'tollfree', limit: 1 })).body.data[0];
    const before = (await charges()).length;
    const res = await svc.call('POST', '/v1/numbers/buy', { key: svc.bootstrap.testKey, body: { phoneNumber: offer.phoneNumber } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'tollfree', tfvStatus: 'unverified', status: 'idle' });
    expect(await charges()).toHaveLength(before);

    const tf2 = (await search({ type: 'tollfree', limit: 1 })).body.data[0];
    const live = await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: tf2.phoneNumber } });
    expect((await charges()).slice(before)).toMatchObject([{ category: 'tollfree_number', amountCents: PRICES.tollfreeNumberMonthly, ref: live.body.id }]);
  });

  it('refuses taken numbers, numbers not in inventory, and bad input; nothing is created or charged', async () => {
    const owned = await buy(svc, { areaCode: '617' });
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Buyer' } });
    const headers = { 'service-subaccount': sub.body.id };
    const count = await numberCount(svc);
    const subCount = await numberCount(svc, '', headers);
    const chargeCount = (await charges()).length;
    expectError(await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: owned.phoneNumber } }), 409, 'conflict');
    expectError(await svc.call('POST', '/v1/numbers/buy', { headers, body: { phoneNumber: owned.phoneNumber } }), 409, 'conflict');
    expectError(await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: '+14155550100' } }), 409, 'conflict');
    expectError(await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: '+15005550006' } }), 409, 'conflict');
    expectError(await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: '+442071838750' } }), 409, 'conflict');
    expectError(await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: '4155550100' } }), 400, 'validation_error', ['body', 'phoneNumber']);
    expectError(await svc.call('POST', '/v1/numbers/buy', { body: {} }), 400, 'validation_error', ['body', 'phoneNumber']);
    expectError(await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: owned.phoneNumber, label: 'x' } }), 400, 'validation_error', ['body', 'label']);
    expect(await numberCount(svc)).toBe(count);
    expect(await numberCount(svc, '', headers)).toBe(subCount);
    expect(await charges()).toHaveLength(chargeCount);
  });

  it('replays an idempotent buy', async () => {
    const offer = (await search({ areaCode: '305', limit: 1 })).body.data[0];
    const before = (await charges()).length;
    const a = await svc.call('POST', '/v1/numbers/buy', { headers: { 'idempotency-key': 'buy-1' }, body: { phoneNumber: offer.phoneNumber } });
    const b = await svc.call('POST', '/v1/numbers/buy', { headers: { 'idempotency-key': 'buy-1' }, body: { phoneNumber: offer.phoneNumber } });
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body.id).toBe(a.body.id);
    expect((await charges()).length).toBe(before + 1);
  });
});

describe('GET /v1/numbers and /v1/numbers/{id}', () => {
  it('filters by status, type and campaign; released only with status=released; pages', async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Lister' } });
    const headers = { 'service-subaccount': sub.body.id };
    const local1 = await buy(svc, { headers, areaCode: '702' });
    const local2 = await buy(svc, { headers, areaCode: '702' });
    const tf = await buy(svc, { headers, type: 'tollfree', want: () => true });
    const gone = await buy(svc, { headers, areaCode: '702' });
    await svc.call('POST', `/v1/numbers/${gone.id}/release`, { headers });
    const campaign = await approvedCampaign(svc, { headers });
    await svc.call('POST', `/v1/numbers/${local2.id}/assign`, { headers, body: { campaignId: campaign.id } });

    const list = async (q: string) => (await svc.call('GET', `/v1/numbers?limit=100${q}`, { headers })).body.data.map((n: { id: string }) => n.id);
    expect(await list('')).toEqual([tf.id, local2.id, local1.id]);
    expect(await list('&status=released')).toEqual([gone.id]);
    expect(await list('&status=live')).toEqual([local2.id]);
    expect(await list('&status=idle')).toEqual([tf.id, local1.id]);
    expect(await list('&type=tollfree')).toEqual([tf.id]);
    expect(await list('&type=local')).toEqual([local2.id, local1.id]);
    expect(await list(`&campaignId=${campaign.id}`)).toEqual([local2.id]);

    const page1 = await svc.call('GET', '/v1/numbers?limit=2', { headers });
    expect(page1.body.hasMore).toBe(true);
    const page2 = await svc.call('GET', `/v1/numbers?limit=2&cursor=${page1.body.nextCursor}`, { headers });
    expect([...page1.body.data, ...page2.body.data].map((n: { id: string }) => n.id)).toEqual([tf.id, local2.id, local1.id]);
    expect(page2.body.hasMore).toBe(false);
    const bare = await svc.call('GET', '/v1/numbers?format=array', { headers });
    expect(bare.body.map((n: { id: string }) => n.id)).toEqual([tf.id, local2.id, local1.id]);

    expectError(await svc.call('GET', '/v1/numbers?status=lost', { headers }), 400, 'validation_error', ['query', 'status']);
    expectError(await svc.call('GET', '/v1/numbers?type=mobile', { headers }), 400, 'validation_error', ['query', 'type']);
  });

  it('reads a number by id or by E.164; another account gets 404', async () => {
    const n = await buy(svc, { areaCode: '720' });
    expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body).toEqual(n);
    expect((await svc.call('GET', `/v1/numbers/${enc(n.phoneNumber)}`)).body).toEqual(n);
    expectError(await svc.call('GET', '/v1/numbers/num_missing'), 404, 'not_found');
    expectError(await svc.call('GET', `/v1/numbers/${enc('+14155550100')}`), 404, 'not_found');
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Stranger' } });
    const headers = { 'service-subaccount': sub.body.id };
    expectError(await svc.call('GET', `/v1/numbers/${n.id}`, { headers }), 404, 'not_found');
    expectError(await svc.call('GET', `/v1/numbers/${enc(n.phoneNumber)}`, { headers }), 404, 'not_found');
    expectError(await svc.call('PATCH', `/v1/numbers/${n.id}`, { headers, body: { label: 'mine now' } }), 404, 'not_found');
    expectError(await svc.call('POST', `/v1/numbers/${n.id}/release`, { headers }), 404, 'not_found');
    expectError(await svc.call('POST', `/v1/numbers/${n.id}/assign`, { headers, body: { campaignId: null } }), 404, 'not_found');
    expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body).toEqual(n);
  });
});

describe('POST /v1/numbers/{id}/release', () => {
  it('releases (campaign detached, releasedAt set), refuses a second release, and frees the number', async () => {
    const n = await buy(svc, { areaCode: '404' });
    const campaign = await approvedCampaign(svc);
    await svc.call('POST', `/v1/numbers/${n.id}/assign`, { body: { campaignId: campaign.id } });
    const res = await svc.call('POST', `/v1/numbers/${enc(n.phoneNumber)}/release`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: n.id, status: 'released', campaignId: null, campaignName: null, releasedAt: expect.any(String) });
    expectError(await svc.call('POST', `/v1/numbers/${n.id}/release`), 409, 'conflict');
    expectError(await svc.call('POST', `/v1/numbers/${enc(n.phoneNumber)}/release`), 409, 'conflict');
    expectError(await svc.call('PATCH', `/v1/numbers/${n.id}`, { body: { label: 'late' } }), 409, 'conflict');
    expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body.status).toBe('released');
    // Back in the inventory: another account can buy it.
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Recycler' } });
    const again = await svc.call('POST', '/v1/numbers/buy', { headers: { 'service-subaccount': sub.body.id }, body: { phoneNumber: n.phoneNumber } });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(n.id);
  });
});

describe('POST /v1/numbers/{id}/assign', () => {
  it('attaches an approved campaign (live) and detaches it (idle)', async () => {
    const n = await buy(svc, { areaCode: '503' });
    const campaign = await approvedCampaign(svc, {}, { name: 'Shipping updates' });
    const on = await svc.call('POST', `/v1/numbers/${n.id}/assign`, { body: { campaignId: campaign.id } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ status: 'live', campaignId: campaign.id, campaignName: 'Shipping updates' });
    expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body).toEqual(on.body);
    const off = await svc.call('POST', `/v1/numbers/${enc(n.phoneNumber)}/assign`, { body: { campaignId: null } });
    expect(off.body).toMatchObject({ status: 'idle', campaignId: null, campaignName: null });
  });

  it('refuses unknown, unapproved, toll-free, no-sms, released and malformed; nothing changes', async () => {
    const n = await buy(svc, { areaCode: '503' });
    const tf = await buy(svc, { type: 'tollfree', want: () => true });
    const voiceOnly = await buy(svc, { areaCode: '503', want: (c) => !c.sms });
    const gone = await buy(svc, { areaCode: '503' });
    await svc.call('POST', `/v1/numbers/${gone.id}/release`);
    const approved = await approvedCampaign(svc);
    const submitted = await submittedCampaign(svc, { key: svc.bootstrap.testKey });
    const assign = (id: string, body: unknown) => svc.call('POST', `/v1/numbers/${id}/assign`, { body });
    expectError(await assign(n.id, { campaignId: '6f1c0a52-0000-4000-8000-000000000000' }), 404, 'not_found');
    expectError(await assign(n.id, { campaignId: submitted.id }), 409, 'conflict');
    expectError(await assign(tf.id, { campaignId: approved.id }), 422, 'channel_unsupported');
    expectError(await assign(voiceOnly.id, { campaignId: approved.id }), 422, 'channel_unsupported');
    expectError(await assign(gone.id, { campaignId: approved.id }), 409, 'conflict');
    expectError(await assign(n.id, {}), 400, 'validation_error', ['body', 'campaignId']);
    expectError(await assign(n.id, { campaignId: approved.id, force: true }), 400, 'validation_error', ['body', 'force']);
    for (const id of [n.id, tf.id, voiceOnly.id]) expect((await svc.call('GET', `/v1/numbers/${id}`)).body).toMatchObject({ status: 'idle', campaignId: null });
    expect((await svc.call('GET', `/v1/numbers/${gone.id}`)).body).toMatchObject({ status: 'released', campaignId: null });
  });
});
