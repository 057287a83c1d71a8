import { expect } from 'vitest';
import type { TestService } from './service.js';
import type { DomainStatus, RecipientKind } from '../../src/api/values/email.js';
import { plantAcceptedEmail, plantSendingDomain } from './inspect.js';
import { asAccount, feedEvents } from './reads.js';

// Shared email fixtures. A verified sending domain is made the way a user makes one: add
// it, publish its records in the sandbox DNS table (contract §9), verify.

export interface DnsRecordOut {
  type: 'TXT' | 'CNAME' | 'MX';
  name: string;
  value: string;
  purpose: string;
  status: string;
}

export interface PublishOptions {
  /** Purposes left unpublished (to watch a check find them missing). */
  except?: string[];
  /** Values replaced per purpose (to watch a check find them invalid). */
  override?: Record<string, string>;
  visibleAfterSecs?: number;
  headers?: Record<string, string>;
}

/** Publishes a domain's records, one PUT per DNS name (SPF and the return-path MX share a name). */
export async function publishDomainRecords(svc: TestService, records: DnsRecordOut[], o: PublishOptions = {}): Promise<void> {
  const byName = new Map<string, Array<{ type: string; value: string }>>();
  for (const r of records) {
    if (o.except?.includes(r.purpose)) continue;
    const list = byName.get(r.name) ?? [];
    list.push({ type: r.type, value: o.override?.[r.purpose] ?? r.value });
    byName.set(r.name, list);
  }
  for (const [name, recs] of byName) {
    const body: Record<string, unknown> = { records: recs };
    if (o.visibleAfterSecs !== undefined) body.visibleAfterSecs = o.visibleAfterSecs;
    const res = await svc.call('PUT', `/v1/sandbox/dns/${encodeURIComponent(name)}`, { body, headers: o.headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

/** Adds `domain` (201 pending) on the caller's account. */
export async function addDomain(svc: TestService, domain: string, headers?: Record<string, string>): Promise<any> {
  const res = await svc.call('POST', '/v1/domains', { body: { domain }, headers });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A `verified` sending domain on the caller's account (or a sub-account through `headers`). */
export async function verifiedDomain(svc: TestService, domain: string, headers?: Record<string, string>): Promise<any> {
  const created = await addDomain(svc, domain, headers);
  await publishDomainRecords(svc, created.records, { headers });
  const res = await svc.call('POST', `/v1/domains/${created.id}/verify`, { headers });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('verified');
  return res.body;
}

// addSendingDomain: a domain in the state a send test needs. `pending` and `verified` the way a user
// gets there (addDomain, verifiedDomain above); failed and degraded are slow to reach through the API
// (email-domains.test.ts walks those moves), so those are planted in storage (helpers/inspect.ts).

// acceptEmail (the mail server's tests): an email stored the way the accept path stores it, with
// recipients in exactly the states a test needs (`suppressed` at the accept), planted through
// helpers/inspect.ts; the mail server's work that follows is real.

let counter = 0;

/** A fresh domain name no other test uses. */
export const freshDomain = (label = 'mail'): string => `${label}-${process.pid}-${++counter}.acme-test.example`;

/**
 * A sending domain of `accountId` (default: the bootstrap account; else a sub-account of it, acted for
 * through `Service-Subaccount`) in `status`; returns its id. `pending`: added through the API;
 * `verified`: added, its records published and verified through the API; `failed`, `degraded`:
 * planted in storage.
 */
export async function addSendingDomain(svc: TestService, domain: string, status: DomainStatus = 'verified', accountId = svc.bootstrap.accountId): Promise<string> {
  const { headers } = asAccount(svc, accountId);
  if (status === 'pending') return (await addDomain(svc, domain, headers)).id as string;
  if (status === 'verified') return (await verifiedDomain(svc, domain, headers)).id as string;
  return await plantSendingDomain(svc, accountId, domain, status);
}

/** A sub-account of the bootstrap agency, acted for with the agency's live key and this header. */
export async function newAccount(svc: TestService, name = 'Email tests'): Promise<{ id: string; headers: Record<string, string> }> {
  const res = await svc.call('POST', '/v1/subaccounts', { body: { name } });
  if (res.status !== 201) throw new Error(`sub-account: ${res.status} ${res.text}`);
  return { id: res.body.id as string, headers: { 'service-subaccount': res.body.id as string } };
}

/** A minimal valid send body from `from`. */
export const emailBody = (from: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  from,
  to: 'jane@example.com',
  subject: 'Hello',
  text: 'Hello there',
  ...extra,
});

export interface FixtureEmail {
  accountId?: string;
  mode?: 'live' | 'test';
  to?: string[];
  cc?: string[];
  bcc?: string[];
  subject?: string | null;
  html?: string | null;
  text?: string | null;
  tags?: string[];
  metadata?: Record<string, string>;
  externalRef?: string | null;
  /** Recipients already suppressed at the accept (marked `suppressed`, never handed over). */
  suppressed?: string[];
}

const domains = new Map<string, { id: string; domain: string }>();

/** The account's verified sending domain for acceptEmail (one per service and account). */
async function fixtureDomain(svc: TestService, accountId: string): Promise<{ id: string; domain: string }> {
  const key = `${svc.baseUrl} ${accountId}`;
  let d = domains.get(key);
  if (!d) {
    const domain = freshDomain('delivery');
    domains.set(key, (d = { id: await addSendingDomain(svc, domain, 'verified', accountId), domain }));
  }
  return d;
}

/** Accepts an email (`queued`) and schedules its handover now; returns its id. */
export async function acceptEmail(svc: TestService, e: FixtureEmail): Promise<string> {
  const accountId = e.accountId ?? svc.bootstrap.accountId;
  const domain = await fixtureDomain(svc, accountId);
  const now = svc.now();
  const suppressed = new Set((e.suppressed ?? []).map((a) => a.toLowerCase()));
  const recipients = (['to', 'cc', 'bcc'] as RecipientKind[]).flatMap((kind) =>
    (e[kind] ?? []).map((address) => ({ address, kind, status: suppressed.has(address.toLowerCase()) ? ('suppressed' as const) : ('queued' as const) })),
  );
  expect(recipients.length).toBeGreaterThan(0);
  return await plantAcceptedEmail(
    svc,
    {
      accountId,
      domainId: domain.id,
      status: recipients.every((r) => r.status === 'suppressed') ? 'failed' : 'queued',
      mode: e.mode ?? 'live',
      from: `Shop <hello@${domain.domain}>`,
      subject: e.subject === undefined ? 'Your order' : e.subject,
      html: e.html === undefined ? null : e.html,
      text: e.text === undefined ? 'Thanks for your order.' : e.text,
      tags: e.tags ?? [],
      metadata: e.metadata ?? {},
      externalRef: e.externalRef ?? null,
      createdAt: now,
      updatedAt: now,
    },
    recipients,
  );
}

/**
 * The email's record as stored (status, and recipients with their delivery time and stamps in epoch
 * ms: GET /v1/emails/{id} shows no delivery time), read through helpers/inspect.ts.
 */
export { storedEmail } from './inspect.js';

/** The account's `email.*` events from the feed for one email, oldest first. */
export async function emailEvents(svc: TestService, emailId: string, headers?: Record<string, string>): Promise<any[]> {
  return (await feedEvents(svc, { headers, types: 'email.*' })).filter((e) => e.emailId === emailId);
}
