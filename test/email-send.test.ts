import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { expectError } from './messages-fixtures.js';
import { addSendingDomain, emailBody, freshDomain, newAccount, verifiedDomain } from './helpers/email-fixtures.js';
import { COMPLAINT_PAUSE, EMAIL_LIMITS, MAIL_SIMULATOR_TIMINGS } from '../src/api/values/email.js';
import { emailChargeCents } from '../src/api/values/prices.js';
import { addSuppression, chargesFor as ledgerCharges, emailDeliveryWaiting } from './helpers/inspect.js';

// spec: Send email body, Limits, Email status, Email resource, Global conventions 7 (Idempotency-Key);
// contract §8 (email: 409 for an unverified domain, 403 for the complaint pause), §11 (email price).
// Sending domains are put in place with SQL (test/helpers/email-fixtures.ts) until the domain routes merge.

let svc: TestService;
let domain: string;
let FROM: string;

beforeAll(async () => {
  svc = await startTestService();
  domain = freshDomain();
  await addSendingDomain(svc, domain);
  FROM = `noreply@${domain}`;
});
afterAll(async () => {
  await svc?.stop();
});

type Opts = { headers?: Record<string, string>; key?: string };
const send = (body: unknown, o: Opts = {}) => svc.call('POST', '/v1/emails', { body, ...o });
async function accepted(body: unknown, o: Opts = {}): Promise<any> {
  const res = await send(body, o);
  expect(res.status, JSON.stringify(res.body)?.slice(0, 2000)).toBe(201);
  return res.body;
}
const paths = (res: { body: any }): unknown[] => (res.body?.error?.details ?? []).map((d: { path: unknown }) => d.path);
const addresses = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}@example.com`);
const chargesFor = (accountId: string, emailId: string) => ledgerCharges(svc, accountId, emailId);
/** Every email of the account (of `headers`'s sub-account, else the bootstrap one), as GET /v1/emails pages them. */
async function emailsOf(on: TestService, headers?: Record<string, string>): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const res = await on.call('GET', `/v1/emails?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers });
    expect(res.status, res.text).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.hasMore ? res.body.nextCursor : null;
  } while (cursor);
  return out;
}
/** The email once the mail server has run what is due now: its handover to the receiving servers. */
async function afterHandover(emailId: string): Promise<any> {
  await svc.advanceJobs(0);
  return (await svc.call('GET', `/v1/emails/${emailId}`)).body;
}

