import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { acceptEmail, emailEvents, storedEmail } from './helpers/email-fixtures.js';
import { MAIL_SIMULATOR_TIMINGS as T, SIMULATOR_DEFAULT_CLICK_URL } from '../src/api/values/email.js';
import { mailboxFor, suppressionOf } from './helpers/reads.js';

// contract §8 (the simulated mail server, the status aggregation, the timeline), spec: Event catalog
// (`email.*`, the common email fields and the status each carries, the bcc rule).

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

/** Past every script's last step. */
const SETTLE_SECS = 60;
const ALL_DONE = T.deliverAfterSecs + T.deferRetryAfterSecs + T.engageAfterSecs + T.clickAfterOpenSecs;

const COMMON_KEYS = ['emailId', 'recipient', 'recipientKind', 'occurredAt', 'tags', 'metadata', 'externalRef', 'status'];

/** spec: Event catalog — each email event's recipient status. */
const EMAIL_EVENT_STATUS: Record<string, string> = {
  'email.sent': 'sent',
  'email.delivered': 'delivered',
  'email.opened': 'delivered',
  'email.clicked': 'delivered',
  'email.unsubscribed': 'delivered',
  'email.deferred': 'deferred',
  'email.bounced': 'bounced',
  'email.failed': 'failed',
  'email.complained': 'complained',
};

function expectCommonFields(e: any, emailId: string, recipient: string | undefined, kind: string): void {
  expect(e.emailId).toBe(emailId);
  if (recipient === undefined) expect(e).not.toHaveProperty('recipient');
  else expect(e.recipient).toBe(recipient);
  expect(e.recipientKind).toBe(kind);
  expect(Number.isNaN(Date.parse(e.occurredAt))).toBe(false);
  expect(e.tags).toEqual(['receipt']);
  expect(e.metadata).toEqual({ orderId: 'o-77' });
  expect(e.externalRef).toBe('ref-1');
  expect(e.status).toBe(EMAIL_EVENT_STATUS[e.type]);
}

const common = { tags: ['receipt'], metadata: { orderId: 'o-77' }, externalRef: 'ref-1' };

interface Case {
  address: string;
  types: string[];
  recipientStatus: string;
  emailStatus: string;
  suppression: string | null;
  stamp?: 'openedAt' | 'clickedAt' | 'complainedAt' | 'unsubscribedAt';
}

const CASES: Case[] = [
  { address: 'dana@example.com', types: ['email.sent', 'email.delivered'], recipientStatus: 'delivered', emailStatus: 'delivered', suppression: null },
  { address: 'bounce@simulator.test', types: ['email.sent', 'email.bounced'], recipientStatus: 'bounced', emailStatus: 'bounced', suppression: 'hard_bounce' },
  { address: 'soft-bounce@simulator.test', types: ['email.sent', 'email.bounced'], recipientStatus: 'bounced', emailStatus: 'bounced', suppression: null },
  { address: 'defer@simulator.test', types: ['email.sent', 'email.deferred', 'email.delivered'], recipientStatus: 'delivered', emailStatus: 'delivered', suppression: null },
  { address: 'complaint@simulator.test', types: ['email.sent', 'email.delivered', 'email.complained'], recipientStatus: 'delivered', emailStatus: 'delivered', suppression: 'complaint', stamp: 'complainedAt' },
  { address: 'open@simulator.test', types: ['email.sent', 'email.delivered', 'email.opened'], recipientStatus: 'delivered', emailStatus: 'delivered', suppression: null, stamp: 'openedAt' },
  { address: 'click@simulator.test', types: ['email.sent', 'email.delivered', 'email.opened', 'email.clicked'], recipientStatus: 'delivered', emailStatus: 'delivered', suppression: null, stamp: 'clickedAt' },
  { address: 'unsubscribe@simulator.test', types: ['email.sent', 'email.delivered', 'email.unsubscribed'], recipientStatus: 'delivered', emailStatus: 'delivered', suppression: 'unsubscribe', stamp: 'unsubscribedAt' },
];

