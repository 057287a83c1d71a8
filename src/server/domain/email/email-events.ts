import type { EmailRecord, EmailTimelineEntry, RecipientRecord } from '../../storage/emails-repo.js';
import type { SandboxEmailEventBody } from '../../../api/schemas/email.js';
import type { SandboxEmailEventType } from '../../../api/values/email.js';
import type { Actor } from '../actor.js';
import { conflict, notFound, validationError } from '../../errors.js';
import { clickedUrl, DELIVERY_FAILURE, HARD_BOUNCE, type MailOutcome } from '../../world/mail-server.js';
import { applyOutcome, outcomeApplies, type DeliveryDeps } from './delivery.js';
import type { EmailWithRecipients } from './send.js';
import { assertMayChange } from '../test-keys.js';

// contract §8 (`GET /v1/emails/{id}/events`) and §9 (`POST /v1/sandbox/email-events`: a mail
// server's report, open, click, complaint): the reads and the sandbox reports about an email's
// recipients. Reports go through delivery.ts `applyOutcome`, so they have the simulator's effects.


export interface EmailTimeline extends EmailWithRecipients {
  entries: EmailTimelineEntry[];
}

export type EmailEventsDeps = DeliveryDeps;

async function ownEmail(deps: Pick<EmailEventsDeps, 'emails'>, actor: Actor, emailId: string): Promise<EmailRecord> {
  const email = await deps.emails.get(actor.account.id, emailId);
  if (!email) throw notFound('email');
  return email;
}

/** contract §8: an email's per-recipient timeline, oldest first (another account's is not found). */
export async function emailTimeline(deps: Pick<EmailEventsDeps, 'emails'>, actor: Actor, emailId: string): Promise<EmailTimeline> {
  const email = await ownEmail(deps, actor, emailId);
  return { email, recipients: await deps.emails.recipients(email.id), entries: await deps.emails.timeline(email.id) };
}

/** The simulator's outcome each sandbox report stands for. */
function outcomeOf(type: SandboxEmailEventType, email: EmailRecord): MailOutcome {
  switch (type) {
    case 'bounce':
      return { type: 'email.bounced', bounce: HARD_BOUNCE };
    case 'fail':
      return { type: 'email.failed', bounce: DELIVERY_FAILURE };
    case 'complaint':
      return { type: 'email.complained' };
    case 'open':
      return { type: 'email.opened' };
    case 'click':
      return { type: 'email.clicked', url: clickedUrl(email.html) };
    case 'unsubscribe':
      return { type: 'email.unsubscribed', method: 'one_click' };
  }
}

/** Why a report cannot happen to the recipient now (409), or undefined. */
function refusal(type: SandboxEmailEventType, r: RecipientRecord): string | undefined {
  if (type === 'bounce' || type === 'fail') {
    // Decision (contract §9 is silent): a bounce is the receiving server refusing the message, so it
    // can only come while the message is on its way (`sent`, `deferred`), never after it was accepted.
    if (r.status === 'queued') return 'the recipient has not been handed to the mail server yet; advance the clock first';
    if (r.status === 'delivered') return `the recipient is already delivered: a delivered message cannot ${type === 'bounce' ? 'bounce' : 'fail'}`;
    if (r.status === 'suppressed') return 'the recipient was suppressed: nothing was sent to it';
    if (r.status === 'sent' || r.status === 'deferred') return undefined;
    return `the recipient is already ${r.status}`;
  }
  if (r.status !== 'delivered') return `a ${type} needs a delivered recipient; this one is ${r.status}`;
  // Decision: a complaint and an unsubscribe happen once per recipient; opens and clicks may repeat.
  if (type === 'complaint' && r.complainedAt !== null) return 'the recipient has already complained';
  if (type === 'unsubscribe' && r.unsubscribedAt !== null) return 'the recipient has already unsubscribed';
  return undefined;
}

/**
 * contract §9: `POST /v1/sandbox/email-events` — one report about one recipient, with the same
 * effects and events as the simulated mail server's own. Returns the email as it now stands.
 */
export async function reportEmailEvent(deps: EmailEventsDeps, actor: Actor, body: SandboxEmailEventBody): Promise<EmailWithRecipients> {
  return await deps.uow.write(async (tx) => {
    const email = await ownEmail(tx, actor, body.emailId);
    // contract §2: a report on a live email suppresses addresses for live sending and counts toward
    // the complaint rate that pauses it: a live key's to make.
    assertMayChange(actor, email.mode, `email ${email.id}`);
    const address = body.recipient.trim().toLowerCase();
    const matches = (await tx.emails.recipients(email.id)).filter((r) => r.address.toLowerCase() === address);
    if (matches.length === 0) throw validationError(['body', 'recipient'], 'not a recipient of this email');
    const outcome = outcomeOf(body.type, email);
    // The same address may be listed twice (to and bcc): report on the copy it can happen to.
    const recipient = matches.find((r) => outcomeApplies(outcome, r) && refusal(body.type, r) === undefined);
    if (!recipient) throw conflict(refusal(body.type, matches[0]!)!);
    await applyOutcome(tx, email, recipient, outcome, tx.clock.nowMs());
    return { email: (await tx.emails.getById(email.id))!, recipients: await tx.emails.recipients(email.id) };
  });
}