describe('POST /v1/emails accepts (201)', () => {
  it('records a minimal email as queued, charges a live key, schedules delivery and reads back the same', async () => {
    const e = await accepted(emailBody(FROM, { tags: ['welcome'], metadata: { user: 'u_1' }, externalRef: 'ref-1' }));
    expect(e).toEqual({
      id: expect.stringMatching(/^eml_/),
      status: 'queued',
      from: FROM,
      to: ['jane@example.com'],
      cc: [],
      bcc: [],
      subject: 'Hello',
      tags: ['welcome'],
      metadata: { user: 'u_1' },
      externalRef: 'ref-1',
      recipients: [{ address: 'jane@example.com', kind: 'to', status: 'queued', openedAt: null, clickedAt: null, complainedAt: null, unsubscribedAt: null }],
      createdAt: new Date(svc.now()).toISOString(),
      updatedAt: new Date(svc.now()).toISOString(),
    });
    const got = await svc.call('GET', `/v1/emails/${e.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(e);
    const charges = await chargesFor(svc.bootstrap.accountId, e.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ category: 'email', quantity: 1, amountCents: emailChargeCents(1) });
    // Delivery was scheduled: the mail server hands it over at once.
    expect((await afterHandover(e.id)).recipients.map((r: any) => r.status)).toEqual(['sent']);
  });

  it('reads display names in from (kept as written) and recipients (stored bare, order and case kept)', async () => {
    const quoted = `"Acme, Billing \\"Dept\\"" <billing@${domain.toUpperCase()}>`;
    const e = await accepted(emailBody(quoted, { to: ['Jane Doe <Jane@Example.com>', 'bob@example.org'], cc: '<carol@example.net>', bcc: ['"Dan, D." <dan@example.com>'] }));
    expect(e.from).toBe(quoted);
    expect(e.to).toEqual(['Jane@Example.com', 'bob@example.org']);
    expect(e.cc).toEqual(['carol@example.net']);
    expect(e.bcc).toEqual(['dan@example.com']);
    expect(e.recipients.map((r: any) => [r.address, r.kind])).toEqual([
      ['Jane@Example.com', 'to'],
      ['bob@example.org', 'to'],
      ['carol@example.net', 'cc'],
      ['dan@example.com', 'bcc'],
    ]);
    expect((await accepted(emailBody(`Acme Billing <billing@${domain}>`))).from).toBe(`Acme Billing <billing@${domain}>`);
  });

  it('sends with only cc or only bcc', async () => {
    const { to: _to, ...noTo } = emailBody(FROM);
    expect((await accepted({ ...noTo, bcc: 'hidden@example.com' })).bcc).toEqual(['hidden@example.com']);
    expect((await accepted({ ...noTo, cc: ['c@example.com'] })).cc).toEqual(['c@example.com']);
  });

  it('a test key is recorded like a live send (mode test) and never charged', async () => {
    const e = await accepted(emailBody(FROM, { to: 'test-mode@example.com' }), { key: svc.bootstrap.testKey });
    expect(e.status).toBe('queued');
    expect(await chargesFor(svc.bootstrap.accountId, e.id)).toEqual([]);
    // Its mode shows in what it may do (contract §2): it is delivered like a live email, nothing of it
    // reaches the mail sandbox, and the test key may report on it, as it may not on a live email.
    await svc.advanceJobs(MAIL_SIMULATOR_TIMINGS.deliverAfterSecs);
    expect((await svc.call('GET', `/v1/emails/${e.id}`)).body.status).toBe('delivered');
    expect((await svc.call('GET', '/v1/sandbox/mailbox?to=test-mode@example.com')).body.data).toEqual([]);
    const opened = await svc.call('POST', '/v1/sandbox/email-events', { body: { emailId: e.id, recipient: 'test-mode@example.com', type: 'open' }, key: svc.bootstrap.testKey });
    expect(opened.status, opened.text).toBe(200);
  });
});

describe('POST /v1/emails body rules (400 validation_error, every failure at once)', () => {
  it('refuses a malformed from on ["body","from"] and stores nothing', async () => {
    for (const from of ['not-an-address', `Jane <noreply@${domain}`, `a@${domain}, b@${domain}`, `Jane@Work <a@${domain}>`, `noreply@${domain}\r\nBcc: x@y.com`]) {
      const before = (await emailsOf(svc)).length;
      expectError(await send(emailBody(from)), 400, 'validation_error', ['body', 'from']);
      expect((await emailsOf(svc)).length).toBe(before);
    }
  });

  it('reports a bad from, a bad recipient, a duplicate and a missing body together', async () => {
    const res = await send({ from: 'nope', to: ['ok@example.com', 'bad@', 'OK@example.com'], cc: 'also bad' });
    expect(res.status).toBe(400);
    expect(paths(res)).toEqual(expect.arrayContaining([['body', 'from'], ['body', 'to', 1], ['body', 'to', 2], ['body', 'cc'], ['body', 'html'], ['body', 'text']]));
    const dup = res.body.error.details.find((d: any) => d.path.join() === 'body,to,2');
    expect(dup.message).toContain('OK@example.com');
  });

  it(`takes ${EMAIL_LIMITS.recipients} recipients across to, cc and bcc and refuses ${EMAIL_LIMITS.recipients + 1}, naming the fields`, async () => {
    const all = addresses(EMAIL_LIMITS.recipients, 'r');
    const at = await accepted(emailBody(FROM, { to: all.slice(0, 20), cc: all.slice(20, 40), bcc: all.slice(40) }));
    expect(at.recipients).toHaveLength(EMAIL_LIMITS.recipients);
    const res = await send(emailBody(FROM, { to: all.slice(0, 20), cc: all.slice(20, 40), bcc: [...all.slice(40), 'one-more@example.com'] }));
    expectError(res, 400, 'validation_error');
    expect(paths(res)).toEqual([['body', 'to'], ['body', 'cc'], ['body', 'bcc']]);
    expect(res.body.error.details[0].message).toContain(String(EMAIL_LIMITS.recipients + 1));
  });

  it('refuses no recipient at all (absent or empty lists)', async () => {
    const { to: _to, ...noTo } = emailBody(FROM);
    for (const body of [noTo, { ...noTo, to: [], cc: [], bcc: [] }]) {
      const res = await send(body);
      expectError(res, 400, 'validation_error', ['body', 'to']);
      expect(paths(res)).toEqual([['body', 'to'], ['body', 'cc'], ['body', 'bcc']]);
    }
  });

  it('refuses an address twice across the lists, case-insensitively, naming it', async () => {
    const res = await send(emailBody(FROM, { to: ['Pat@Example.com'], bcc: ['x@example.com', 'Pat <pat@EXAMPLE.com>'] }));
    expectError(res, 400, 'validation_error', ['body', 'bcc', 1]);
    expect(paths(res)).toEqual([['body', 'bcc', 1]]);
    expect(res.body.error.details[0].message).toContain('pat@EXAMPLE.com');
  });

  it('refuses an email with neither html nor text (absent or empty) on both fields', async () => {
    for (const extra of [{}, { html: '', text: '' }]) {
      const { text: _t, ...noText } = emailBody(FROM);
      const res = await send({ ...noText, ...extra });
      expect(res.status).toBe(400);
      expect(paths(res)).toEqual([['body', 'html'], ['body', 'text']]);
    }
    expect((await accepted({ ...emailBody(FROM), text: undefined, html: '<p>hi</p>' })).status).toBe('queued');
  });

  for (const field of ['html', 'text'] as const) {
    it(`counts ${field} in UTF-8 bytes: exactly ${EMAIL_LIMITS.bodyBytes} bytes of multi-byte text passes, one byte more is refused`, async () => {
      // '€' is 3 bytes: 349525 of them plus one ASCII byte is exactly 1 MiB, far fewer characters.
      const atLimit = '€'.repeat(Math.floor(EMAIL_LIMITS.bodyBytes / 3)) + 'a'.repeat(EMAIL_LIMITS.bodyBytes % 3);
      expect(Buffer.byteLength(atLimit)).toBe(EMAIL_LIMITS.bodyBytes);
      expect(atLimit.length).toBeLessThan(EMAIL_LIMITS.bodyBytes);
      await accepted(emailBody(FROM, { text: undefined, [field]: atLimit }));
      const res = await send(emailBody(FROM, { text: undefined, [field]: `${atLimit}a` }));
      expectError(res, 400, 'validation_error', ['body', field]);
      expect(paths(res)).toEqual([['body', field]]);
      expect(res.body.error.details[0].message).toContain(String(EMAIL_LIMITS.bodyBytes + 1));
    });
  }

  it('takes html and text both at the limit even when JSON escaping doubles them (the route has its own body limit)', async () => {
    // 1 MiB of `"` and of `\` each become 2 MiB in JSON: a 4 MiB request, over the service-wide 3 MB.
    const e = await accepted(emailBody(FROM, { to: 'at-limit@example.com', html: '"'.repeat(EMAIL_LIMITS.bodyBytes), text: '\\'.repeat(EMAIL_LIMITS.bodyBytes) }));
    // Kept whole: the mail sandbox shows the message as delivered.
    await svc.advanceJobs(MAIL_SIMULATOR_TIMINGS.deliverAfterSecs);
    const box = await svc.call('GET', '/v1/sandbox/mailbox?to=at-limit@example.com');
    expect(box.body.data.map((m: any) => m.emailId)).toEqual([e.id]);
    expect(box.body.data[0].html).toBe('"'.repeat(EMAIL_LIMITS.bodyBytes));
    expect(box.body.data[0].text).toBe('\\'.repeat(EMAIL_LIMITS.bodyBytes));
  });

  it('answers a request over the route body limit with the envelope, not a framework error', async () => {
    const res = await send(emailBody(FROM, { html: '"'.repeat(3 * EMAIL_LIMITS.bodyBytes) }));
    expectError(res, 400, 'validation_error', ['body']);
  });

  it(`takes ${EMAIL_LIMITS.tags} tags and refuses ${EMAIL_LIMITS.tags + 1} on ["body","tags"]`, async () => {
    const tags = Array.from({ length: EMAIL_LIMITS.tags + 1 }, (_, i) => `t${i}`);
    expect((await accepted(emailBody(FROM, { tags: tags.slice(0, EMAIL_LIMITS.tags) }))).tags).toEqual(tags.slice(0, EMAIL_LIMITS.tags));
    expectError(await send(emailBody(FROM, { tags })), 400, 'validation_error', ['body', 'tags']);
  });

  it(`takes ${EMAIL_LIMITS.metadataPairs} metadata pairs and refuses ${EMAIL_LIMITS.metadataPairs + 1} on ["body","metadata"]; values are strings`, async () => {
    const pairs = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, `v${i}`]));
    expect((await accepted(emailBody(FROM, { metadata: pairs(EMAIL_LIMITS.metadataPairs) }))).metadata).toEqual(pairs(EMAIL_LIMITS.metadataPairs));
    const over = await send(emailBody(FROM, { metadata: pairs(EMAIL_LIMITS.metadataPairs + 1) }));
    expectError(over, 400, 'validation_error', ['body', 'metadata']);
    expect(over.body.error.details[0].message).toContain(String(EMAIL_LIMITS.metadataPairs + 1));
    expectError(await send(emailBody(FROM, { metadata: { n: 1 } })), 400, 'validation_error', ['body', 'metadata', 'n']);
  });

  it('refuses unknown fields (attachments are unavailable)', async () => {
    expectError(await send(emailBody(FROM, { attachments: [] })), 400, 'validation_error', ['body', 'attachments']);
  });
});

