import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { liveNumber } from './messages-fixtures.js';
import { PRICES } from '../src/api/values/prices.js';
import { chargesFor as chargesOf, jobCount } from './helpers/inspect.js';
import { feedEvents } from './helpers/reads.js';

// contract §4: the simulated carrier on the service clock, magic destinations, events, billing at
// `sent`, and durability across a restart.

const statusEvents = async (svc: TestService, messageId: string) =>
  (await feedEvents(svc, { types: 'message.status' }))
    .filter((e) => e.messageId === messageId)
    .map((e) => ({ messageId: e.messageId, status: e.status, reason: e.reason }));

const chargesFor = async (svc: TestService, ref: string) => await chargesOf(svc, svc.bootstrap.accountId, ref);

describe('live sends on the manual clock', () => {
  let svc: TestService;
  let from: string;
  beforeAll(async () => {
    svc = await startTestService();
    from = (await liveNumber(svc)).phoneNumber;
  });
  afterAll(async () => {
    await svc?.stop();
  });

  const status = async (id: string) => (await svc.call('GET', `/v1/messages/${id}`)).body.status;

  it('moves queued → sending → sent → delivered within a second, with events and one charge at sent', async () => {
    const body = 'a'.repeat(200); // 2 segments
    const res = await svc.call('POST', '/v1/messages', { body: { to: '+14155550140', from, body } });
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(await status(id)).toBe('queued');
    expect(await statusEvents(svc, id)).toEqual([]);

    await svc.advanceJobs(0.2);
    expect(await status(id)).toBe('sending');
    expect(await statusEvents(svc, id)).toEqual([]);
    expect(await chargesFor(svc, id)).toEqual([]);

    await svc.advanceJobs(0.2);
    expect(await status(id)).toBe('sent');
    expect(await statusEvents(svc, id)).toEqual([{ messageId: id, status: 'sent', reason: null }]);
    expect(await chargesFor(svc, id)).toMatchObject([{ category: 'sms', quantity: 2, amountCents: 2 * PRICES.smsSegment }]);

    await svc.advanceJobs(0.4);
    const done = await svc.call('GET', `/v1/messages/${id}`);
    expect(done.body).toMatchObject({ status: 'delivered', reason: null });
    expect(await statusEvents(svc, id)).toEqual([
      { messageId: id, status: 'sent', reason: null },
      { messageId: id, status: 'delivered', reason: null },
    ]);

    // Nothing further happens, however far the clock goes.
    await svc.advanceJobs(3600);
    expect(await status(id)).toBe('delivered');
    expect(await statusEvents(svc, id)).toHaveLength(2);
    expect(await chargesFor(svc, id)).toHaveLength(1);
    expect(await jobCount(svc, 'message.progress')).toBe(0);
  });

  it('ends +15005550001 failed (invalid destination) and +15005550004 undelivered (blocked by carrier), through sent', async () => {
    const failed = await svc.call('POST', '/v1/messages', { body: { to: '+15005550001', from, body: 'x' } });
    const undelivered = await svc.call('POST', '/v1/messages', { body: { to: '+15005550004', from, body: 'y' } });
    await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 1 } });
    expect((await svc.call('GET', `/v1/messages/${failed.body.id}`)).body).toMatchObject({ status: 'failed', reason: 'invalid destination' });
    expect((await svc.call('GET', `/v1/messages/${undelivered.body.id}`)).body).toMatchObject({ status: 'undelivered', reason: 'blocked by carrier' });
    expect(await statusEvents(svc, failed.body.id)).toEqual([
      { messageId: failed.body.id, status: 'sent', reason: null },
      { messageId: failed.body.id, status: 'failed', reason: 'invalid destination' },
    ]);
    expect(await statusEvents(svc, undelivered.body.id)).toEqual([
      { messageId: undelivered.body.id, status: 'sent', reason: null },
      { messageId: undelivered.body.id, status: 'undelivered', reason: 'blocked by carrier' },
    ]);
  });

  it('bills an MMS per message', async () => {
    const res = await svc.call('POST', '/v1/messages', { body: { to: '+14155550141', from, body: 'a'.repeat(400), mediaUrls: ['https://e.test/a.png'] } });
    await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 1 } });
    expect(await chargesFor(svc, res.body.id)).toMatchObject([{ category: 'mms', quantity: 1, amountCents: PRICES.mmsMessage }]);
  });

  it('plays the magic destinations at once for test sends, and charges nothing', async () => {
    for (const [to, final, reason] of [
      ['+15005550001', 'failed', 'invalid destination'],
      ['+15005550004', 'undelivered', 'blocked by carrier'],
      ['+14155550142', 'delivered', null],
    ] as const) {
      const res = await svc.call('POST', '/v1/messages', { key: svc.bootstrap.testKey, body: { to, from, body: 't' } });
      expect(res.body.status).toBe('queued');
      expect((await svc.call('GET', `/v1/messages/${res.body.id}`)).body).toMatchObject({ status: final, reason, test: true });
      expect(await statusEvents(svc, res.body.id)).toEqual([
        { messageId: res.body.id, status: 'sent', reason: null },
        { messageId: res.body.id, status: final, reason },
      ]);
      expect(await chargesFor(svc, res.body.id)).toEqual([]);
    }
  });

  it('emits message.received for an inbound text', async () => {
    const res = await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550143', to: from, body: 'Is it open?' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ direction: 'inbound', status: 'received', from: '+14155550143', to: from, channel: 'sms', segments: 1 });
    const events = (await feedEvents(svc, { types: 'message.received' })).filter((e) => e.messageId === res.body.id);
    expect(events).toHaveLength(1);
    const { eventId, ...body } = events[0]!;
    expect(eventId).toEqual(expect.any(String));
    expect(body).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'message.received',
      createdAt: res.body.createdAt,
      messageId: res.body.id,
      from: '+14155550143',
      to: from,
      body: 'Is it open?',
      receivedAt: res.body.createdAt,
      providerMessageId: expect.any(String),
    });
  });
});

