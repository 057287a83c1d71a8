import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { addDomain, emailBody, publishDomainRecords, verifiedDomain } from './helpers/email-fixtures.js';
import { expectError } from './messages-fixtures.js';
import { DOMAIN_TIMINGS } from '../src/api/values/email.js';

// spec: Sending domain, Sending domain status, Email domains endpoints, Event catalog `domain.*`;
// contract §8 (domains), §9 (sandbox DNS). End to end on a real service with a manual clock.

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const MIN = 60;
const HOUR = 3600;
const DAY = 86_400;
/** A fresh domain name no other test uses. */
const fresh = (label = 'shop') => `${label}-${randomUUID().slice(0, 8)}.example.com`;

async function getDomain(id: string, headers?: Record<string, string>) {
  return svc.call('GET', `/v1/domains/${id}`, { headers });
}
async function verify(id: string, headers?: Record<string, string>) {
  const res = await svc.call('POST', `/v1/domains/${id}/verify`, { headers });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}
/** The `domain.*` events of one domain, oldest first. */
async function domainEvents(domainId: string, headers?: Record<string, string>): Promise<any[]> {
  const out: any[] = [];
  let after: string | undefined;
  for (let i = 0; i < 50; i++) {
    const res = await svc.call('GET', `/v1/events?types=domain.*&limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`, { headers });
    expect(res.status).toBe(200);
    out.push(...res.body.data.filter((e: any) => e.domainId === domainId));
    if (!res.body.hasMore) return out;
    after = res.body.cursor;
  }
  throw new Error('too many pages');
}
const statuses = (events: any[]) => events.map((e) => [e.type, e.status]);
const rec = (d: any, purpose: string) => d.records.find((r: any) => r.purpose === purpose);

async function newSubaccount(): Promise<Record<string, string>> {
  const res = await svc.call('POST', '/v1/subaccounts', { body: { name: `mail ${randomUUID().slice(0, 8)}` } });
  expect(res.status).toBe(201);
  return { 'service-subaccount': res.body.id };
}