describe('POST /v1/emails sending domain (contract §8: 409 unless verified)', () => {
  for (const status of ['pending', 'failed', 'degraded'] as const) {
    it(`refuses a ${status} domain with 409 saying so`, async () => {
      const d = freshDomain(status);
      await addSendingDomain(svc, d, status);
      const res = await send(emailBody(`Acme <hi@${d}>`));
      expectError(res, 409, 'conflict', ['body', 'from']);
      expect(res.body.error.message).toContain(status);
      expect(res.body.error.message).toContain(d);
    });
  }

  it("refuses a domain never added, and another account's verified domain", async () => {
    const missing = await send(emailBody(`hi@${freshDomain('nowhere')}`));
    expectError(missing, 409, 'conflict', ['body', 'from']);
    expect(missing.body.error.message).toContain('POST /v1/domains');
    const other = await newAccount(svc);
    const theirs = freshDomain('theirs');
    await addSendingDomain(svc, theirs, 'verified', other.id);
    expectError(await send(emailBody(`hi@${theirs}`)), 409, 'conflict', ['body', 'from']);
    // …which its owner can send from.
    await accepted(emailBody(`hi@${theirs}`), { headers: other.headers });
  });

  it('reports body failures before the domain', async () => {
    const res = await send(emailBody(`hi@${freshDomain('nowhere')}`, { tags: undefined, metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) }));
    expectError(res, 400, 'validation_error', ['body', 'metadata']);
  });
});

