import type { Clock } from '../../clock.js';
import type { EmailsRepo } from '../../storage/emails-repo.js';
import type { Actor } from '../actor.js';
import { COMPLAINT_PAUSE } from '../../../api/values/email.js';
import { forbidden } from '../../errors.js';

export interface ComplaintRateDeps {
  clock: Clock;
  emails: EmailsRepo;
}

export interface ComplaintWindow {
  delivered: number;
  complained: number;
  /** complained / delivered, 0 when nothing was delivered. */
  rate: number;
  /** spec: Limits; contract §8 — over the rate, once at least `minDelivered` were delivered. */
  paused: boolean;
}

/**
 * The account's complaint rate over the last 30 days' delivered recipients (contract §8).
 *
 * Decision: only live-key email counts. A test-key email is never really sent (spec: Authentication
 * 2), so nobody could have complained about it: the simulated complaints a developer triggers while
 * testing a webhook handler must not pause the account's real sending.
 */
export async function complaintWindow(deps: ComplaintRateDeps, accountId: string): Promise<ComplaintWindow> {
  // Decision (contract §8 says "the last 30 days"): counted in whole hours — the current hour and the
  // 720 before it — so the check reads hourly counters instead of every delivered recipient.
  const since = deps.clock.nowMs() - COMPLAINT_PAUSE.windowSecs * 1000;
  const { delivered, complained } = await deps.emails.deliveredWindow(accountId, since);
  const rate = delivered === 0 ? 0 : complained / delivered;
  // "above 0.2 %": exactly 0.2 % (1 in 500) still sends.
  const paused = delivered >= COMPLAINT_PAUSE.minDelivered && rate > COMPLAINT_PAUSE.rate;
  return { delivered, complained, rate, paused };
}

const percent = (r: number): string => `${(r * 100).toFixed(2)} %`;

/** spec: Limits — a complaint rate above 0.2 % pauses email sending → 403 forbidden naming the rate (contract §8). */
export async function assertSendingNotPaused(deps: ComplaintRateDeps, actor: Actor): Promise<void> {
  const w = await complaintWindow(deps, actor.account.id);
  if (!w.paused) return;
  throw forbidden(
    `email sending is paused: the complaint rate is ${percent(w.rate)} (${w.complained} complaints of ${w.delivered} recipients delivered in the last 30 days), ` +
      `above the ${percent(COMPLAINT_PAUSE.rate)} limit; sending resumes when the rate over the last 30 days falls to the limit`,
  );
}
