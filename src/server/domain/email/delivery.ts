import type { Clock } from '../../clock.js';
import type { UnitOfWork } from '../../storage/unit-of-work.js';
import type { Scheduler } from '../../scheduler.js';
import type { EventStore } from '../events/store.js';
import type { EmailRecord, EmailsRepo, RecipientPatch, RecipientRecord } from '../../storage/emails-repo.js';
import type { SuppressionsRepo } from '../../storage/suppressions-repo.js';
import type { MailboxRepo } from '../../storage/mailbox-repo.js';
import type { SuppressionReason } from '../../../api/values/email.js';
import { newId } from '../../ids.js';
import { mailServerScript, type MailOutcome } from '../../world/mail-server.js';
import { aggregateEmailStatus } from './status.js';
import { commonEmailFields, EMAIL_EVENT_STATUS, type EmailEventType } from './event-fields.js';
import { EMAIL_DELIVER_JOB, EMAIL_STEP_JOB } from './jobs.js';
import { renderedParts } from './mailbox-text.js';

// contract §8: everything after the accept. The `email.deliver` job hands an email's recipients
// over (`email.sent` each); then the simulated mail server's script (world/mail-server.ts) runs one
// `email.step` job per due step, so a clock advance walks them in time order and a restart resumes
// them. Each step is ONE transaction: the recipient row, its timeline entry, the email's status
// (aggregateEmailStatus), the suppression, the mail sandbox row, then the event (emitted last, so
// an outbox reading the email sees it as the event says). A step for a recipient that has moved on
// (a sandbox report got there first) does nothing and ends that recipient's script.

/** What the mail server's jobs run on (compose.ts passes the service's domain deps). */
export interface DeliveryDeps {
  uow: UnitOfWork;
  clock: Clock;
  scheduler: Scheduler;
  emails: EmailsRepo;
  suppressions: SuppressionsRepo;
  events: EventStore;
  mailbox: MailboxRepo;
}

interface StepPayload {
  emailId: string;
  seq: number;
  step: number;
  sentAt: number;
}

/** What each reported outcome does to the recipient's delivery status (engagement keeps it). */
const DELIVERY_OUTCOMES: Partial<Record<MailOutcome['type'], RecipientRecord['status']>> = {
  'email.delivered': 'delivered',
  'email.deferred': 'deferred',
  'email.bounced': 'bounced',
};

/** contract §8: why an outcome suppresses the address (a soft bounce does not: see world/mail-server.ts). */
function suppressionFor(outcome: MailOutcome): SuppressionReason | undefined {
  if (outcome.type === 'email.bounced' && outcome.bounce.class === 'hard') return 'hard_bounce';
  if (outcome.type === 'email.complained') return 'complaint';
  if (outcome.type === 'email.unsubscribed') return 'unsubscribe';
  return undefined;
}

/**
 * Whether an outcome can still happen to a recipient in its current state: a delivery report needs
 * a recipient handed over and not yet final (`sent`, `deferred`); engagement needs a delivered one.
 */
export function outcomeApplies(outcome: MailOutcome, recipient: Pick<RecipientRecord, 'status'>): boolean {
  if (DELIVERY_OUTCOMES[outcome.type]) return recipient.status === 'sent' || recipient.status === 'deferred';
  return recipient.status === 'delivered';
}

/** Updates the email's status from its recipients; writes only on a change. */
function refreshEmailStatus(deps: DeliveryDeps, email: EmailRecord, atMs: number): void {
  const status = aggregateEmailStatus(deps.emails.recipients(email.id).map((r) => r.status));
  if (status !== email.status) deps.emails.setStatus(email.id, status, atMs);
}

/**
 * Applies one report about one recipient, inside the caller's transaction: the simulator's steps
 * and `POST /v1/sandbox/email-events` both come here, so their effects and events are the same.
 */
