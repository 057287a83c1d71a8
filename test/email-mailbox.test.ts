import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { acceptEmail, addSendingDomain, emailEvents, freshDomain, storedEmail } from './helpers/email-fixtures.js';
import { expectError } from './messages-fixtures.js';
import { suppressionOf } from './helpers/reads.js';
import { MAIL_SIMULATOR_TIMINGS as T } from '../src/api/values/email.js';

// contract §8 (extension: the mail sandbox, `GET /v1/sandbox/mailbox` with the events feed's
// after/wait), §9 (`POST /v1/sandbox/email-events`).

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const SETTLE_SECS = 60;

/** A fresh sub-account: its mailbox starts empty. */
async function freshAccount(name: string): Promise<{ accountId: string; headers: Record<string, string> }> {
  const sub = await svc.call('POST', '/v1/subaccounts', { body: { name } });
  expect(sub.status).toBe(201);
  return { accountId: sub.body.id, headers: { 'service-subaccount': sub.body.id } };
}

const mailbox = (query: string, headers?: Record<string, string>) => svc.call('GET', `/v1/sandbox/mailbox${query}`, { headers });

describe('GET /v1/sandbox/mailbox', () => {
  it('keeps one message per delivered recipient of a live email (bcc included), oldest first, with its rendered parts', async () => {
    const { accountId, headers } = await freshAccount('Mailbox Co');
    const html = '<h1>Order&nbsp;#7</h1><p>Thanks &amp; <b>welcome</b>.<br>See <a href="https://shop.example">the shop</a></p>';
    const first = await acceptEmail(svc, { accountId, to: ['Ann@Example.com'], cc: ['bounce+mb@simulator.test'], bcc: ['hidden@example.org'], subject: 'Order 7', html, text: null, tags: ['order'] });
    await svc.advanceJobs(SETTLE_SECS);
    const second = await acceptEmail(svc, { accountId, to: ['ann@example.com'], subject: 'Plain', html: null, text: 'Just text.' });
    await svc.advanceJobs(SETTLE_SECS);

    const res = await mailbox('', headers);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.length).toBe(3);
    expect(data.map((m: any) => [m.emailId, m.to])).toEqual([
      [first, 'Ann@Example.com'],
      [first, 'hidden@example.org'],
      [second, 'ann@example.com'],
    ]);
    expect(data[0]).toMatchObject({ subject: 'Order 7', html, text: 'Order #7\nThanks & welcome.\nSee the shop', tags: ['order'] });
    expect(data[0].id).toMatch(/^mbx_/);
    expect(data[0].from).toBe((await storedEmail(svc, first)).from);
    expect(data[0].deliveredAt).toBe(new Date((await storedEmail(svc, first)).recipients[0]!.deliveredAt!).toISOString());
    expect(data[2]).toMatchObject({ subject: 'Plain', text: 'Just text.', html: null });
  });

  it('filters by `to` case-insensitively and pages on with the cursor', async () => {
    const { accountId, headers } = await freshAccount('Filter Co');
    await acceptEmail(svc, { accountId, to: ['Zed@Example.com', 'amy@example.com'] });
    await svc.advanceJobs(SETTLE_SECS);
    const zed = await mailbox('?to=zed%40EXAMPLE.com', headers);
    expect(zed.body.data.map((m: any) => m.to)).toEqual(['Zed@Example.com']);
    const none = await mailbox('?to=nobody%40example.com', headers);
    expect(none.body.data).toEqual([]);

    const page1 = await mailbox('?limit=1', headers);
    expect(page1.body.data.map((m: any) => m.to)).toEqual(['Zed@Example.com']);
    const page2 = await mailbox(`?limit=1&after=${page1.body.cursor}`, headers);
    expect(page2.body.data.map((m: any) => m.to)).toEqual(['amy@example.com']);
    const page3 = await mailbox(`?after=${page2.body.cursor}`, headers);
    expect(page3.body.data).toEqual([]);
    expect(page3.body.cursor).toBe(page2.body.cursor);

    // after=now: nothing, and a cursor that reads only what comes next.
    const head = await mailbox('?after=now', headers);
    expect(head.body.data).toEqual([]);
    await acceptEmail(svc, { accountId, to: ['next@example.com'] });
    await svc.advanceJobs(SETTLE_SECS);
    expect((await mailbox(`?after=${head.body.cursor}`, headers)).body.data.map((m: any) => m.to)).toEqual(['next@example.com']);
  });

  it('shows only the acting account\'s messages', async () => {
    const a = await freshAccount('Tenant A');
    const b = await freshAccount('Tenant B');
    await acceptEmail(svc, { accountId: a.accountId, to: ['tenant-a@example.com'] });
    await svc.advanceJobs(SETTLE_SECS);
    expect((await mailbox('', a.headers)).body.data.map((m: any) => m.to)).toEqual(['tenant-a@example.com']);
    expect((await mailbox('', b.headers)).body.data).toEqual([]);
  });

  it('holds nothing for a test-key email (its events still go out)', async () => {
    const { accountId, headers } = await freshAccount('Test Mode Co');
    const id = await acceptEmail(svc, { accountId, mode: 'test', to: ['t@example.com'] });
    await svc.advanceJobs(SETTLE_SECS);
    expect((await emailEvents(svc, id, headers)).map((e) => e.type)).toEqual(['email.sent', 'email.delivered']);
    expect((await mailbox('', headers)).body.data).toEqual([]);
  });

  it('refuses a malformed cursor and a wait out of range, naming the parameter', async () => {
    expectError(await mailbox('?after=bogus'), 400, 'validation_error', ['query', 'after']);
    expectError(await mailbox(`?after=${Buffer.from('ev1.3').toString('base64url')}`), 400, 'validation_error', ['query', 'after']);
    expectError(await mailbox('?wait=31'), 400, 'validation_error', ['query', 'wait']);
    expectError(await mailbox('?limit=101'), 400, 'validation_error', ['query', 'limit']);
    // At the limits: wait=30 and limit=100 pass (a message is there, so nothing is held).
    const { accountId, headers } = await freshAccount('Bounds Co');
    await acceptEmail(svc, { accountId, to: ['b@example.com'] });
    await svc.advanceJobs(SETTLE_SECS);
    const started = Date.now();
    const atLimits = await mailbox('?wait=30&limit=100', headers);
    expect(atLimits.status).toBe(200);
    expect(atLimits.body.data).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('wait: a held request is released by a delivery, with that message', async () => {
    const { accountId, headers } = await freshAccount('Waiter Co');
    const head = (await mailbox('?after=now', headers)).body.cursor;
    const started = Date.now();
    const held = mailbox(`?after=${head}&wait=20&to=arrives%40example.com`, headers);
    // Something else arriving first does not release it (the filter is re-read on every wake).
    await acceptEmail(svc, { accountId, to: ['other@example.com'] });
    await svc.advanceJobs(SETTLE_SECS);
    await new Promise((r) => setTimeout(r, 100));
    await acceptEmail(svc, { accountId, to: ['Arrives@Example.com'] });
    await svc.advanceJobs(T.deliverAfterSecs);
    const res = await held;
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: any) => m.to)).toEqual(['Arrives@Example.com']);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('wait: a held request with nothing new answers empty with the same cursor when its time runs out', async () => {
    const { headers } = await freshAccount('Patient Co');
    const head = (await mailbox('?after=now', headers)).body.cursor;
    const started = Date.now();
    const res = await mailbox(`?after=${head}&wait=1`, headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], cursor: head });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });
});

