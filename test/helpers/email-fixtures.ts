import { expect } from 'vitest';
import type { TestService } from './service.js';
import { randomUUID } from 'node:crypto';
import type { DomainStatus } from '../../src/api/values/email.js';


// Shared email fixtures (issue 11). A verified sending domain is made the way a user makes one: add
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

// Shared fixtures for the email tests (issue 11). Until the sending-domain routes merge, a domain is
// put straight into `sending_domains` with SQL in the state a test needs; the mail-domains branch may
// replace `addSendingDomain` with one that walks the real API (POST /v1/domains, sandbox DNS, verify).

let counter = 0;

/** A fresh domain name no other test uses. */
export const freshDomain = (label = 'mail'): string => `${label}-${process.pid}-${++counter}.acme-test.example`;

/** Inserts a sending domain for `accountId` (default: the bootstrap account) in `status`; returns its id. */
export function addSendingDomain(svc: TestService, domain: string, status: DomainStatus = 'verified', accountId = svc.bootstrap.accountId): string {
  const id = `dom_${randomUUID().replace(/-/g, '')}`;
  const now = svc.now();
  const verified = status === 'verified' || status === 'degraded';
  svc.deps.db
    .prepare(
      `INSERT INTO sending_domains (id, account_id, domain, status, records, ever_verified, created_at, verified_at, last_checked_at, updated_at)
       VALUES (?, ?, ?, ?, '[]', ?, ?, ?, ?, ?)`,
    )
    .run(id, accountId, domain.toLowerCase(), status, verified ? 1 : 0, now, verified ? now : null, now, now);
  return id;
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