describe('POST /v1/emails Idempotency-Key (spec: Global conventions 7)', () => {
  it('replays the same 201 with Idempotent-Replayed: true, one email and one charge', async () => {
    const key = `email-${Date.now()}`;
    const body = emailBody(FROM, { externalRef: key, to: addresses(3, 'idem') });
    const first = await send(body, { headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await send(body, { headers: { 'idempotency-key': key } });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await emailsOf(svc)).filter((e) => e.externalRef === key)).toHaveLength(1);
    expect(await chargesFor(svc.bootstrap.accountId, first.body.id)).toHaveLength(1);
    // Another body under the same key is a conflict, and sends nothing.
    expectError(await send({ ...body, subject: 'changed' }, { headers: { 'idempotency-key': key } }), 409, 'conflict');
    expect((await emailsOf(svc)).filter((e) => e.externalRef === key)).toHaveLength(1);
  });

  it('leaves the key free after a refused send, so the corrected retry goes through', async () => {
    const key = `email-fix-${Date.now()}`;
    expectError(await send(emailBody(FROM, { text: '' }), { headers: { 'idempotency-key': key } }), 400, 'validation_error');
    const ok = await send(emailBody(FROM), { headers: { 'idempotency-key': key } });
    expect(ok.status).toBe(201);
  });
});

