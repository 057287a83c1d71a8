import { DOMAIN_CHECK_SCHEDULE, DOMAIN_TIMINGS, type DomainStatus } from '../../../api/values/email.js';
import type { CheckOutcome } from './dns-records.js';

// spec: Sending domain status — the table as two pure functions: the status a check leads to, and
// when the next automatic check is due. domains.ts applies them on the service clock.

/**
 * spec: Sending domain status.
 *   pending  + all required valid → verified;  + a required record missing or wrong → failed;  + propagating → pending
 *   failed   + valid → verified (verify after DNS is fixed, or a re-check); otherwise failed
 *   verified + a required record fails → degraded (sending blocked); otherwise verified
 *   degraded + records recover → verified; otherwise degraded
 * Propagating never moves a status: DNS that is still settling is not a verdict.
 */
export function statusAfterCheck(current: DomainStatus, outcome: CheckOutcome): DomainStatus {
  if (outcome === 'propagating') return current;
  if (outcome === 'valid') return 'verified';
  // failing
  if (current === 'verified' || current === 'degraded') return 'degraded';
  return 'failed';
}

/**
 * When the automatic check after one at `now` is due, or null when there is none. Decision
 * (DOMAIN_CHECK_SCHEDULE): a never-verified domain every 10 min during its first hour, then hourly,
 * for 72 h from creation (spec: Limits); a domain ever verified every 24 h, forever (spec: "verified —
 * automatic check").
 */
export function nextCheckAt(d: { createdAt: number; everVerified: boolean }, now: number): number | null {
  const s = DOMAIN_CHECK_SCHEDULE;
  if (d.everVerified) return now + s.verifiedEverySecs * 1000;
  const age = now - d.createdAt;
  const next = now + (age < s.earlyForSecs * 1000 ? s.earlyEverySecs : s.thenEverySecs) * 1000;
  return next - d.createdAt <= DOMAIN_TIMINGS.recheckForSecs * 1000 ? next : null;
}

/** spec: Sending domain status — a never-verified domain is released 7 days after creation. */
export const releaseAt = (createdAt: number): number => createdAt + DOMAIN_TIMINGS.releaseAfterSecs * 1000;
