import { randomUUID } from 'node:crypto';
import type { TestService } from './service.js';
import type { DomainStatus } from '../../src/api/values/email.js';

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
