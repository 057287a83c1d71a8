import { expect } from 'vitest';
import type { TestService } from './service.js';
import { newId } from '../../src/server/ids.js';
import { EMAIL_DELIVER_JOB } from '../../src/server/domain/email/jobs.js';
import type { RecipientKind } from '../../src/api/values/email.js';

// Email fixtures shared by the email tests (issue 11).
//
// verifiedDomain: until the sending-domain routes are merged, a `verified` row is inserted straight
// into `sending_domains` with SQL. acceptEmail: until `POST /v1/emails` is merged, an email is
// accepted the way the accept path does it — the email and its recipients through the repository and
// the `email.deliver` job scheduled now, in one transaction — so the mail server's work is real.

let domainCounter = 0;

/** A verified sending domain of the account (a fresh name each call unless given). */
export function verifiedDomain(svc: TestService, accountId = svc.bootstrap.accountId, domain = `mail${++domainCounter}-${Date.now()}.example.com`): { id: string; domain: string } {
  const id = newId('dom');
  const now = svc.now();
  svc.db
    .prepare(
      `INSERT INTO sending_domains (id, account_id, domain, status, records, ever_verified, created_at, verified_at, last_checked_at, updated_at)
       VALUES (?, ?, ?, 'verified', '[]', 1, ?, ?, ?, ?)`,
    )
    .run(id, accountId, domain, now, now, now, now);
  return { id, domain };
}

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

/** Accepts an email (`queued`) and schedules its handover now; returns its id. */
export function acceptEmail(svc: TestService, e: FixtureEmail): string {
  const accountId = e.accountId ?? svc.bootstrap.accountId;
  const key = `${svc.baseUrl} ${accountId}`;
  let domain = domains.get(key);
  if (!domain) domains.set(key, (domain = verifiedDomain(svc, accountId)));
  const id = newId('eml');
  const now = svc.now();
  const suppressed = new Set((e.suppressed ?? []).map((a) => a.toLowerCase()));
  const recipients = (['to', 'cc', 'bcc'] as RecipientKind[]).flatMap((kind) =>
    (e[kind] ?? []).map((address) => ({ address, kind, status: suppressed.has(address.toLowerCase()) ? ('suppressed' as const) : ('queued' as const) })),
  );
  expect(recipients.length).toBeGreaterThan(0);
  const deps = svc.deps;
  deps.uow.transaction(() => {
    deps.emails.insert(
      {
        id,
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
    deps.scheduler.schedule(EMAIL_DELIVER_JOB, now, { emailId: id });
  });
  return id;
}

/** The email's record as stored (status and recipients), read through the repository. */
export function storedEmail(svc: TestService, id: string) {
  const email = svc.deps.emails.getById(id);
  expect(email).toBeDefined();
  return { ...email!, recipients: svc.deps.emails.recipients(id) };
}

/** The account's `email.*` events from the feed for one email, oldest first. */
export async function emailEvents(svc: TestService, emailId: string, headers?: Record<string, string>): Promise<any[]> {
  const out: any[] = [];
  let after: string | undefined;
  for (;;) {
    const q = new URLSearchParams({ types: 'email.*', limit: '100', ...(after ? { after } : {}) });
    const res = await svc.call('GET', `/v1/events?${q}`, { headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.data.filter((e: any) => e.emailId === emailId));
    if (!res.body.hasMore) return out;
    after = res.body.cursor;
  }
}
