import type { DomainDeps, TxDeps, DomainScheduler, DomainEvents } from '../deps.js';
import type { Clock } from '../../clock.js';
import type { UnitOfWork } from '../deps.js';
import type { EmailRecord, EmailsRepo, RecipientPatch, RecipientRecord } from '../../storage/emails-repo.js';
import type { SuppressionsRepo } from '../../storage/suppressions-repo.js';
import type { MailboxRepo } from '../../storage/mailbox-repo.js';
import type { SuppressionReason } from '../../../api/values/email.js';
import { newId } from '../../ids.js';
import { clickedUrl, mailServerScript, type MailOutcome, type MailStep } from '../../world/mail-server.js';
import { aggregateEmailStatus } from './status.js';
import { commonEmailFields, EMAIL_EVENT_STATUS, type EmailEventType } from './event-fields.js';
import { EMAIL_DELIVER_JOB, EMAIL_STEP_JOB } from './jobs.js';
import { htmlToText, htmlToTextInSlices } from './mailbox-text.js';

// contract §8: everything after the accept. The `email.deliver` job hands an email's recipients
// over (`email.sent` each); then the simulated mail server's script (world/mail-server.ts) runs as
// `email.step` jobs, ONE per email and due time (the recipients of an email whose steps fall at the
// same moment — usually all of them — share it), so a clock advance walks them in time order and a
// restart resumes them. A job is ONE transaction: per recipient its row, its timeline entry, the
// suppression, the mail sandbox row and its event; then the email's status (aggregateEmailStatus).
// A step for a recipient that has moved on (a sandbox report got there first) does nothing and ends
// that recipient's script. (One job per recipient step cost a transaction — a commit — each: 10
// recipients were 11 commits, the most of an email's cost in bench/emails.)
// The mail sandbox's text part of a live email sent with html only is derived ONCE per email, at the
// handover, a slice at a time between other work (not per delivered recipient, on the thread
// that serves every request), and kept; each recipient's mail sandbox row reads it.

/** What the mail server's jobs run on (compose.ts passes the service's domain deps). */
export interface DeliveryDeps {
  uow: UnitOfWork;
  clock: Clock;
  scheduler: DomainScheduler;
  emails: EmailsRepo;
  suppressions: SuppressionsRepo;
  events: DomainEvents;
  mailbox: MailboxRepo;
}

/** An `email.step` job: the recipients (by row) of one email whose script step `step` is due now. */
interface StepPayload {
  emailId: string;
  sentAt: number;
  due: Array<{ seq: number; step: number }>;
}

/**
 * The mail server's script for each recipient of one email. The link a click follows is looked for
 * in the html once (not per recipient and per step, in what may be a megabyte of html).
 */
async function scriptsOf(tx: Pick<TxDeps, 'chaos' | 'accounts'>, email: EmailRecord): Promise<(address: string) => MailStep[]> {
  let url: string | undefined;
  const clickUrl = () => (url ??= clickedUrl(email.html));
  // The mail faults of the profile that applies to the email's account (deferred, bounced,
  // accepted late) change the script only.
  const run = await tx.chaos.forAccountId(email.accountId, tx.accounts);
  return (address) => tx.chaos.mailScript(run, email.accountId, email.id, address, email.subject, mailServerScript(address, clickUrl));
}

/** Schedules each recipient's step `step` at its time, one job per distinct time. */
async function scheduleSteps(
  deps: Pick<DeliveryDeps, 'scheduler'>,
  email: EmailRecord,
  script: (address: string) => MailStep[],
  sentAt: number,
  next: Array<{ recipient: Pick<RecipientRecord, 'seq' | 'address'>; step: number }>,
): Promise<void> {
  const byTime = new Map<number, StepPayload['due']>();
  for (const { recipient, step } of next) {
    const s = script(recipient.address)[step];
    if (!s) continue;
    const at = sentAt + s.afterSecs * 1000;
    byTime.set(at, [...(byTime.get(at) ?? []), { seq: recipient.seq, step }]);
  }
  for (const [at, due] of byTime) await deps.scheduler.schedule(EMAIL_STEP_JOB, at, { emailId: email.id, sentAt, due } satisfies StepPayload);
}