describe('a restart mid-flight', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('finishes the message from the durable jobs', async () => {
    const first = await startTestService({ dataDir });
    const from = (await liveNumber(first)).phoneNumber;
    const res = await first.call('POST', '/v1/messages', { body: { to: '+14155550150', from, body: 'survive' } });
    const id = res.body.id;
    await first.advanceJobs(0.3);
    expect((await first.call('GET', `/v1/messages/${id}`)).body.status).toBe('sending');
    await first.stop();

    const second = await startTestService({ dataDir });
    try {
      expect(second.bootstrap.accountId).toBe(first.bootstrap.accountId);
      expect((await second.call('GET', `/v1/messages/${id}`)).body.status).toBe('sending');
      await second.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 1 } });
      expect((await second.call('GET', `/v1/messages/${id}`)).body.status).toBe('delivered');
      expect((await statusEvents(second, id)).map((e) => e.status)).toEqual(['sent', 'delivered']);
      expect(await chargesFor(second, id)).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });
});

describe('the system clock', () => {
  it('delivers a live send in about a second without any advance', async () => {
    const svc = await startTestService({ clock: 'system' });
    try {
      const from = (await liveNumber(svc)).phoneNumber;
      const res = await svc.call('POST', '/v1/messages', { body: { to: '+14155550160', from, body: 'real time' } });
      const started = Date.now();
      let status = res.body.status;
      while (status !== 'delivered' && Date.now() - started < 5000) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await svc.call('GET', `/v1/messages/${res.body.id}`)).body.status;
      }
      expect(status).toBe('delivered');
      expect(Date.now() - started).toBeLessThan(2500);
    } finally {
      await svc.stop();
    }
  });
});

describe('the agency summary', () => {
  it("counts a sub-account's numbers, messages and spend from these tables", async () => {
    const svc = await startTestService();
    try {
      const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Counted' } });
      const headers = { 'service-subaccount': sub.body.id };
      const n = await liveNumber(svc, { headers });
      await svc.call('POST', '/v1/messages', { headers, body: { from: n.phoneNumber, to: '+14155550170', body: 'a'.repeat(161) } });
      await svc.call('POST', '/v1/messages', { headers, key: svc.bootstrap.testKey, body: { from: n.phoneNumber, to: '+14155550170', body: 'free' } });
      await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 1 } });
      const summary = await svc.call('GET', '/v1/agency/summary');
      expect(summary.body.subaccounts).toEqual([
        { id: sub.body.id, name: 'Counted', status: 'active', numbers: 1, messagesThisMonth: 2, spendThisMonthCents: PRICES.localNumberMonthly + 2 * PRICES.smsSegment },
      ]);
    } finally {
      await svc.stop();
    }
  });
});
