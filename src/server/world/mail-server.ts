import {
  MAIL_SIMULATOR_TIMINGS,
  SIMULATOR_ADDRESSES,
  SIMULATOR_DEFAULT_CLICK_URL,
  SIMULATOR_DOMAIN,
} from '../../api/values/email.js';

// contract §8: the simulated receiving side of every email. Pure and deterministic (no clock, no
// storage): given a recipient's address (and the email's html, for the clicked link), the script
// of what the recipient's mail server and the recipient do, each step timed in seconds after the
// handover. The delivery jobs (domain/email/delivery.ts) walk it on the service clock.

export type SimulatorAddress = (typeof SIMULATOR_ADDRESSES)[number];

export interface BounceReport {
  class: 'hard' | 'soft' | 'administrative' | 'expired' | 'unknown';
  code: number | null;
  message: string | null;
}

/** What the receiving side reports about one recipient (the `email.*` event it becomes). */
export type MailOutcome =
  | { type: 'email.delivered' }
  | { type: 'email.deferred' }
  | { type: 'email.bounced'; bounce: BounceReport }
  | { type: 'email.opened' }
  | { type: 'email.clicked'; url: string }
  | { type: 'email.complained' }
  | { type: 'email.unsubscribed'; method: 'link' | 'one_click' };

export interface MailStep {
  /** Seconds after the handover (`email.sent`). */
  afterSecs: number;
  outcome: MailOutcome;
}

/** spec: Event catalog — `hard`: the address does not exist (it is suppressed). */
export const HARD_BOUNCE: BounceReport = { class: 'hard', code: 550, message: '5.1.1 user unknown' };
/**
 * Decision (contract §8 says only `soft-bounce@`): a full mailbox, reported as a bounce of class
 * `soft`. The address is NOT suppressed: only a hard bounce says the address does not exist
 * (spec: Event catalog), and a full mailbox may have room tomorrow.
 */
export const SOFT_BOUNCE: BounceReport = { class: 'soft', code: 452, message: '4.2.2 mailbox full' };

/**
 * The simulator address an address stands for, if any: the local part on `simulator.test`,
 * case-insensitive, with a `+label` ignored (`Bounce+a@Simulator.test` is `bounce@`).
 */
export function simulatorAddressOf(address: string): SimulatorAddress | undefined {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== SIMULATOR_DOMAIN) return undefined;
  const local = address.slice(0, at).toLowerCase();
  const plus = local.indexOf('+');
  const base = plus < 0 ? local : local.slice(0, plus);
  return (SIMULATOR_ADDRESSES as readonly string[]).includes(base) ? (base as SimulatorAddress) : undefined;
}

/** The first http(s) link of an html body (an `href`), or the stated default. */
export function clickedUrl(html: string | null): string {
  const m = html && /<a\b[^>]*?\bhref\s*=\s*(?:"(https?:\/\/[^"]+)"|'(https?:\/\/[^']+)'|(https?:\/\/[^\s>]+))/i.exec(html);
  return m ? (m[1] ?? m[2] ?? m[3])! : SIMULATOR_DEFAULT_CLICK_URL;
}

/** The receiving side's script for one recipient, in time order. */
export function mailServerScript(address: string, html: string | null): MailStep[] {
  const t = MAIL_SIMULATOR_TIMINGS;
  const delivered = t.deliverAfterSecs;
  const engaged = delivered + t.engageAfterSecs;
  switch (simulatorAddressOf(address)) {
    case 'bounce':
      return [{ afterSecs: delivered, outcome: { type: 'email.bounced', bounce: HARD_BOUNCE } }];
    case 'soft-bounce':
      return [{ afterSecs: delivered, outcome: { type: 'email.bounced', bounce: SOFT_BOUNCE } }];
    case 'defer':
      return [
        { afterSecs: delivered, outcome: { type: 'email.deferred' } },
        { afterSecs: delivered + t.deferRetryAfterSecs, outcome: { type: 'email.delivered' } },
      ];
    case 'complaint':
      return [
        { afterSecs: delivered, outcome: { type: 'email.delivered' } },
        { afterSecs: engaged, outcome: { type: 'email.complained' } },
      ];
    case 'open':
      return [
        { afterSecs: delivered, outcome: { type: 'email.delivered' } },
        { afterSecs: engaged, outcome: { type: 'email.opened' } },
      ];
    case 'click':
      return [
        { afterSecs: delivered, outcome: { type: 'email.delivered' } },
        { afterSecs: engaged, outcome: { type: 'email.opened' } },
        { afterSecs: engaged + t.clickAfterOpenSecs, outcome: { type: 'email.clicked', url: clickedUrl(html) } },
      ];
    case 'unsubscribe':
      return [
        { afterSecs: delivered, outcome: { type: 'email.delivered' } },
        { afterSecs: engaged, outcome: { type: 'email.unsubscribed', method: 'one_click' } },
      ];
    case undefined:
      // contract §8: every other address, on any domain, is delivered.
      return [{ afterSecs: delivered, outcome: { type: 'email.delivered' } }];
  }
}
