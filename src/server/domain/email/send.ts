import type { Clock } from '../../clock.js';
import type { UnitOfWork, DomainScheduler } from '../deps.js';
import { charge, type BillingDeps } from '../billing/charging.js';
import type { SendingDomainsRepo } from '../../storage/sending-domains-repo.js';
import type { SuppressionsRepo } from '../../storage/suppressions-repo.js';
import type { Actor } from '../actor.js';
import type { ErrorDetail } from '../../../api/schemas/errors.js';
import type { Page } from '../../../api/schemas/page.js';
import type { SendEmailBody } from '../../../api/schemas/email.js';
import { EMAIL_LIMITS, RECIPIENT_KINDS, type EmailStatus, type RecipientKind } from '../../../api/values/email.js';
import { emailChargeCents } from '../../../api/values/prices.js';
import type { EmailRecord, EmailsRepo, NewRecipient, RecipientRecord } from '../../storage/emails-repo.js';
import type { SendingDomainRecord } from '../../storage/sending-domains-repo.js';
import { ServiceError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { parseMailbox, type Mailbox } from './address.js';
import { assertSendingNotPaused } from './complaint-rate.js';
import { aggregateEmailStatus } from './status.js';
import { suppressionKey } from './suppressions.js';
import { EMAIL_DELIVER_JOB } from './jobs.js';

// spec: Send email body, Limits, Email status, Email resource; contract §8 (email), §11 (email price).
// The accept path: every rule of the body, the sending domain, the complaint-rate pause, then one
// transaction that records the email and its recipients, charges, and schedules delivery. What follows
// (handing over, outcomes, events) is the simulated mail server's (domain/email/delivery.ts).

// The family's part of the service deps (the domain layer names the repositories, not deps.ts).
export interface SendEmailDeps extends BillingDeps {
  uow: UnitOfWork;
  clock: Clock;
  scheduler: DomainScheduler;
  sendingDomains: SendingDomainsRepo;
  emails: EmailsRepo;
  suppressions: SuppressionsRepo;
}
export interface EmailReadDeps {
  emails: EmailsRepo;
}

/** An email with its recipient rows: what the Email view shows. */
export interface EmailWithRecipients {
  email: EmailRecord;
  recipients: RecipientRecord[];
}

interface ValidSend {
  from: Mailbox;
  recipients: { address: string; kind: RecipientKind }[];
}

const asList = (v: string | string[] | undefined): { values: string[]; single: boolean } =>
  v === undefined ? { values: [], single: false } : typeof v === 'string' ? { values: [v], single: true } : { values: v, single: false };

const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/**
 * Every rule of the send body that needs no storage, all failures at once (each detail names its
 * field). The schema (api/schemas/email.ts) has already checked types, unknown fields and the tag count.
 */
export function validateSendBody(body: SendEmailBody): ValidSend {
  const details: ErrorDetail[] = [];

  // spec: Send email body — `from` may carry a display name before one address.
  const from = parseMailbox(body.from);
  if (!from.ok) details.push({ path: ['body', 'from'], message: `not a valid sender: ${from.reason}` });

  // spec: Send email body — to, cc, bcc: a string or an array of strings; display names allowed; each
  // address once across the three (compared case-insensitively: a decision, the spec does not say).
  const recipients: ValidSend['recipients'] = [];
  const seen = new Map<string, string>();
  let total = 0;
  for (const kind of RECIPIENT_KINDS) {
    const { values, single } = asList(body[kind]);
    total += values.length;
    values.forEach((value, i) => {
      const path = single ? ['body', kind] : ['body', kind, i];
      const where = single ? kind : `${kind}[${i}]`;
      const parsed = parseMailbox(value);
      if (!parsed.ok) {
        details.push({ path, message: `not a valid recipient: ${parsed.reason}` });
        return;
      }
      const key = suppressionKey(parsed.mailbox.address);
      const first = seen.get(key);
      if (first) {
        details.push({ path, message: `${parsed.mailbox.address} is already a recipient (${first}); give each address once across to, cc and bcc` });
        return;
      }
      seen.set(key, where);
      recipients.push({ address: parsed.mailbox.address, kind });
    });
  }
  const given = RECIPIENT_KINDS.filter((k) => body[k] !== undefined);
  if (total === 0) {
    // Every field that could have held one is named: the fix is in any of them.
    for (const kind of RECIPIENT_KINDS) details.push({ path: ['body', kind], message: 'at least one recipient is required across to, cc and bcc' });
  } else if (total > EMAIL_LIMITS.recipients) {
    // spec: Limits — 50 recipients in total across the three.
    for (const kind of given) {
      details.push({ path: ['body', kind], message: `${total} recipients across to, cc and bcc; at most ${EMAIL_LIMITS.recipients} in total` });
    }
  }

  // spec: Send email body — html, text: at least one; each at most 1 MB (UTF-8 bytes). An empty string is no body.
  if (!body.html && !body.text) {
    for (const field of ['html', 'text'] as const) details.push({ path: ['body', field], message: 'give html or text (or both)' });
  }
  for (const field of ['html', 'text'] as const) {
    const value = body[field];
    if (value === undefined) continue;
    const bytes = utf8Bytes(value);
    if (bytes > EMAIL_LIMITS.bodyBytes) {
      details.push({ path: ['body', field], message: `${bytes} bytes (UTF-8); at most ${EMAIL_LIMITS.bodyBytes} bytes` });
    }
  }

  // spec: Limits — 10 tags (the schema refuses more; kept here too so a body's failures come together
  // when a caller skips the schema, as domain tests do), 20 metadata pairs of strings.
  if (body.tags && body.tags.length > EMAIL_LIMITS.tags) {
    details.push({ path: ['body', 'tags'], message: `${body.tags.length} tags; at most ${EMAIL_LIMITS.tags}` });
  }
  const pairs = Object.keys(body.metadata ?? {}).length;
  if (pairs > EMAIL_LIMITS.metadataPairs) {
    details.push({ path: ['body', 'metadata'], message: `${pairs} pairs; at most ${EMAIL_LIMITS.metadataPairs}` });
  }

  if (details.length || !from.ok) throw new ServiceError('validation_error', 'the email cannot be sent as given; see details', details);
  return { from: from.mailbox, recipients };
}

/** Why a domain in this state cannot send, and what to do about it (contract §8: 409). */
function domainRefusal(domain: string, d: SendingDomainRecord | undefined, accountId: string): string | null {
  if (!d || d.accountId !== accountId) {
    return `${domain} is not one of this account's sending domains; add it with POST /v1/domains, publish its DNS records and verify it`;
  }
  switch (d.status) {
    case 'verified':
      return null;
    case 'pending':
      return `${domain} (${d.id}) is pending verification; publish its DNS records, then POST /v1/domains/${d.id}/verify until its status is verified`;
    case 'failed':
      return `${domain} (${d.id}) failed verification; fix its DNS records, then POST /v1/domains/${d.id}/verify`;
    case 'degraded':
      return `${domain} (${d.id}) is degraded: a required DNS record no longer checks out, so sending is blocked until the records are fixed and the domain is verified again`;
  }
}

/**
 * POST /v1/emails (spec: Send email body; contract §8). Call inside the request's transaction
 * (commitOnce) so an Idempotency-Key records the 201 with the write. Refusals, in order: the body
 * (400, every failure at once), the sending domain (409 unless verified and the account's), the
 * complaint-rate pause (403). Then, in one transaction: the email (`queued`, or `failed` when every
 * recipient is suppressed — spec: Email status) with its recipient rows (suppressed ones `suppressed`),
 * the charge, and the delivery job due now.
 *
 * Test keys (decision, spec: Authentication 2 — "email sends nothing and bills nothing"): the
 * email is accepted and recorded like a live one and the simulated mail server still walks it (so
 * webhook handlers can be tested), but nothing is charged; `emails.mode` tells the mail server not to
 * put anything in the mail sandbox.
 */
export async function sendEmail(deps: SendEmailDeps, actor: Actor, body: SendEmailBody): Promise<EmailWithRecipients> {
  const valid = validateSendBody(body);
  return await deps.uow.write(async (tx) => {
    const accountId = actor.account.id;
    const domain = await tx.sendingDomains.findByDomain(valid.from.domain);
    const refusal = domainRefusal(valid.from.domain, domain, accountId);
    if (refusal || !domain) throw new ServiceError('conflict', refusal ?? '', [{ path: ['body', 'from'], message: refusal ?? '' }]);
    await assertSendingNotPaused(tx, actor);

    const now = tx.clock.nowMs();
    // spec: Email resource — recipients skipped because of an earlier bounce, complaint or unsubscribe are `suppressed`.
    const rows: NewRecipient[] = await Promise.all(
      valid.recipients.map(async (r) => ({
        address: r.address,
        kind: r.kind,
        status: (await tx.suppressions.find(accountId, suppressionKey(r.address))) ? ('suppressed' as const) : ('queued' as const),
      })),
    );
    const sendable = rows.filter((r) => r.status !== 'suppressed').length;
    // spec: Email status — created `queued`; `failed` when every recipient is suppressed (contract §8's table).
    const status: EmailStatus = aggregateEmailStatus(rows.map((r) => r.status));
    const email: EmailRecord = {
      id: newId('eml'),
      accountId,
      domainId: domain.id,
      status,
      mode: actor.mode,
      from: body.from.trim(),
      subject: body.subject ?? null,
      html: body.html || null,
      text: body.text || null,
      tags: body.tags ?? [],
      metadata: body.metadata ?? {},
      externalRef: body.externalRef ?? null,
      createdAt: now,
      updatedAt: now,
    };
    const recipients = await tx.emails.insert(email, rows);
    // spec: Send email body — suppressed recipients are not billed; contract §11: 1 cent per started
    // block of 10 non-suppressed recipients; live keys only.
    // A refusal (402) throws before anything is charged and rolls the whole accept back: no email, no recipients, no job.
    if (sendable > 0) {
      await charge(tx, { accountId, mode: actor.mode }, { category: 'email', quantity: sendable, amountCents: emailChargeCents(sendable), ref: email.id });
    }
    // Nothing to hand over when every recipient was suppressed: the email is final as accepted.
    if (sendable > 0) await tx.scheduler.schedule(EMAIL_DELIVER_JOB, now, { emailId: email.id });
    return { email, recipients };
  });
}

/** GET /v1/emails/{id}: another account's email is not found. */
export async function getEmail(deps: EmailReadDeps, actor: Actor, id: string): Promise<EmailWithRecipients> {
  const email = await deps.emails.get(actor.account.id, id);
  if (!email) throw notFound(`email ${id}`);
  return { email, recipients: await deps.emails.recipients(email.id) };
}

/** GET /v1/emails (extension): newest first, keyset-paged, optionally one status. */
export async function listEmails(deps: EmailReadDeps, actor: Actor, limit: number, cursor?: string, status?: EmailStatus): Promise<Page<EmailWithRecipients>> {
  const page = await deps.emails.list(actor.account.id, limit, cursor, status);
  return { ...page, data: await Promise.all(page.data.map(async (email) => ({ email, recipients: await deps.emails.recipients(email.id) }))) };
}
