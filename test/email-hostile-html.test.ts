import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { acceptEmail, addSendingDomain, freshDomain, newAccount } from './helpers/email-fixtures.js';
import { EMAIL_LIMITS, SIMULATOR_DEFAULT_CLICK_URL } from '../src/api/values/email.js';
import { derivedTextsKept, handOverWithoutText, mailboxCopies, plantOlderMailboxRow } from './helpers/inspect.js';

// One live email (1 cent) with html of markup left open (`<!--` 60,000 times) would freeze the
// service for every tenant were the mail sandbox's text part derived with regular expressions that
// are quadratic on such input, once per delivered recipient, on the thread that serves requests.
// So the text is derived by a linear scan, once per email, a slice at a time between requests, and
// kept once (the recipients' mail sandbox rows read it).

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

/** Markup left open, repeated up to the body limit (1 MB). */
const HOSTILE_OPENERS = ['<!--', '<a ', '<script'];
const atLimit = (opener: string): string => opener.repeat(Math.floor(EMAIL_LIMITS.bodyBytes / opener.length));

/** 50 recipients, one of them clicking (its link is looked for in the html). */
const RECIPIENTS = [...Array.from({ length: 49 }, (_, i) => `reader${i}@example.com`), 'click@simulator.test'];

describe('hostile html', () => {
  it('1 MB bodies of markup left open, to 50 recipients each, are delivered by one advance while another client is answered', async () => {
    const domain = freshDomain('hostile');
    await addSendingDomain(svc, domain);
    const ids: string[] = [];
    for (const opener of HOSTILE_OPENERS) {
      const html = atLimit(opener);
      expect(Buffer.byteLength(html)).toBeLessThanOrEqual(EMAIL_LIMITS.bodyBytes);
      const sent = await svc.call('POST', '/v1/emails', { body: { from: `Shop <hi@${domain}>`, to: RECIPIENTS, subject: `hostile ${opener}`, html } });
      expect(sent.status, sent.text.slice(0, 300)).toBe(201);
      ids.push(sent.body.id);
    }

    // Another tenant's client keeps asking while the clock advance delivers the three emails.
    const other = await newAccount(svc, 'Bystander');
    const started = performance.now();
    let advanced = false;
    const advance = svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 60 } }).finally(() => (advanced = true));
    const answered: number[] = [];
    while (!advanced) {
      const asked = performance.now();
      const [health, keys] = await Promise.all([svc.call('GET', '/healthz', { key: null }), svc.call('GET', '/v1/keys', { headers: other.headers })]);
      expect(health.status).toBe(200);
      expect(keys.status).toBe(200);
      if (!advanced) answered.push(performance.now() - asked);
    }
    const res = await advance;
    const tookMs = performance.now() - started;
    expect(res.status, res.text).toBe(200);
    // The old code took minutes for one such email (392 s for two); these bounds cannot flake.
    expect(tookMs).toBeLessThan(20_000);
    // The bystander was answered while the advance ran, and never waited long.
    expect(answered.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...answered)).toBeLessThan(5_000);

    for (const [i, opener] of HOSTILE_OPENERS.entries()) {
      const id = ids[i]!;
      const email = await svc.call('GET', `/v1/emails/${id}`);
      expect(email.body.status, opener).toBe('delivered');
      // The text part was derived once and is kept once; the 50 mail sandbox rows hold no copy.
      expect(await derivedTextsKept(svc, id), opener).toBe(1);
      expect(await mailboxCopies(svc, id), opener).toEqual({ n: 50, texts: 0, htmls: 0 });
      const events = await svc.call('GET', `/v1/emails/${id}/events`);
      expect(events.body.data.find((e: any) => e.type === 'email.clicked')?.url, opener).toBe(SIMULATOR_DEFAULT_CLICK_URL);
    }

    // Markup never closed is text as written (as before), whitespace collapsed.
    const box = await svc.call('GET', '/v1/sandbox/mailbox?to=reader7%40example.com');
    expect(box.body.data.map((m: any) => m.emailId)).toEqual(ids);
    for (const [i, opener] of HOSTILE_OPENERS.entries()) {
      const html = atLimit(opener);
      expect(box.body.data[i].html === html, opener).toBe(true);
      expect(box.body.data[i].text === html.trim(), opener).toBe(true);
    }
  });
});

describe('the mail sandbox text part, kept once per email', () => {
  it('is derived at delivery for an email handed over without it (by an older version)', async () => {
    const { id: accountId, headers } = await newAccount(svc, 'Upgraded');
    const id = await acceptEmail(svc, { accountId, to: ['ann@example.com', 'bob@example.com'], html: '<p>Hello &amp; <b>welcome</b></p><p>Bye</p>', text: null });
    // The handover as the previous version ran it: no text kept.
    await handOverWithoutText(svc, id);
    expect(await derivedTextsKept(svc, id)).toBe(0);
    await svc.advanceJobs(60);
    const box = await svc.call('GET', '/v1/sandbox/mailbox', { headers });
    expect(box.body.data.map((m: any) => [m.to, m.text])).toEqual([
      ['ann@example.com', 'Hello & welcome\nBye'],
      ['bob@example.com', 'Hello & welcome\nBye'],
    ]);
    expect(await derivedTextsKept(svc, id)).toBe(1);
  });

  it('keeps showing the body a row written before it was kept once (its own copy)', async () => {
    const { id: accountId, headers } = await newAccount(svc, 'Older rows');
    const id = await acceptEmail(svc, { accountId, to: ['old@example.com'], html: '<p>now</p>', text: 'now' });
    await plantOlderMailboxRow(svc, { id: 'mbx_before', accountId, emailId: id, to: 'old@example.com', from: 'Shop <a@b.example>', subject: 'Old', text: 'as copied', html: '<p>as copied</p>', deliveredAt: svc.now() });
    const box = await svc.call('GET', '/v1/sandbox/mailbox', { headers });
    expect(box.body.data).toHaveLength(1);
    expect(box.body.data[0]).toMatchObject({ id: 'mbx_before', text: 'as copied', html: '<p>as copied</p>' });
  });

  it('is not derived for an email sent with a text part, nor for a test-key email', async () => {
    const { id: accountId, headers } = await newAccount(svc, 'Plain');
    const withText = await acceptEmail(svc, { accountId, to: ['t@example.com'], html: '<p>rich</p>', text: 'plain' });
    const testKey = await acceptEmail(svc, { accountId, to: ['q@example.com'], html: '<p>quiet</p>', text: null, mode: 'test' });
    await svc.advanceJobs(60);
    expect(await derivedTextsKept(svc, withText)).toBe(0);
    expect(await derivedTextsKept(svc, testKey)).toBe(0);
    const box = await svc.call('GET', '/v1/sandbox/mailbox', { headers });
    expect(box.body.data.map((m: any) => [m.to, m.text, m.html])).toEqual([['t@example.com', 'plain', '<p>rich</p>']]);
  });
});