describe('the simulated mail server, address by address', () => {
  it.each(CASES)('$address → $types', async (c) => {
    // A fresh account per case keeps suppressions apart (the same simulator address is reused).
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: `Mail ${c.address}` } });
    expect(sub.status).toBe(201);
    const headers = { 'service-subaccount': sub.body.id };
    const html = '<p>Hi! <a href="https://shop.example/track/1">track your order</a></p>';
    const id = await acceptEmail(svc, { accountId: sub.body.id, to: [c.address], html, ...common });
    const acceptedAt = svc.now();
    expect((await storedEmail(svc, id)).status).toBe('queued');
    expect(await emailEvents(svc, id, headers)).toEqual([]);

    await svc.advanceJobs(SETTLE_SECS);
    const events = await emailEvents(svc, id, headers);
    expect(events.map((e) => e.type)).toEqual(c.types);
    for (const e of events) expectCommonFields(e, id, c.address, 'to');
    // Each event at its step's time on the service clock.
    expect(Date.parse(events[0].occurredAt)).toBe(acceptedAt);
    expect(Date.parse(events[1].occurredAt)).toBe(acceptedAt + T.deliverAfterSecs * 1000);

    const stored = await storedEmail(svc, id);
    expect(stored.status).toBe(c.emailStatus);
    expect(stored.recipients[0]!.status).toBe(c.recipientStatus);
    if (c.recipientStatus === 'delivered') expect(stored.recipients[0]!.deliveredAt).not.toBeNull();
    if (c.stamp) expect(stored.recipients[0]![c.stamp]).toBe(Date.parse(events[events.length - 1].occurredAt));
    const suppression = await suppressionOf(svc, c.address, { headers });
    if (c.suppression) expect(suppression).toMatchObject({ reason: c.suppression, emailId: id });
    else expect(suppression).toBeUndefined();

    const timeline = await svc.call('GET', `/v1/emails/${id}/events`, { headers });
    expect(timeline.status).toBe(200);
    expect(timeline.body.data.map((e: any) => [e.type, e.status, e.occurredAt])).toEqual(events.map((e) => [e.type, e.status, e.occurredAt]));
  });

  it('bounces hard with 550 and soft with 452, in the event and the timeline', async () => {
    const id = await acceptEmail(svc, { to: ['bounce@simulator.test', 'soft-bounce@simulator.test'], ...common });
    await svc.advanceJobs(SETTLE_SECS);
    const bounced = (await emailEvents(svc, id)).filter((e) => e.type === 'email.bounced');
    expect(bounced).toHaveLength(2);
    expect(bounced.find((e) => e.recipient === 'bounce@simulator.test').bounce).toEqual({ class: 'hard', code: 550, message: '5.1.1 user unknown' });
    expect(bounced.find((e) => e.recipient === 'soft-bounce@simulator.test').bounce).toEqual({ class: 'soft', code: 452, message: '4.2.2 mailbox full' });
    const timeline = (await svc.call('GET', `/v1/emails/${id}/events`)).body.data.filter((e: any) => e.type === 'email.bounced');
    expect(timeline.map((e: any) => e.bounce.class).sort()).toEqual(['hard', 'soft']);
    expect((await storedEmail(svc, id)).status).toBe('bounced');
    // A soft bounce is not suppressed; a hard one is.
    expect(await suppressionOf(svc, 'soft-bounce@simulator.test')).toBeUndefined();
    expect((await suppressionOf(svc, 'bounce@simulator.test'))?.reason).toBe('hard_bounce');
  });

  it('clicks the first http(s) link of the html, or the default when there is none', async () => {
    const withLink = await acceptEmail(svc, { to: ['click@simulator.test'], html: '<a href="mailto:a@b.c">m</a><a href="https://first.example/x">x</a><a href="https://second.example">y</a>' });
    const without = await acceptEmail(svc, { to: ['click+plain@simulator.test'], html: null, text: 'no links here' });
    await svc.advanceJobs(SETTLE_SECS);
    const url = async (id: string) => (await emailEvents(svc, id)).find((e) => e.type === 'email.clicked').url;
    expect(await url(withLink)).toBe('https://first.example/x');
    expect(await url(without)).toBe(SIMULATOR_DEFAULT_CLICK_URL);
    const timeline = (await svc.call('GET', `/v1/emails/${withLink}/events`)).body.data;
    expect(timeline.find((e: any) => e.type === 'email.clicked').url).toBe('https://first.example/x');
  });

  it('unsubscribes by one click, in the event and the timeline', async () => {
    const id = await acceptEmail(svc, { to: ['unsubscribe+news@simulator.test'] });
    await svc.advanceJobs(SETTLE_SECS);
    expect((await emailEvents(svc, id)).find((e) => e.type === 'email.unsubscribed').method).toBe('one_click');
    const entry = (await svc.call('GET', `/v1/emails/${id}/events`)).body.data.find((e: any) => e.type === 'email.unsubscribed');
    expect(entry).toMatchObject({ method: 'one_click', status: 'delivered', recipient: 'unsubscribe+news@simulator.test' });
  });

  it('ignores a +label and case in the local part; suppresses the address lower-case, keeps it as given on the email', async () => {
    const id = await acceptEmail(svc, { to: ['Bounce+Promo@Simulator.TEST'] });
    await svc.advanceJobs(SETTLE_SECS);
    const events = await emailEvents(svc, id);
    expect(events.map((e) => e.type)).toEqual(['email.sent', 'email.bounced']);
    expect(events[1].recipient).toBe('Bounce+Promo@Simulator.TEST');
    expect((await suppressionOf(svc, 'bounce+promo@simulator.test'))?.reason).toBe('hard_bounce');
    // A local part that only starts like a simulator address is an ordinary address.
    const other = await acceptEmail(svc, { to: ['bouncer@simulator.test'] });
    await svc.advanceJobs(SETTLE_SECS);
    expect((await emailEvents(svc, other)).map((e) => e.type)).toEqual(['email.sent', 'email.delivered']);
  });

  it('retries a deferral after the retry delay: sent while deferred, delivered after', async () => {
    const id = await acceptEmail(svc, { to: ['defer+retry@simulator.test'] });
    const start = svc.now();
    await svc.advanceJobs(T.deliverAfterSecs);
    expect((await storedEmail(svc, id)).recipients[0]!.status).toBe('deferred');
    expect((await storedEmail(svc, id)).status).toBe('sent');
    await svc.advanceJobs(T.deferRetryAfterSecs - 1);
    expect((await storedEmail(svc, id)).recipients[0]!.status).toBe('deferred');
    await svc.advanceJobs(1);
    expect((await storedEmail(svc, id)).status).toBe('delivered');
    const events = await emailEvents(svc, id);
    expect(events.map((e) => [e.type, e.status, Date.parse(e.occurredAt) - start])).toEqual([
      ['email.sent', 'sent', 0],
      ['email.deferred', 'deferred', T.deliverAfterSecs * 1000],
      ['email.delivered', 'delivered', (T.deliverAfterSecs + T.deferRetryAfterSecs) * 1000],
    ]);
  });
});