export function applyOutcome(deps: DeliveryDeps, email: EmailRecord, recipient: RecipientRecord, outcome: MailOutcome, atMs: number): void {
  const type: EmailEventType = outcome.type;
  const patch: RecipientPatch = { updatedAt: atMs };
  const status = DELIVERY_OUTCOMES[type];
  if (status) patch.status = status;
  // The timestamps keep the first time each thing happened (a second open is still an event).
  if (type === 'email.delivered') patch.deliveredAt = atMs;
  if (type === 'email.opened' && recipient.openedAt === null) patch.openedAt = atMs;
  if (type === 'email.clicked' && recipient.clickedAt === null) patch.clickedAt = atMs;
  if (type === 'email.complained' && recipient.complainedAt === null) patch.complainedAt = atMs;
  if (type === 'email.unsubscribed' && recipient.unsubscribedAt === null) patch.unsubscribedAt = atMs;
  deps.emails.updateRecipient(recipient.seq, patch);

  const bounce = outcome.type === 'email.bounced' ? outcome.bounce : null;
  const url = outcome.type === 'email.clicked' ? outcome.url : null;
  const method = outcome.type === 'email.unsubscribed' ? outcome.method : null;
  deps.emails.addTimelineEntry({ emailId: email.id, recipientSeq: recipient.seq, type, status: EMAIL_EVENT_STATUS[type], occurredAt: atMs, bounce, url, method });
  if (status) refreshEmailStatus(deps, email, atMs);

  const reason = suppressionFor(outcome);
  // Decision (mail-common): suppressions are stored lower-case; an email keeps its addresses as given.
  if (reason) deps.suppressions.add({ accountId: email.accountId, address: recipient.address.toLowerCase(), reason, emailId: email.id, createdAt: atMs });

  // Decision (mail-common, spec: Authentication 2): a test-key email sends nothing, so nothing lands
  // in the mail sandbox; its recipients still walk their outcomes and the events still go out.
  if (type === 'email.delivered' && email.mode === 'live') {
    const parts = renderedParts(email);
    deps.mailbox.insert({
      id: newId('mbx'),
      accountId: email.accountId,
      emailId: email.id,
      to: recipient.address,
      from: email.from,
      subject: email.subject,
      text: parts.text,
      html: parts.html,
      tags: email.tags,
      deliveredAt: atMs,
    });
  }

  const all = deps.emails.recipients(email.id);
  deps.events.emit(email.accountId, type, {
    ...commonEmailFields(type, email, recipient, all, atMs),
    ...(bounce ? { bounce } : {}),
    ...(url !== null ? { url } : {}),
    ...(method !== null ? { method } : {}),
  });
}

/**
 * The handover (`email.deliver`): every `queued` recipient goes to the mail server's queue
 * (`sent`, `email.sent`) and its script's first step is scheduled. Decision: an address suppressed
 * since the accept (a complaint from another email that arrived in between) is not sent either;
 * it becomes `suppressed` without an event, as it would have at the accept.
 */
export function handOver(deps: DeliveryDeps, emailId: string): number {
  return deps.uow.transaction(() => {
    const email = deps.emails.getById(emailId);
    if (!email || email.status !== 'queued') return 0;
    const now = deps.clock.nowMs();
    const queued = deps.emails.recipients(emailId).filter((r) => r.status === 'queued');
    const sent: RecipientRecord[] = [];
    for (const r of queued) {
      if (deps.suppressions.find(email.accountId, r.address.toLowerCase())) {
        deps.emails.updateRecipient(r.seq, { status: 'suppressed', updatedAt: now });
        continue;
      }
      deps.emails.updateRecipient(r.seq, { status: 'sent', updatedAt: now });
      deps.emails.addTimelineEntry({ emailId, recipientSeq: r.seq, type: 'email.sent', status: EMAIL_EVENT_STATUS['email.sent'], occurredAt: now, bounce: null, url: null, method: null });
      const first = mailServerScript(r.address, email.html)[0];
      if (first) deps.scheduler.schedule(EMAIL_STEP_JOB, now + first.afterSecs * 1000, { emailId, seq: r.seq, step: 0, sentAt: now } satisfies StepPayload);
      sent.push(r);
    }
    refreshEmailStatus(deps, email, now);
    const all = deps.emails.recipients(emailId);
    for (const r of sent) deps.events.emit(email.accountId, 'email.sent', { ...commonEmailFields('email.sent', email, r, all, now) });
    return sent.length;
  });
}

/** One due step of one recipient's script; schedules the next when it applied. */
export function runStep(deps: DeliveryDeps, p: StepPayload): boolean {
  return deps.uow.transaction(() => {
    const email = deps.emails.getById(p.emailId);
    const recipient = email && deps.emails.recipients(p.emailId).find((r) => r.seq === p.seq);
    if (!email || !recipient) return false;
    const script = mailServerScript(recipient.address, email.html);
    const step = script[p.step];
    if (!step || !outcomeApplies(step.outcome, recipient)) return false;
    const now = deps.clock.nowMs();
    applyOutcome(deps, email, recipient, step.outcome, now);
    const next = script[p.step + 1];
    if (next) deps.scheduler.schedule(EMAIL_STEP_JOB, p.sentAt + next.afterSecs * 1000, { ...p, step: p.step + 1 } satisfies StepPayload);
    return true;
  });
}

/** compose.ts step 3: the mail server's jobs (a restart resumes whatever was due). */
export function registerEmailJobs(deps: DeliveryDeps): void {
  deps.scheduler.register(EMAIL_DELIVER_JOB, (p: { emailId: string }) => handOver(deps, p.emailId), 'email recipients handed to the mail server');
  deps.scheduler.register(EMAIL_STEP_JOB, (p: StepPayload) => (runStep(deps, p) ? 1 : 0), 'mail server reports about email recipients');
}