describe('POST /v1/emails suppressed recipients (spec: Email resource, Email status; not billed)', () => {
  const REPORT = { hard_bounce: 'bounce', complaint: 'complaint', unsubscribe: 'unsubscribe' } as const;
  /**
   * `address` suppressed on the account the way the service suppresses one: an email to it, then the
   * mail server's report on it (a hard bounce once handed over; a complaint or an unsubscribe once delivered).
   */
  async function suppress(address: string, reason: keyof typeof REPORT = 'hard_bounce') {
    const e = await accepted(emailBody(FROM, { to: address }));
    await svc.advanceJobs(reason === 'hard_bounce' ? 0 : MAIL_SIMULATOR_TIMINGS.deliverAfterSecs);
    const res = await svc.call('POST', '/v1/sandbox/email-events', { body: { emailId: e.id, recipient: address, type: REPORT[reason] } });
    expect(res.status, res.text).toBe(200);
  }

  it('marks suppressed recipients (matched case-insensitively) and bills only the others: 10 vs 11 non-suppressed', async () => {
    const acct = svc.bootstrap.accountId;
    await suppress('gone@example.com');
    await suppress('angry@example.com', 'complaint');
    const ten = await accepted(emailBody(FROM, { to: [...addresses(10, 'ten'), 'Gone@Example.com'], bcc: 'angry@example.com' }));
    expect(ten.status).toBe('queued');
    expect(ten.recipients.filter((r: any) => r.status === 'suppressed').map((r: any) => r.address)).toEqual(['Gone@Example.com', 'angry@example.com']);
    expect(ten.recipients.filter((r: any) => r.status === 'queued')).toHaveLength(10);
    const tenCharge = await chargesFor(acct, ten.id);
    expect(tenCharge).toHaveLength(1);
    expect(tenCharge[0]).toMatchObject({ category: 'email', quantity: 10, amountCents: 1 });

    const eleven = await accepted(emailBody(FROM, { to: [...addresses(11, 'eleven'), 'gone@example.com'] }));
    const elevenCharge = await chargesFor(acct, eleven.id);
    expect(elevenCharge).toHaveLength(1);
    expect(elevenCharge[0]).toMatchObject({ category: 'email', quantity: 11, amountCents: 2 });
    expect(emailChargeCents(11)).toBe(2);
  });

  it('returns an email whose every recipient is suppressed as failed, charges nothing and schedules nothing', async () => {
    const acct = svc.bootstrap.accountId;
    await suppress('left1@example.com', 'unsubscribe');
    await suppress('left2@example.com');
    const e = await accepted(emailBody(FROM, { to: 'left1@example.com', cc: ['LEFT2@example.com'] }));
    expect(e.status).toBe('failed');
    expect(e.recipients.map((r: any) => r.status)).toEqual(['suppressed', 'suppressed']);
    expect(await chargesFor(acct, e.id)).toEqual([]);
    expect(await emailDeliveryWaiting(svc, e.id)).toBe(false);
    await svc.advanceJobs(60);
    expect((await svc.call('GET', `/v1/emails/${e.id}`)).body.status).toBe('failed');
  });
});

// Each test sends 500 recipients, has the mail server deliver them and reports complaints on them
// through the API: a bound that catches a hang, not a timing.
describe('POST /v1/emails complaint-rate pause (spec: Limits; contract §8: 403)', { timeout: 90_000 }, () => {
  const DAY_SECS = 86_400;
  // A service of its own: each history is sent, then the clock walked a day (or a month) past it,
  // which would move the clock of every other test too.
  let paused: TestService;
  beforeAll(async () => {
    paused = await startTestService();
  });
  afterAll(async () => {
    await paused?.stop();
  });
  const sendOn = (body: unknown, o: Opts = {}) => paused.call('POST', '/v1/emails', { body, ...o });
  async function acceptedOn(body: unknown, o: Opts = {}): Promise<void> {
    const res = await sendOn(body, o);
    expect(res.status, JSON.stringify(res.body)?.slice(0, 2000)).toBe(201);
  }

  /**
   * An account with its own verified domain whose email of `ageSecs` ago (default a day) had `delivered`
   * recipients delivered, `complained` of them complaining. Sent, delivered and complained of as a
   * user's are (the mail server, then its reports), so the counters the pause reads are the real ones.
   */
  async function accountWithHistory(delivered: number, complained: number, o: { ageSecs?: number; mode?: 'live' | 'test' } = {}) {
    const acct = await newAccount(paused, 'Complaint window');
    const d = freshDomain('pause');
    await verifiedDomain(paused, d, acct.headers);
    const key = o.mode === 'test' ? paused.bootstrap.testKey : undefined;
    const to = Array.from({ length: delivered }, (_, i) => `p${i}@example.com`);
    const ids: string[] = [];
    for (let i = 0; i < delivered; i += EMAIL_LIMITS.recipients) {
      const res = await sendOn(emailBody(`old@${d}`, { to: to.slice(i, i + EMAIL_LIMITS.recipients) }), { headers: acct.headers, key });
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.id);
    }
    await paused.advanceJobs(MAIL_SIMULATOR_TIMINGS.deliverAfterSecs);
    for (let i = 0; i < complained; i++) {
      const res = await paused.call('POST', '/v1/sandbox/email-events', {
        body: { emailId: ids[Math.floor(i / EMAIL_LIMITS.recipients)], recipient: to[i], type: 'complaint' },
        headers: acct.headers,
        key,
      });
      expect(res.status, res.text).toBe(200);
    }
    await paused.advanceJobs((o.ageSecs ?? DAY_SECS) - MAIL_SIMULATOR_TIMINGS.deliverAfterSecs);
    return { ...acct, from: `hi@${d}`, sent: ids.length };
  }

  it(`allows exactly ${COMPLAINT_PAUSE.rate * 100} % (1 complaint in ${COMPLAINT_PAUSE.minDelivered} delivered)`, async () => {
    const a = await accountWithHistory(COMPLAINT_PAUSE.minDelivered, 1);
    await acceptedOn(emailBody(a.from), { headers: a.headers });
  });

  it(`pauses above it (2 in ${COMPLAINT_PAUSE.minDelivered}) with 403 naming the rate, and stores nothing`, async () => {
    const a = await accountWithHistory(COMPLAINT_PAUSE.minDelivered, 2);
    const res = await sendOn(emailBody(a.from), { headers: a.headers });
    expectError(res, 403, 'forbidden');
    expect(res.body.error.message).toContain('0.40 %');
    expect(res.body.error.message).toContain('0.20 %');
    // The pause is the account's: a test key is refused too (only live deliveries are counted).
    expectError(await sendOn(emailBody(a.from), { headers: a.headers, key: paused.bootstrap.testKey }), 403, 'forbidden');
    expect(await emailsOf(paused, a.headers)).toHaveLength(a.sent); // only the history
  });

  it(`does not pause before ${COMPLAINT_PAUSE.minDelivered} were delivered, whatever the rate`, async () => {
    const a = await accountWithHistory(COMPLAINT_PAUSE.minDelivered - 1, 100);
    await acceptedOn(emailBody(a.from), { headers: a.headers });
  });

  it('counts only the last 30 days', async () => {
    // The window is counted in whole hours (complaint-rate.ts): an hour past it is out.
    const a = await accountWithHistory(COMPLAINT_PAUSE.minDelivered, 50, { ageSecs: COMPLAINT_PAUSE.windowSecs + 3_600 });
    await acceptedOn(emailBody(a.from), { headers: a.headers });
  });

  it('does not count test-key email (never really sent, so nobody complained)', async () => {
    const a = await accountWithHistory(COMPLAINT_PAUSE.minDelivered, 50, { mode: 'test' });
    await acceptedOn(emailBody(a.from), { headers: a.headers });
  });
});