describe('the email status through real deliveries (contract §8)', () => {
  it('queued → sent → delivered when every recipient is delivered', async () => {
    const id = await acceptEmail(svc, { to: ['a@example.com'], cc: ['b@example.org'] });
    expect((await storedEmail(svc, id)).status).toBe('queued');
    await svc.advanceJobs(0);
    expect((await storedEmail(svc, id)).status).toBe('sent');
    expect((await storedEmail(svc, id)).recipients.map((r) => r.status)).toEqual(['sent', 'sent']);
    await svc.advanceJobs(T.deliverAfterSecs);
    expect((await storedEmail(svc, id)).status).toBe('delivered');
  });

  it('bounced when every recipient bounced', async () => {
    const id = await acceptEmail(svc, { to: ['bounce+1@simulator.test', 'soft-bounce+1@simulator.test'] });
    await svc.advanceJobs(SETTLE_SECS);
    expect((await storedEmail(svc, id)).status).toBe('bounced');
  });

  it('partially_delivered when some were delivered and some bounced; sent while one is still deferred', async () => {
    const id = await acceptEmail(svc, { to: ['c@example.com', 'defer+2@simulator.test'], bcc: ['bounce+2@simulator.test'] });
    await svc.advanceJobs(T.deliverAfterSecs);
    expect((await storedEmail(svc, id)).recipients.map((r) => r.status)).toEqual(['delivered', 'deferred', 'bounced']);
    expect((await storedEmail(svc, id)).status).toBe('sent');
    await svc.advanceJobs(ALL_DONE);
    expect((await storedEmail(svc, id)).status).toBe('partially_delivered');
  });

  it('a recipient suppressed at the accept is never handed over and does not hold the email back', async () => {
    const id = await acceptEmail(svc, { to: ['d@example.com', 'gone@example.com'], suppressed: ['gone@example.com'] });
    await svc.advanceJobs(SETTLE_SECS);
    expect((await storedEmail(svc, id)).recipients.map((r) => r.status)).toEqual(['delivered', 'suppressed']);
    expect((await storedEmail(svc, id)).status).toBe('delivered');
    expect((await emailEvents(svc, id)).map((e) => e.recipient)).toEqual(['d@example.com', 'd@example.com']);
  });

  it('failed when every address was suppressed by the time of the handover (no events)', async () => {
    const earlier = await acceptEmail(svc, { to: ['late@example.com'] });
    await svc.advanceJobs(SETTLE_SECS);
    const id = await acceptEmail(svc, { to: ['Late@Example.com'] });
    // A complaint about an earlier email lands between this one's accept and its handover.
    const complaint = await svc.call('POST', '/v1/sandbox/email-events', { body: { emailId: earlier, recipient: 'late@example.com', type: 'complaint' } });
    expect(complaint.status, complaint.text).toBe(200);
    expect((await suppressionOf(svc, 'late@example.com'))?.reason).toBe('complaint');
    expect((await storedEmail(svc, id)).status).toBe('queued');
    await svc.advanceJobs(SETTLE_SECS);
    expect((await storedEmail(svc, id)).status).toBe('failed');
    expect((await storedEmail(svc, id)).recipients[0]!.status).toBe('suppressed');
    expect(await emailEvents(svc, id)).toEqual([]);
  });
});