describe('GET /v1/sandbox/mailbox while the service closes', () => {
  it('answers a held request at once, with no messages and its cursor', async () => {
    const own = await startTestService();
    try {
      const head = (await own.call('GET', '/v1/sandbox/mailbox?after=now')).body.cursor;
      const started = Date.now();
      const held = own.call('GET', `/v1/sandbox/mailbox?after=${head}&wait=30`);
      await new Promise((r) => setTimeout(r, 200));
      const closing = own.stop();
      const res = await held;
      await closing;
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], cursor: head });
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await own.stop();
    }
  });
});

describe('POST /v1/sandbox/email-events', () => {
  const report = (emailId: string, recipient: string, type: string, headers?: Record<string, string>) =>
    svc.call('POST', '/v1/sandbox/email-events', { body: { emailId, recipient, type }, headers });

  it('fail: a sent recipient fails (email.failed with its failure, not suppressed); all failed → the email is failed; delivered → 409', async () => {
    const { accountId, headers } = await freshAccount('Fail Co');
    const id = await acceptEmail(svc, { accountId, to: ['lost@example.com'] });
    const other = await acceptEmail(svc, { accountId, to: ['fine@example.com'] });
    await svc.advanceJobs(0);
    const failed = await report(id, 'lost@example.com', 'fail', headers);
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    expect(failed.body.recipients.map((r: any) => r.status)).toEqual(['failed']);
    expect(failed.body.status).toBe('failed');
    expect(await suppressionOf(svc, 'lost@example.com', { headers })).toBeUndefined();
    const events = await emailEvents(svc, id, headers);
    expect(events.map((e) => e.type)).toEqual(['email.sent', 'email.failed']);
    expect(events[1]).toMatchObject({ status: 'failed', recipient: 'lost@example.com', bounce: { class: 'unknown', code: null } });
    const feed = await svc.call('GET', '/v1/events?types=email.failed', { headers });
    expect(feed.body.data).toHaveLength(1);
    expect(feed.body.data[0]).toMatchObject({ emailId: id, status: 'failed', recipientKind: 'to', bounce: { class: 'unknown' } });
    await svc.advanceJobs(T.deliverAfterSecs);
    expect((await storedEmail(svc, id)).recipients.map((r) => r.status)).toEqual(['failed']);
    const late = await report(other, 'fine@example.com', 'fail', headers);
    expectError(late, 409, 'conflict');
    expect(late.body.error.message).toMatch(/cannot fail/);
  });

  it('bounce: a sent or deferred recipient bounces hard (suppressed); queued or delivered → 409', async () => {
    const { accountId, headers } = await freshAccount('Bounce Co');
    const id = await acceptEmail(svc, { accountId, to: ['Sent@Example.com', 'defer+sb@simulator.test', 'done@example.com'] });
    expectError(await report(id, 'sent@example.com', 'bounce', headers), 409, 'conflict');
    await svc.advanceJobs(0);
    const bounced = await report(id, 'SENT@example.com', 'bounce', headers);
    expect(bounced.status, JSON.stringify(bounced.body)).toBe(200);
    expect(bounced.body.id).toBe(id);
    expect(bounced.body.recipients.map((r: any) => r.status)).toEqual(['bounced', 'sent', 'sent']);
    expect(bounced.body.status).toBe('sent');
    expect(await suppressionOf(svc, 'sent@example.com', { headers })).toMatchObject({ reason: 'hard_bounce', emailId: id });

    await svc.advanceJobs(T.deliverAfterSecs);
    expect((await storedEmail(svc, id)).recipients.map((r) => r.status)).toEqual(['bounced', 'deferred', 'delivered']);
    const conflict = await report(id, 'done@example.com', 'bounce', headers);
    expectError(conflict, 409, 'conflict');
    expect(conflict.body.error.message).toMatch(/delivered/);
    expectError(await report(id, 'sent@example.com', 'bounce', headers), 409, 'conflict');
    // The deferred one bounces; its retry, due later, then does nothing.
    expect((await report(id, 'defer+sb@simulator.test', 'bounce', headers)).status).toBe(200);
    await svc.advanceJobs(SETTLE_SECS);
    const stored = await storedEmail(svc, id);
    expect(stored.recipients.map((r) => r.status)).toEqual(['bounced', 'bounced', 'delivered']);
    expect(stored.status).toBe('partially_delivered');
    const events = await emailEvents(svc, id, headers);
    expect(events.map((e) => `${e.type} ${e.recipient}`)).toEqual([
      'email.sent Sent@Example.com',
      'email.sent defer+sb@simulator.test',
      'email.sent done@example.com',
      'email.bounced Sent@Example.com',
      'email.deferred defer+sb@simulator.test',
      'email.delivered done@example.com',
      'email.bounced defer+sb@simulator.test',
    ]);
    expect(events[3]).toMatchObject({ status: 'bounced', bounce: { class: 'hard', code: 550 } });
    // No mail sandbox row for a bounced recipient.
    expect((await mailbox('', headers)).body.data.map((m: any) => m.to)).toEqual(['done@example.com']);
  });

  it('open, click, complaint and unsubscribe need a delivered recipient, with the simulator\'s effects', async () => {
    const { accountId, headers } = await freshAccount('Engage Co');
    const id = await acceptEmail(svc, { accountId, to: ['reader@example.com'], html: '<a href="http://promo.example/p">promo</a>', tags: ['t1'], externalRef: 'x-9' });
    await svc.advanceJobs(0);
    for (const type of ['open', 'click', 'complaint', 'unsubscribe']) {
      const refused = await report(id, 'reader@example.com', type, headers);
      expectError(refused, 409, 'conflict');
      expect(refused.body.error.message).toMatch(/delivered/);
    }
    await svc.advanceJobs(T.deliverAfterSecs);

    const idem = { ...headers, 'idempotency-key': 'open-once' };
    const opened = await svc.call('POST', '/v1/sandbox/email-events', { body: { emailId: id, recipient: 'reader@example.com', type: 'open' }, headers: idem });
    expect(opened.status).toBe(200);
    // A retry with the same Idempotency-Key replays the answer and reports nothing again.
    const replay = await svc.call('POST', '/v1/sandbox/email-events', { body: { emailId: id, recipient: 'reader@example.com', type: 'open' }, headers: idem });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(opened.body);
    expect(opened.body.recipients[0].openedAt).not.toBeNull();
    await svc.advanceJobs(5);
    // A second open is another event; the timestamp keeps the first.
    expect((await report(id, 'reader@example.com', 'open', headers)).body.recipients[0].openedAt).toBe(opened.body.recipients[0].openedAt);
    const clicked = await report(id, 'reader@example.com', 'click', headers);
    expect(clicked.body.recipients[0].clickedAt).not.toBeNull();
    const unsubscribed = await report(id, 'reader@example.com', 'unsubscribe', headers);
    expect(unsubscribed.body.recipients[0].unsubscribedAt).not.toBeNull();
    expect((await suppressionOf(svc, 'reader@example.com', { headers }))?.reason).toBe('unsubscribe');
    expectError(await report(id, 'reader@example.com', 'unsubscribe', headers), 409, 'conflict');
    const complained = await report(id, 'reader@example.com', 'complaint', headers);
    expect(complained.body.recipients[0].complainedAt).not.toBeNull();
    expect(complained.body.status).toBe('delivered');
    // contract §8: a complaint outranks the earlier unsubscribe.
    expect((await suppressionOf(svc, 'reader@example.com', { headers }))?.reason).toBe('complaint');
    expectError(await report(id, 'reader@example.com', 'complaint', headers), 409, 'conflict');

    const events = await emailEvents(svc, id, headers);
    expect(events.map((e) => [e.type, e.status])).toEqual([
      ['email.sent', 'sent'],
      ['email.delivered', 'delivered'],
      ['email.opened', 'delivered'],
      ['email.opened', 'delivered'],
      ['email.clicked', 'delivered'],
      ['email.unsubscribed', 'delivered'],
      ['email.complained', 'complained'],
    ]);
    expect(events[4].url).toBe('http://promo.example/p');
    expect(events[5].method).toBe('one_click');
    for (const e of events) expect(e).toMatchObject({ emailId: id, recipient: 'reader@example.com', recipientKind: 'to', tags: ['t1'], externalRef: 'x-9' });
    const timeline = (await svc.call('GET', `/v1/emails/${id}/events`, { headers })).body.data;
    expect(timeline.map((e: any) => e.type)).toEqual(events.map((e) => e.type));
  });

  it('unknown email → 404, another account\'s → 404, not a recipient → validation_error on recipient, bad type → validation_error on type', async () => {
    const { accountId, headers } = await freshAccount('Errors Co');
    const id = await acceptEmail(svc, { accountId, to: ['r@example.com'] });
    await svc.advanceJobs(SETTLE_SECS);
    expectError(await report('eml_unknown', 'r@example.com', 'open', headers), 404, 'not_found');
    expectError(await report(id, 'r@example.com', 'open'), 404, 'not_found');
    expectError(await report(id, 'stranger@example.com', 'open', headers), 400, 'validation_error', ['body', 'recipient']);
    expectError(await report(id, 'r@example.com', 'delivered', headers), 400, 'validation_error', ['body', 'type']);
    expectError(await svc.call('POST', '/v1/sandbox/email-events', { body: { emailId: id, type: 'open' }, headers }), 400, 'validation_error', ['body', 'recipient']);
    expect((await report(id, 'R@EXAMPLE.COM', 'open', headers)).status).toBe(200);
  });

  it('a suppressed recipient cannot bounce or be engaged with (409)', async () => {
    const { accountId, headers } = await freshAccount('Suppressed Co');
    const id = await acceptEmail(svc, { accountId, to: ['ok@example.com', 'old@example.com'], suppressed: ['old@example.com'] });
    await svc.advanceJobs(0);
    expectError(await report(id, 'old@example.com', 'bounce', headers), 409, 'conflict');
    await svc.advanceJobs(SETTLE_SECS);
    expectError(await report(id, 'old@example.com', 'open', headers), 409, 'conflict');
  });
});