describe('GET /v1/emails/{id} and GET /v1/emails', () => {
  it("answers 404 for another account's email and for an unknown id", async () => {
    const e = await accepted(emailBody(FROM));
    const other = await newAccount(svc);
    expectError(await svc.call('GET', `/v1/emails/${e.id}`, { headers: other.headers }), 404, 'not_found');
    expectError(await svc.call('GET', '/v1/emails/eml_nope'), 404, 'not_found');
  });

  it('lists the account’s emails newest first, keyset-paged, filtered by status', async () => {
    const acct = await newAccount(svc, 'Lister');
    const d = freshDomain('list');
    await addSendingDomain(svc, d, 'verified', acct.id);
    await addSuppression(svc, acct.id, 'nobody@example.com', 'hard_bounce');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await accepted(emailBody(`hi@${d}`, { subject: `n${i}` }), { headers: acct.headers })).id);
      await svc.advanceJobs(1);
    }
    const failed = await accepted(emailBody(`hi@${d}`, { to: 'nobody@example.com' }), { headers: acct.headers });
    const page1 = await svc.call('GET', '/v1/emails?limit=2', { headers: acct.headers });
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((e: any) => e.id)).toEqual([failed.id, ids[2]]);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await svc.call('GET', `/v1/emails?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`, { headers: acct.headers });
    expect(page2.body.data.map((e: any) => e.id)).toEqual([ids[1], ids[0]]);
    expect(page2.body.hasMore).toBe(false);
    const onlyFailed = await svc.call('GET', '/v1/emails?status=failed', { headers: acct.headers });
    expect(onlyFailed.body.data.map((e: any) => e.id)).toEqual([failed.id]);
    expect(onlyFailed.body.data[0].recipients[0].status).toBe('suppressed');
    expectError(await svc.call('GET', '/v1/emails?status=lost', { headers: acct.headers }), 400, 'validation_error', ['query', 'status']);
    // Nothing of another account's leaks in.
    const mine = await svc.call('GET', '/v1/emails?limit=100');
    expect(mine.body.data.length).toBeGreaterThan(0);
    expect(mine.body.data.map((e: any) => e.id)).not.toContain(failed.id);
  });
});