/** What each reported outcome does to the recipient's delivery status (engagement keeps it). */
const DELIVERY_OUTCOMES: Partial<Record<MailOutcome['type'], RecipientRecord['status']>> = {
  'email.delivered': 'delivered',
  'email.deferred': 'deferred',
  'email.bounced': 'bounced',
  'email.failed': 'failed',
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
async function refreshEmailStatus(deps: DeliveryDeps, email: EmailRecord, atMs: number): Promise<void> {
  const status = aggregateEmailStatus((await deps.emails.recipients(email.id)).map((r) => r.status));
  if (status !== email.status) await deps.emails.setStatus(email.id, status, atMs);
}

/**
 * Applies one report about one recipient, inside the caller's transaction: the simulator's steps
 * and `POST /v1/sandbox/email-events` both come here, so their effects and events are the same.
 * A batch passes the email's recipients it already read (`all`: only addresses and kinds are used)
 * and `refresh: false`, then refreshes the email's status once.
 */
export async function applyOutcome(
  deps: DeliveryDeps,
  email: EmailRecord,
  recipient: RecipientRecord,
  outcome: MailOutcome,
  atMs: number,
  batch: { all?: readonly RecipientRecord[]; refresh?: boolean } = {},
): Promise<void> {
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
  await deps.emails.updateRecipient(recipient.seq, patch);
  // spec: Limits (complaint rate) — live deliveries and first complaints feed the hourly counters the
  // send path reads (test-key email is never really sent: see complaint-rate.ts).
  if (email.mode === 'live') {
    if (type === 'email.delivered') await deps.emails.countDelivered(email.accountId, atMs);
    if (type === 'email.complained' && recipient.complainedAt === null && recipient.deliveredAt !== null) await deps.emails.countComplained(email.accountId, recipient.deliveredAt);
  }

  const bounce = outcome.type === 'email.bounced' || outcome.type === 'email.failed' ? outcome.bounce : null;
  const url = outcome.type === 'email.clicked' ? outcome.url : null;
  const method = outcome.type === 'email.unsubscribed' ? outcome.method : null;
  await deps.emails.addTimelineEntry({ emailId: email.id, recipientSeq: recipient.seq, type, status: EMAIL_EVENT_STATUS[type], occurredAt: atMs, bounce, url, method });
  if (status && batch.refresh !== false) await refreshEmailStatus(deps, email, atMs);

  const reason = suppressionFor(outcome);
  // Decision (mail-common): suppressions are stored lower-case; an email keeps its addresses as given.
  if (reason) await deps.suppressions.add({ accountId: email.accountId, address: recipient.address.toLowerCase(), reason, emailId: email.id, createdAt: atMs });

  // Decision (mail-common, spec: Authentication 2): a test-key email sends nothing, so nothing lands
  // in the mail sandbox; its recipients still walk their outcomes and the events still go out.
  if (type === 'email.delivered' && email.mode === 'live') {
    // An email handed over before its text was kept (a service of an older version) derives it now.
    if (needsDerivedText(email) && !await deps.mailbox.hasDerivedText(email.id)) await deps.mailbox.keepDerivedText(email.id, htmlToText(email.html!));
    await deps.mailbox.insert({
      id: newId('mbx'),
      accountId: email.accountId,
      emailId: email.id,
      to: recipient.address,
      from: email.from,
      subject: email.subject,
      tags: email.tags,
      deliveredAt: atMs,
    });
  }

  const all = batch.all ?? await deps.emails.recipients(email.id);
  await deps.events.emit(email.accountId, type, {
    ...commonEmailFields(type, email, recipient, all, atMs),
    ...(bounce ? { bounce } : {}),
    ...(url !== null ? { url } : {}),
    ...(method !== null ? { method } : {}),
  });
}

/** contract §8 (extension): a live email sent with html only shows a text part derived from it in the mail sandbox. */
function needsDerivedText(email: EmailRecord): boolean {
  return email.mode === 'live' && email.text === null && email.html !== null;
}

/**
 * The handover (`email.deliver`): every `queued` recipient goes to the mail server's queue
 * (`sent`, `email.sent`) and its script's first step is scheduled. Decision: an address suppressed
 * since the accept (a complaint from another email that arrived in between) is not sent either;
 * it becomes `suppressed` without an event, as it would have at the accept. `derivedText`, the mail
 * sandbox's text part, is kept in the same transaction.
 */
export async function handOver(deps: Pick<DeliveryDeps, 'uow'>, emailId: string, derivedText?: string): Promise<number> {
  return await deps.uow.write(async (tx) => {
    const email = await tx.emails.getById(emailId);
    if (!email || email.status !== 'queued') return 0;
    if (derivedText !== undefined) await tx.mailbox.keepDerivedText(emailId, derivedText);
    const now = tx.clock.nowMs();
    const queued = (await tx.emails.recipients(emailId)).filter((r) => r.status === 'queued');
    const sent: RecipientRecord[] = [];
    for (const r of queued) {
      if (await tx.suppressions.find(email.accountId, r.address.toLowerCase())) {
        await tx.emails.updateRecipient(r.seq, { status: 'suppressed', updatedAt: now });
        continue;
      }
      await tx.emails.updateRecipient(r.seq, { status: 'sent', updatedAt: now });
      await tx.emails.addTimelineEntry({ emailId, recipientSeq: r.seq, type: 'email.sent', status: EMAIL_EVENT_STATUS['email.sent'], occurredAt: now, bounce: null, url: null, method: null });
      sent.push(r);
    }
    await scheduleSteps(tx, email, await scriptsOf(tx, email), now, sent.map((recipient) => ({ recipient, step: 0 })));
    await refreshEmailStatus(tx, email, now);
    const all = await tx.emails.recipients(emailId);
    for (const r of sent) await tx.events.emit(email.accountId, 'email.sent', { ...commonEmailFields('email.sent', email, r, all, now) });
    return sent.length;
  });
}

/**
 * The `email.deliver` job. An email whose mail sandbox text must be derived from its html derives it
 * first, a slice at a time (the job goes asynchronous: the scheduler runs the next job once it is
 * done), then hands over with it; any other hands over at once.
 */
async function deliver(deps: Pick<DeliveryDeps, 'uow'>, emailId: string): Promise<number> {
  const email = await deps.uow.read((tx) => tx.emails.getById(emailId));
  if (!email || email.status !== 'queued' || !needsDerivedText(email)) return handOver(deps, emailId);
  // Derived with no transaction open: it is CPU work, a slice at a time.
  return handOver(deps, emailId, await htmlToTextInSlices(email.html!));
}

/**
 * The due steps of one email's recipients, in one transaction; schedules each applied recipient's
 * next step. Returns how many steps applied.
 */
export async function runSteps(deps: Pick<DeliveryDeps, 'uow'>, p: StepPayload): Promise<number> {
  return await deps.uow.write(async (tx) => {
    const email = await tx.emails.getById(p.emailId);
    if (!email) return 0;
    const all = await tx.emails.recipients(p.emailId);
    const bySeq = new Map(all.map((r) => [r.seq, r]));
    const now = tx.clock.nowMs();
    const script = await scriptsOf(tx, email);
    const next: Array<{ recipient: RecipientRecord; step: number }> = [];
    let deliveryMoved = false;
    for (const { seq, step } of p.due) {
      const recipient = bySeq.get(seq);
      const due = recipient && script(recipient.address)[step];
      if (!recipient || !due || !outcomeApplies(due.outcome, recipient)) continue;
      await applyOutcome(tx, email, recipient, due.outcome, now, { all, refresh: false });
      deliveryMoved ||= DELIVERY_OUTCOMES[due.outcome.type] !== undefined;
      next.push({ recipient, step: step + 1 });
    }
    if (deliveryMoved) await refreshEmailStatus(tx, email, now);
    await scheduleSteps(tx, email, script, p.sentAt, next);
    return next.length;
  });
}

/** compose.ts step 3: the mail server's jobs (a restart resumes whatever was due). */
export function registerEmailJobs(deps: DomainDeps): void {
  deps.scheduler.registerOutside(EMAIL_DELIVER_JOB, async (p: { emailId: string }) => await deliver(deps, p.emailId), 'email recipients handed to the mail server');
  deps.scheduler.registerOutside(EMAIL_STEP_JOB, async (p: StepPayload) => await runSteps(deps, p), 'mail server reports about email recipients');
}
