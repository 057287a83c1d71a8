import {
  MAIL_SIMULATOR_TIMINGS,
  SIMULATOR_ADDRESSES,
  SIMULATOR_DEFAULT_CLICK_URL,
  SIMULATOR_DOMAIN,
} from '../../api/values/email.js';

// contract §8: the simulated receiving side of every email. Pure and deterministic (no clock, no
// storage): given a recipient's address (and the email's clicked link), the script
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
  | { type: 'email.failed'; bounce: BounceReport }
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
 * spec: Event catalog — `email.failed` is "failure other than a bounce": the message never reached a
 * verdict from the recipient's server (the provider gave up on it). No simulator address produces
 * it (contract §8 lists none); `POST /v1/sandbox/email-events {type: fail}` reports it.
 */
export const DELIVERY_FAILURE: BounceReport = { class: 'unknown', code: null, message: 'the message could not be handed to the recipient\'s mail server' };

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

/** What an href's value must start with to be followed (quoted or bare). */
const LINK_SCHEME = /^https?:\/\//i;
/** A bare (unquoted) value runs to whitespace or the end of the tag. */
const BARE_VALUE = /[^\s>]+/y;

/**
 * The link an href's value at `at` holds: `"…"` or `'…'` (up to the closing quote), or bare (up to
 * whitespace or `>`); http(s) only. `unclosed` remembers the quotes never closed after some point.
 */
function linkValueAt(html: string, at: number, unclosed: Set<string>): string | undefined {
  const quote = html[at]!;
  const quoted = quote === '"' || quote === "'";
  const start = quoted ? at + 1 : at;
  const scheme = LINK_SCHEME.exec(html.slice(start, start + 8));
  if (!scheme) return undefined;
  const rest = start + scheme[0].length;
  if (!quoted) {
    BARE_VALUE.lastIndex = rest;
    const bare = BARE_VALUE.exec(html);
    return bare ? html.slice(start, rest + bare[0].length) : undefined;
  }
  if (unclosed.has(quote)) return undefined;
  const close = html.indexOf(quote, rest);
  if (close < 0) unclosed.add(quote);
  return close > rest ? html.slice(start, close) : undefined;
}

/**
 * The first http(s) link of an html body (an `href` inside an `<a` tag), or the stated default.
 *
 * Not one regular expression, `<a\b[^>]*?\bhref\s*=\s*(…)`, which searches from every `<a`
 * to the end of its tag; on `<a ` repeated with no `>`, every attempt runs to the end of the
 * input (quadratic: 128 KB took 4 s, a megabyte minutes). The same answer in one forward pass: the
 * first `href=` holding a link that has an `<a` before it with no `>` in between. Each search
 * starts where the last one of its kind stopped, so no part of the input is searched twice for
 * the same thing.
 */
export function clickedUrl(html: string | null): string {
  if (!html) return SIMULATOR_DEFAULT_CLICK_URL;
  // Only an href whose value starts like a link costs a turn of the loop.
  const hrefs = /\bhref\s*=\s*(?=["']?https?:\/\/)/gi;
  const anchors = /<a\b/gi;
  /** The search for `>` has read the html before this; `lastGt` is the last one it found. */
  let gtSearchedTo = 0;
  let lastGt = -1;
  /** The first `<a` after `lastGt` (-1: none at all; undefined: not looked for yet). */
  let anchor: number | undefined;
  const unclosed = new Set<string>();
  for (let m = hrefs.exec(html); m; m = hrefs.exec(html)) {
    const at = m.index;
    const gt = html.slice(gtSearchedTo, at).lastIndexOf('>');
    if (gt >= 0) lastGt = gtSearchedTo + gt;
    gtSearchedTo = at;
    if (anchor === undefined || (anchor >= 0 && anchor <= lastGt)) {
      anchors.lastIndex = lastGt + 1;
      anchor = anchors.exec(html)?.index ?? -1;
    }
    // No `<a` after the last `>`: none can open a tag around this href or any later one.
    if (anchor < 0) break;
    if (anchor > at) continue;
    const url = linkValueAt(html, at + m[0].length, unclosed);
    if (url !== undefined) return url;
  }
  return SIMULATOR_DEFAULT_CLICK_URL;
}

/**
 * The receiving side's script for one recipient, in time order. `clickUrl` gives the link a click
 * follows (`clickedUrl` of the email's html); it is asked only for a recipient that clicks, so the
 * caller can look for it once per email rather than once per recipient.
 */
export function mailServerScript(address: string, clickUrl: () => string): MailStep[] {
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
        { afterSecs: engaged + t.clickAfterOpenSecs, outcome: { type: 'email.clicked', url: clickUrl() } },
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