describe('bcc recipients (spec: Event catalog — the bcc rule)', () => {
  it('omits `recipient` for bcc recipients that share a domain, in the events and the timeline', async () => {
    const id = await acceptEmail(svc, { to: ['to@example.com'], bcc: ['x@bcc.example', 'y@BCC.example', 'lone@other.example'], ...common });
    await svc.advanceJobs(SETTLE_SECS);
    const events = await emailEvents(svc, id);
    expect(events).toHaveLength(8);
    const bcc = events.filter((e) => e.recipientKind === 'bcc');
    expect(bcc).toHaveLength(6);
    expect(bcc.filter((e) => !('recipient' in e))).toHaveLength(4);
    expect(bcc.filter((e) => e.recipient === 'lone@other.example')).toHaveLength(2);
    for (const e of events) expect(Object.keys(e)).toEqual(expect.arrayContaining(COMMON_KEYS.filter((k) => k !== 'recipient')));
    const timeline = (await svc.call('GET', `/v1/emails/${id}/events`)).body.data;
    expect(timeline.map((e: any) => e.recipient ?? null)).toEqual(events.map((e) => e.recipient ?? null));
    expect(timeline.map((e: any) => e.recipientKind)).toEqual(events.map((e) => e.recipientKind));
  });
});

describe('test-key emails (spec: Authentication 2)', () => {
  it('walk their recipients and emit the events, but put nothing in the mail sandbox', async () => {
    const id = await acceptEmail(svc, { mode: 'test', to: ['open+test@simulator.test', 'plain-test@example.com'] });
    await svc.advanceJobs(SETTLE_SECS);
    const events = await emailEvents(svc, id);
    expect(events.map((e) => e.type)).toEqual(['email.sent', 'email.sent', 'email.delivered', 'email.delivered', 'email.opened']);
    expect((await storedEmail(svc, id)).status).toBe('delivered');
    for (const to of ['open+test@simulator.test', 'plain-test@example.com']) expect(await mailboxFor(svc, to, id)).toEqual([]);
  });
});

describe('GET /v1/emails/{id}/events', () => {
  it('answers the timeline oldest first and 404 for another account or an unknown id', async () => {
    const id = await acceptEmail(svc, { to: ['click+tl@simulator.test'], cc: ['bounce+tl@simulator.test'] });
    await svc.advanceJobs(SETTLE_SECS);
    const res = await svc.call('GET', `/v1/emails/${id}/events`);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.length).toBe(6);
    expect(data.map((e: any) => `${e.type} ${e.recipientKind}`)).toEqual([
      'email.sent to',
      'email.sent cc',
      'email.delivered to',
      'email.bounced cc',
      'email.opened to',
      'email.clicked to',
    ]);
    const times = data.map((e: any) => Date.parse(e.occurredAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(data[3].bounce.class).toBe('hard');
    expect(data[2]).not.toHaveProperty('bounce');
    expect(data[2]).not.toHaveProperty('url');
    expect(data[2]).not.toHaveProperty('method');

    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Nosy Co' } });
    const other = await svc.call('GET', `/v1/emails/${id}/events`, { headers: { 'service-subaccount': sub.body.id } });
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
    expect((await svc.call('GET', '/v1/emails/eml_nope/events')).status).toBe(404);
  });
});

describe('restarts', () => {
  it('resume a pending delivery: the handover and the steps are durable jobs', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-mail-'));
    try {
      const first = await startTestService({ dataDir });
      const midway = await acceptEmail(first, { to: ['defer+restart@simulator.test'] });
      await first.advanceJobs(T.deliverAfterSecs);
      // Deferred, its retry due later; a second email accepted, its handover not run yet.
      const waiting = await acceptEmail(first, { to: ['e@example.com'] });
      await first.stop();

      const second = await startTestService({ dataDir });
      expect((await storedEmail(second, waiting)).status).toBe('queued');
      expect((await storedEmail(second, midway)).recipients[0]!.status).toBe('deferred');
      await second.advanceJobs(SETTLE_SECS);
      for (const id of [waiting, midway]) expect((await storedEmail(second, id)).status).toBe('delivered');
      expect((await emailEvents(second, midway)).map((e) => e.type)).toEqual(['email.sent', 'email.deferred', 'email.delivered']);
      expect((await emailEvents(second, waiting)).map((e) => e.type)).toEqual(['email.sent', 'email.delivered']);
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