describe('POST /v1/domains', () => {
  it('answers 201 pending with the records to publish, normalized, without running a check', async () => {
    const name = fresh();
    const res = await svc.call('POST', '/v1/domains', { body: { domain: `  ${name.toUpperCase()}. ` } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const d = res.body;
    expect(d).toMatchObject({ domain: name, status: 'pending', verifiedAt: null, lastCheckedAt: null });
    expect(d.id).toMatch(/^dom_/);
    expect(d.records.map((r: any) => r.purpose)).toEqual(['verification', 'spf', 'dkim', 'return_path', 'dmarc']);
    expect(d.records.every((r: any) => r.status === 'pending')).toBe(true);
    expect(rec(d, 'verification')).toMatchObject({ type: 'TXT', name: `_svc-verification.${name}` });
    expect(rec(d, 'verification').value).toMatch(/^svc-verification=[A-Za-z0-9]{32}$/);
    expect(rec(d, 'spf')).toMatchObject({ type: 'TXT', name: `send.${name}`, value: 'v=spf1 include:spf.mail.svc.test ~all' });
    expect(rec(d, 'return_path')).toMatchObject({ type: 'MX', name: `send.${name}`, value: '10 feedback.mail.svc.test' });
    expect(rec(d, 'dkim').type).toBe('CNAME');
    const selector = rec(d, 'dkim').name.split('.')[0];
    expect(rec(d, 'dkim')).toMatchObject({ name: `${selector}._domainkey.${name}`, value: `${selector}.dkim.mail.svc.test` });
    expect(rec(d, 'dmarc')).toMatchObject({ type: 'TXT', name: `_dmarc.${name}`, value: 'v=DMARC1; p=none;' });
    expect(await domainEvents(d.id)).toEqual([]);
    // two domains get different tokens and selectors
    const other = await addDomain(svc, fresh());
    expect(rec(other, 'verification').value).not.toBe(rec(d, 'verification').value);
    expect(rec(other, 'dkim').name.split('.')[0]).not.toBe(selector);
  });

  it('is idempotent with Idempotency-Key: a replay returns the same domain, records and token included', async () => {
    const name = fresh();
    const headers = { 'idempotency-key': `dom-${name}` };
    const first = await svc.call('POST', '/v1/domains', { body: { domain: name }, headers });
    expect(first.status).toBe(201);
    const replay = await svc.call('POST', '/v1/domains', { body: { domain: name }, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expectError(await svc.call('POST', '/v1/domains', { body: { domain: name } }), 409, 'conflict');
  });

  it('converts an internationalized name to ASCII', async () => {
    const label = `bücher-${randomUUID().slice(0, 6)}`;
    const d = await addDomain(svc, `${label}.example.de`);
    expect(d.domain).toMatch(/^xn--/);
    expect(d.domain.endsWith('.example.de')).toBe(true);
  });

  it.each([
    ['gmail.com', 'gmail.com is a public mailbox provider; add a domain you own'],
    ['Hotmail.co.uk', 'hotmail.co.uk is a public mailbox provider; add a domain you own'],
    ['news.yahoo.co.jp', 'news.yahoo.co.jp is under yahoo.co.jp, which is a public mailbox provider; add a domain you own'],
    ['mailinator.com', 'mailinator.com is a disposable email domain; add a domain you own'],
    ['guerrillamail.com', 'guerrillamail.com is a disposable email domain; add a domain you own'],
    ['me.33mail.com', 'me.33mail.com is under 33mail.com, which is a disposable email domain; add a domain you own'],
    ['203.0.113.7', '203.0.113.7 is an IP address; add a domain name you own'],
    ['[2001:db8::25]', '2001:db8::25 is an IP address; add a domain name you own'],
    ['mailhost', 'mailhost is a single-label host; add a fully qualified domain such as mailhost.com'],
  ])('rejects %s with 400 validation_error on ["body","domain"] naming the rule', async (domain, message) => {
    const res = await svc.call('POST', '/v1/domains', { body: { domain } });
    expectError(res, 400, 'validation_error', ['body', 'domain']);
    expect(res.body.error.details[0].message).toBe(message);
  });

  it.each(['bad_name.example.com', 'two..dots.com', '-lead.example.com', `${'a'.repeat(64)}.com`])('rejects the malformed name %s on ["body","domain"]', async (domain) => {
    const res = await svc.call('POST', '/v1/domains', { body: { domain } });
    expectError(res, 400, 'validation_error', ['body', 'domain']);
  });

  it('takes a label of 63 characters and a name of 253, and refuses 254', async () => {
    const l63 = `z${randomUUID().replace(/-/g, '')}`.padEnd(63, 'q');
    const ok = await svc.call('POST', '/v1/domains', { body: { domain: `${l63}.com` } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const at253 = `${l63}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    expect(at253.length).toBe(253);
    expect((await svc.call('POST', '/v1/domains', { body: { domain: at253 } })).status).toBe(201);
    expectError(await svc.call('POST', '/v1/domains', { body: { domain: `e${at253}` } }), 400, 'validation_error', ['body', 'domain']);
  });

  it('refuses a domain this account has (409 naming its id) and one another account has (409)', async () => {
    const name = fresh();
    const d = await addDomain(svc, name);
    const again = await svc.call('POST', '/v1/domains', { body: { domain: name.toUpperCase() } });
    expectError(again, 409, 'conflict');
    expect(again.body.error.message).toContain(d.id);
    const sub = await newSubaccount();
    const theirs = await svc.call('POST', '/v1/domains', { body: { domain: name }, headers: sub });
    expectError(theirs, 409, 'conflict');
    expect(theirs.body.error.message).toContain('another account');
    expect(theirs.body.error.message).not.toContain(d.id);
  });
});

describe('GET /v1/domains, GET/DELETE /v1/domains/{id}', () => {
  it('lists the account\'s domains newest first, filtered by status and paged', async () => {
    const sub = await newSubaccount();
    const a = await addDomain(svc, fresh('list-a'), sub);
    const b = await verifiedDomain(svc, fresh('list-b'), sub);
    const c = await addDomain(svc, fresh('list-c'), sub);
    const all = await svc.call('GET', '/v1/domains?limit=100', { headers: sub });
    expect(all.status).toBe(200);
    expect(all.body.data.map((d: any) => d.id)).toEqual([c.id, b.id, a.id]);
    const verified = await svc.call('GET', '/v1/domains?status=verified', { headers: sub });
    expect(verified.body.data.map((d: any) => d.id)).toEqual([b.id]);
    const page1 = await svc.call('GET', '/v1/domains?limit=2', { headers: sub });
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await svc.call('GET', `/v1/domains?limit=2&cursor=${encodeURIComponent(page1.body.nextCursor)}`, { headers: sub });
    expect(page2.body.data.map((d: any) => d.id)).toEqual([a.id]);
    expectError(await svc.call('GET', '/v1/domains?status=expired', { headers: sub }), 400, 'validation_error');
  });

  it("answers 404 for another account's domain on get, verify and delete", async () => {
    const d = await addDomain(svc, fresh());
    const sub = await newSubaccount();
    expectError(await getDomain(d.id, sub), 404, 'not_found');
    expectError(await svc.call('POST', `/v1/domains/${d.id}/verify`, { headers: sub }), 404, 'not_found');
    expectError(await svc.call('DELETE', `/v1/domains/${d.id}`, { headers: sub }), 404, 'not_found');
    const list = await svc.call('GET', '/v1/domains?limit=100', { headers: sub });
    expect(list.body.data.map((x: any) => x.id)).not.toContain(d.id);
    expect((await getDomain(d.id)).status).toBe(200);
  });

  it('deletes a domain (204); its jobs then do nothing and the name is free for any account', async () => {
    const name = fresh();
    const d = await addDomain(svc, name);
    const del = await svc.call('DELETE', `/v1/domains/${d.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expectError(await getDomain(d.id), 404, 'not_found');
    expectError(await svc.call('DELETE', `/v1/domains/${d.id}`), 404, 'not_found');
    await svc.advanceJobs(8 * DAY);
    expect(await domainEvents(d.id)).toEqual([]);
    const sub = await newSubaccount();
    const again = await addDomain(svc, name, sub);
    expect(again.id).not.toBe(d.id);
  });
});

describe('the status table (spec: Sending domain status)', () => {
  it('pending → verified on verify when every required record is valid; DMARC is reported but never blocks', async () => {
    const d = await addDomain(svc, fresh());
    await publishDomainRecords(svc, d.records, { except: ['dmarc'] });
    const before = svc.now();
    const v = await verify(d.id);
    expect(v.status).toBe('verified');
    expect(v.records.map((r: any) => [r.purpose, r.status])).toEqual([
      ['verification', 'valid'],
      ['spf', 'valid'],
      ['dkim', 'valid'],
      ['return_path', 'valid'],
      ['dmarc', 'missing'],
    ]);
    expect(Date.parse(v.verifiedAt)).toBe(before);
    expect(v.lastCheckedAt).toBe(v.verifiedAt);
    const again = await verify(d.id);
    expect(again.status).toBe('verified');
    expect(statuses(await domainEvents(d.id))).toEqual([['domain.verified', 'verified']]);
    const [ev] = await domainEvents(d.id);
    expect(ev).toMatchObject({ type: 'domain.verified', domainId: d.id, domain: d.domain, status: 'verified' });
    expect((await getDomain(d.id)).body).toEqual(again);
  });

  it('pending → failed on a missing record, once; a wrong value is invalid; failed → verified when fixed', async () => {
    const d = await addDomain(svc, fresh());
    await publishDomainRecords(svc, d.records, { except: ['dkim'], override: { verification: 'svc-verification=wrong' } });
    const failed = await verify(d.id);
    expect(failed.status).toBe('failed');
    expect(rec(failed, 'dkim').status).toBe('missing');
    expect(rec(failed, 'verification').status).toBe('invalid');
    expect(rec(failed, 'spf').status).toBe('valid');
    expect(failed.verifiedAt).toBeNull();
    expect((await verify(d.id)).status).toBe('failed');
    expect(statuses(await domainEvents(d.id))).toEqual([['domain.failed', 'failed']]);
    // fixed with the targets in upper case and fully qualified: names compare case-insensitively
    const dkim = rec(d, 'dkim');
    await svc.call('PUT', `/v1/sandbox/dns/${dkim.name.toUpperCase()}.`, { body: { records: [{ type: 'CNAME', value: `${dkim.value.toUpperCase()}.` }] } });
    await publishDomainRecords(svc, d.records, { except: ['dkim', 'spf', 'return_path', 'dmarc'] });
    const fixed = await verify(d.id);
    expect(fixed.status).toBe('verified');
    expect(statuses(await domainEvents(d.id))).toEqual([['domain.failed', 'failed'], ['domain.verified', 'verified']]);
  });

  it('stays pending while a record propagates (visibleAfterSecs), then verifies', async () => {
    const d = await addDomain(svc, fresh());
    await publishDomainRecords(svc, d.records, { visibleAfterSecs: 300 });
    const early = await verify(d.id);
    expect(early.status).toBe('pending');
    expect(early.records.every((r: any) => r.status === 'pending')).toBe(true);
    expect(early.lastCheckedAt).not.toBeNull();
    await svc.advanceJobs(299);
    expect((await verify(d.id)).status).toBe('pending');
    await svc.advanceJobs(1);
    expect((await verify(d.id)).status).toBe('verified');
    expect(statuses(await domainEvents(d.id))).toEqual([['domain.verified', 'verified']]);
  });

  it('a missing required record fails even while another still propagates', async () => {
    const d = await addDomain(svc, fresh());
    await publishDomainRecords(svc, d.records, { except: ['spf', 'return_path'], visibleAfterSecs: 600 });
    const v = await verify(d.id);
    expect(v.status).toBe('failed');
    expect(rec(v, 'spf').status).toBe('missing');
    expect(rec(v, 'dkim').status).toBe('pending');
  });

  it('re-checks automatically on the clock: propagating keeps pending, then the re-check verifies', async () => {
    const d = await addDomain(svc, fresh());
    await publishDomainRecords(svc, d.records, { visibleAfterSecs: 15 * MIN });
    const created = Date.parse(d.createdAt);
    await svc.advanceJobs(10 * MIN);
    const at10 = (await getDomain(d.id)).body;
    expect(at10.status).toBe('pending');
    expect(Date.parse(at10.lastCheckedAt)).toBe(created + 10 * MIN * 1000);
    await svc.advanceJobs(10 * MIN);
    const at20 = (await getDomain(d.id)).body;
    expect(at20.status).toBe('verified');
    expect(Date.parse(at20.verifiedAt)).toBe(created + 20 * MIN * 1000);
    expect(statuses(await domainEvents(d.id))).toEqual([['domain.verified', 'verified']]);
  });

  it('re-checks a failing domain without repeating domain.failed, and an automatic re-check verifies it once fixed', async () => {
    const d = await addDomain(svc, fresh());
    const created = Date.parse(d.createdAt);
    await svc.advanceJobs(10 * MIN);
    expect((await getDomain(d.id)).body.status).toBe('failed');
    await svc.advanceJobs(5 * HOUR);
    const later = (await getDomain(d.id)).body;
    expect(later.status).toBe('failed');
    expect(Date.parse(later.lastCheckedAt)).toBe(created + 5 * HOUR * 1000); // hourly after the first hour
    expect(statuses(await domainEvents(d.id))).toEqual([['domain.failed', 'failed']]);
    await publishDomainRecords(svc, d.records);
    await svc.advanceJobs(HOUR);
    const fixed = (await getDomain(d.id)).body;
    expect(fixed.status).toBe('verified');
    expect(Date.parse(fixed.verifiedAt)).toBe(created + 6 * HOUR * 1000);
    expect(statuses(await domainEvents(d.id))).toEqual([['domain.failed', 'failed'], ['domain.verified', 'verified']]);
  });

  it('stops re-checking 72 h after creation; a manual verify still works until the release', async () => {
    const d = await addDomain(svc, fresh());
    const created = Date.parse(d.createdAt);
    await svc.advanceJobs(DOMAIN_TIMINGS.recheckForSecs);
    const at72 = (await getDomain(d.id)).body;
    expect(Date.parse(at72.lastCheckedAt)).toBe(created + DOMAIN_TIMINGS.recheckForSecs * 1000);
    await publishDomainRecords(svc, d.records);
    await svc.advanceJobs(DAY);
    const after = (await getDomain(d.id)).body;
    expect(after.status).toBe('failed');
    expect(after.lastCheckedAt).toBe(at72.lastCheckedAt);
    expect((await verify(d.id)).status).toBe('verified');
    // ever verified: never released
    await svc.advanceJobs(7 * DAY);
    expect((await getDomain(d.id)).status).toBe(200);
  });

  it('releases a never-verified domain at exactly 7 days (domain.expired, once); adding it again retries', async () => {
    const name = fresh();
    const d = await addDomain(svc, name);
    const created = Date.parse(d.createdAt);
    await svc.advanceJobs(DOMAIN_TIMINGS.releaseAfterSecs - 1);
    expect(svc.now()).toBe(created + DOMAIN_TIMINGS.releaseAfterSecs * 1000 - 1000);
    expect((await getDomain(d.id)).body.status).toBe('failed');
    await svc.advanceJobs(1);
    expectError(await getDomain(d.id), 404, 'not_found');
    const events = await domainEvents(d.id);
    expect(statuses(events)).toEqual([['domain.failed', 'failed'], ['domain.expired', 'expired']]);
    expect(events[1]).toMatchObject({ domainId: d.id, domain: name, createdAt: new Date(created + DOMAIN_TIMINGS.releaseAfterSecs * 1000).toISOString() });
    const again = await addDomain(svc, name);
    expect(again.id).not.toBe(d.id);
    expect(again.status).toBe('pending');
    await publishDomainRecords(svc, again.records);
    expect((await verify(again.id)).status).toBe('verified');
    await svc.advanceJobs(DAY);
    expect(statuses(await domainEvents(d.id))).toHaveLength(2);
  });

  it('releases a pending domain that was never checked too', async () => {
    const d = await addDomain(svc, fresh());
    // published but propagating for longer than 7 days: every re-check finds it pending
    await publishDomainRecords(svc, d.records, { visibleAfterSecs: 8 * DAY });
    await svc.advanceJobs(DOMAIN_TIMINGS.releaseAfterSecs);
    expectError(await getDomain(d.id), 404, 'not_found');
    expect(statuses(await domainEvents(d.id))).toEqual([['domain.expired', 'expired']]);
  });

  it('verified → degraded when a required record breaks (daily check, once), and back to verified when it recovers', async () => {
    const d = await verifiedDomain(svc, fresh());
    const dkim = rec(d, 'dkim');
    expect((await svc.call('DELETE', `/v1/sandbox/dns/${dkim.name}`)).status).toBe(204);
    await svc.advanceJobs(DAY);
    const degraded = (await getDomain(d.id)).body;
    expect(degraded.status).toBe('degraded');
    expect(rec(degraded, 'dkim').status).toBe('missing');
    await svc.advanceJobs(2 * DAY);
    expect((await getDomain(d.id)).body.status).toBe('degraded');
    expect(statuses(await domainEvents(d.id))).toEqual([['domain.verified', 'verified'], ['domain.degraded', 'degraded']]);
    // a degraded domain is never released, however long it stays broken
    await svc.advanceJobs(8 * DAY);
    expect((await getDomain(d.id)).body.status).toBe('degraded');
    await publishDomainRecords(svc, d.records);
    await svc.advanceJobs(DAY);
    const recovered = (await getDomain(d.id)).body;
    expect(recovered.status).toBe('verified');
    expect(statuses(await domainEvents(d.id))).toEqual([
      ['domain.verified', 'verified'],
      ['domain.degraded', 'degraded'],
      ['domain.verified', 'verified'],
    ]);
  });

  it('a verified domain whose record only propagates again stays verified', async () => {
    const d = await verifiedDomain(svc, fresh());
    await publishDomainRecords(svc, d.records, { visibleAfterSecs: 2 * DAY });
    await svc.advanceJobs(DAY);
    expect((await getDomain(d.id)).body.status).toBe('verified');
  });

  it('resumes its schedule after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-domains-restart-'));
    try {
      const first = await startTestService({ dataDir });
      const res = await first.call('POST', '/v1/domains', { body: { domain: fresh() } });
      expect(res.status).toBe(201);
      await first.stop();
      const again = await startTestService({ dataDir });
      try {
        await again.advanceJobs(10 * MIN);
        const d = await again.call('GET', `/v1/domains/${res.body.id}`);
        expect(d.body.status).toBe('failed');
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the send path finds the sending domain', () => {
  it("by any case of its name, and not another account's nor an unknown one (409, spec: only a verified domain can send)", async () => {
    const name = fresh();
    await verifiedDomain(svc, name);
    const send = (from: string, headers?: Record<string, string>) => svc.call('POST', '/v1/emails', { body: emailBody(from), headers });
    for (const spelling of [name, name.toUpperCase()]) {
      const res = await send(`hi@${spelling}`);
      expect(res.status, `${spelling}: ${res.text}`).toBe(201);
    }
    const other = await newSubaccount();
    expectError(await send(`hi@${name}`, other), 409, 'conflict');
    expectError(await send(`hi@${fresh()}`), 409, 'conflict');
  });
});

describe('sandbox DNS (contract §9)', () => {
  it('publishes, reads (extension), replaces and removes a name', async () => {
    const name = `_check.${fresh()}`;
    const put = await svc.call('PUT', `/v1/sandbox/dns/${name.toUpperCase()}.`, { body: { records: [{ type: 'TXT', value: '  hello  ' }], visibleAfterSecs: 60 } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ name, records: [{ type: 'TXT', value: 'hello' }], propagating: true });
    expect(Date.parse(put.body.visibleAt)).toBe(svc.now() + 60_000);
    expect((await svc.call('GET', `/v1/sandbox/dns/${name}`)).body).toEqual(put.body);
    const replaced = await svc.call('PUT', `/v1/sandbox/dns/${name}`, { body: { records: [{ type: 'MX', value: '10 mx.example.net' }] } });
    expect(replaced.body).toMatchObject({ records: [{ type: 'MX', value: '10 mx.example.net' }], propagating: false });
    expect((await svc.call('DELETE', `/v1/sandbox/dns/${name}`)).status).toBe(204);
    expectError(await svc.call('GET', `/v1/sandbox/dns/${name}`), 404, 'not_found');
    expectError(await svc.call('DELETE', `/v1/sandbox/dns/${name}`), 404, 'not_found');
  });

  it('refuses a bad name, an unknown record type and a negative delay', async () => {
    expectError(await svc.call('PUT', '/v1/sandbox/dns/bad%20name.example.com', { body: { records: [] } }), 400, 'validation_error', ['params', 'name']);
    expectError(await svc.call('PUT', `/v1/sandbox/dns/${fresh()}`, { body: { records: [{ type: 'A', value: '192.0.2.1' }] } }), 400, 'validation_error');
    expectError(await svc.call('PUT', `/v1/sandbox/dns/${fresh()}`, { body: { records: [], visibleAfterSecs: -1 } }), 400, 'validation_error', ['body', 'visibleAfterSecs']);
  });

  it('exists only on a sandbox service; the domains API is always there', async () => {
    const hosted = await startTestService({ sandbox: false });
    try {
      expect((await hosted.call('PUT', '/v1/sandbox/dns/x.example.com', { body: { records: [] } })).status).toBe(404);
      const created = await hosted.call('POST', '/v1/domains', { body: { domain: fresh() } });
      expect(created.status, created.text).toBe(201);
    } finally {
      await hosted.stop();
    }
  });

});

// A pending claim never locks an account out of names under a domain it
// verified, and no one registers a name under another account's verified domain
// (domain/email/zone-claims.ts has the rules).
describe('zones: verified domains against pending claims', () => {
  const put = (name: string, headers: Record<string, string>, value = 'v=DMARC1; p=none') =>
    svc.call('PUT', `/v1/sandbox/dns/${name}`, { headers, body: { records: [{ type: 'TXT', value }] } });

  it("another account's pending parent takes nothing from a verified domain: its records, and new domains under that parent", async () => {
    const a = await newSubaccount();
    const b = await newSubaccount();
    const parent = fresh('acme');
    const mine = await verifiedDomain(svc, `mail.${parent}`, a);
    const squat = await svc.call('POST', '/v1/domains', { headers: b, body: { domain: parent } });
    expect(squat.status, squat.text).toBe(201);
    expect(squat.body.status).toBe('pending');

    // A still edits its own _dmarc, and B may not.
    expect((await put(`_dmarc.${mine.domain}`, a)).status).toBe(200);
    const refused = await put(`_dmarc.${mine.domain}`, b, 'v=DMARC1; p=reject');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('another account verified');
    // A new domain of A's under the squatted parent verifies.
    const news = await verifiedDomain(svc, `news.${parent}`, a);
    expect(news.status).toBe('verified');
    // The parent's own names stay the pending claimant's.
    expect((await put(`_dmarc.${parent}`, b)).status).toBe(200);
    expect((await put(`_dmarc.${parent}`, a)).status).toBe(403);
  });

  it("no one registers a name under another account's verified domain (409); its owner may", async () => {
    const a = await newSubaccount();
    const b = await newSubaccount();
    const d = await verifiedDomain(svc, fresh('brand'), a);
    const blocked = await svc.call('POST', '/v1/domains', { headers: b, body: { domain: `mail.${d.domain}` } });
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.message).toContain(`under ${d.domain}, a domain another account verified`);
    expect((await svc.call('POST', '/v1/domains', { headers: b, body: { domain: `deep.mail.${d.domain}` } })).status).toBe(409);
    expect((await svc.call('POST', '/v1/domains', { headers: a, body: { domain: `mail.${d.domain}` } })).status).toBe(201);
  });

  it('a pending claim made before the parent was verified is released to the account that verified it', async () => {
    const a = await newSubaccount();
    const b = await newSubaccount();
    const name = fresh('early');
    const early = await addDomain(svc, `mail.${name}`, b);
    await verifiedDomain(svc, name, a);
    const taken = await svc.call('POST', '/v1/domains', { headers: a, body: { domain: `mail.${name}` } });
    expect(taken.status, taken.text).toBe(201);
    expect((await getDomain(early.id, b)).status).toBe(404);
    expect(statuses(await domainEvents(early.id, b))).toEqual([['domain.expired', 'expired']]);
    // A verified claim is never taken: B's own verified domain stays B's.
    const bVerified = await verifiedDomain(svc, fresh('kept'), b);
    expect((await svc.call('POST', '/v1/domains', { headers: a, body: { domain: bVerified.domain } })).status).toBe(409);
  });

  it('a test key cannot delete a domain added with a live key (contract §2)', async () => {
    const d = await addDomain(svc, fresh('live'));
    const res = await svc.call('DELETE', `/v1/domains/${d.id}`, { key: svc.bootstrap.testKey });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('a test key cannot change what a live key created');
    const own = await svc.call('POST', '/v1/domains', { key: svc.bootstrap.testKey, body: { domain: fresh('test') } });
    expect((await svc.call('DELETE', `/v1/domains/${own.body.id}`, { key: svc.bootstrap.testKey })).status).toBe(204);
    expect((await svc.call('DELETE', `/v1/domains/${d.id}`)).status).toBe(204);
  });
});