describe('end to end through POST /v1/emails', () => {
  it('a live send lands in the mail sandbox and a held mailbox request is released by it; a test-key send only emits events', async () => {
    const { accountId, headers } = await freshAccount('Accept Co');
    const domain = freshDomain('e2e');
    await addSendingDomain(svc, domain, 'verified', accountId);
    const head = (await mailbox('?after=now', headers)).body.cursor;
    const held = mailbox(`?after=${head}&wait=20`, headers);
    const sent = await svc.call('POST', '/v1/emails', {
      headers,
      body: { from: `Acme <hi@${domain}>`, to: ['Jane Doe <jane@example.com>'], bcc: 'click@simulator.test', subject: 'Welcome', html: '<p>Hello <a href="https://acme.example/start">start</a></p>' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.status).toBe('queued');
    await svc.advanceJobs(0);
    const handed = await svc.call('GET', `/v1/emails/${sent.body.id}`, { headers });
    expect(handed.body.status).toBe('sent');
    await svc.advanceJobs(SETTLE_SECS);
    const res = await held;
    expect(res.body.data.map((m: any) => m.to).sort()).toEqual(['click@simulator.test', 'jane@example.com']);
    expect(res.body.data[0]).toMatchObject({ emailId: sent.body.id, subject: 'Welcome', text: 'Hello start', from: `Acme <hi@${domain}>` });
    const read = await svc.call('GET', `/v1/emails/${sent.body.id}`, { headers });
    expect(read.body.status).toBe('delivered');
    expect(read.body.recipients.find((r: any) => r.kind === 'bcc').clickedAt).not.toBeNull();
    const timeline = (await svc.call('GET', `/v1/emails/${sent.body.id}/events`, { headers })).body.data;
    expect(timeline.filter((e: any) => e.recipientKind === 'bcc').map((e: any) => e.type)).toEqual(['email.sent', 'email.delivered', 'email.opened', 'email.clicked']);
    expect(timeline.find((e: any) => e.type === 'email.clicked').url).toBe('https://acme.example/start');

    const test = await svc.call('POST', '/v1/emails', { key: svc.bootstrap.testKey, headers, body: { from: `hi@${domain}`, to: 'quiet@example.com', text: 'shh' } });
    expect(test.status, JSON.stringify(test.body)).toBe(201);
    await svc.advanceJobs(SETTLE_SECS);
    expect((await emailEvents(svc, test.body.id, headers)).map((e) => e.type)).toEqual(['email.sent', 'email.delivered']);
    expect((await mailbox('?to=quiet%40example.com', headers)).body.data).toEqual([]);
  });
});
