// issue 29: seeded chaos. The simulated world misbehaves on purpose, as a profile says (rates and
// delays per fault kind, api/values/chaos.ts), and every fault it injects is logged. Faults are
// injected only at the world's seams — the carrier (chaos-carrier.ts), the mail server's script
// (domain/email/delivery.ts asks `mailScript`), the webhook sender (webhooks/delivery-worker.ts),
// the simulated caller (routes/sandbox-calls.ts) — and in one HTTP hook (http/chaos-hook.ts);
// never in a rule of the domain.
//
// Reproducible: whether a chance becomes a fault is a pure function of the seed, the fault kind and a
// stable id of what it hits, never of a shared random stream. A stable id is what the outside world
// could tell apart (the request's method and path, a message's sender, recipient and text, an email
// recipient and subject, a webhook's URL and event type), numbered by occurrence (`…#2`: the second
// such request). So the same seed and the same requests give the same faults, whatever the order in
// which different requests interleave.
import { CHAOS_DEFAULTS, CHAOS_LIMITS, type ChaosFault, type ChaosFaultKind, type ChaosLogEntry, type ChaosProfile } from '../../api/values/chaos.js';
import type { Clock } from '../clock.js';
import { randomBase62 } from '../ids.js';
import { HARD_BOUNCE, type MailStep } from './mail-server.js';

/** mulberry32: a small 32-bit PRNG (public domain); one output per roll is all we need. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a, 32 bits: the roll's key as a number. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A number in [0, 1) that depends only on the seed, the kind and the id. */
export const chaosRoll = (seed: number, kind: ChaosFaultKind, id: string): number => mulberry32(fnv1a(`${seed >>> 0}\u0000${kind}\u0000${id}`))();

export const EMPTY_PROFILE: ChaosProfile = { seed: 0, faults: {} };

export interface ChaosHit {
  kind: ChaosFaultKind;
  id: string;
  fault: ChaosFault;
}

/** The service's chaos: its profile, the occurrence counters behind stable ids, and the log. */
export class Chaos {
  private current: ChaosProfile = EMPTY_PROFILE;
  private entries: ChaosLogEntry[] = [];
  private seq = 0;
  private readonly occurrences = new Map<string, number>();
  /** Each event's stable id, given as it is emitted (in emission order, which the requests and the clock decide). */
  private readonly events = new Map<string, string>();
  /** A mail script's faults, decided once per email and recipient (the delivery jobs re-derive the script at each step). */
  private readonly mailDecisions = new Map<string, ChaosHit[]>();
  /** The value of CHAOS_EXEMPT_HEADER that spares a request the API's faults (api/values/chaos.ts): never sent over the wire by the service. */
  readonly exemptToken = randomBase62(32);

  constructor(private readonly clock: Pick<Clock, 'nowMs'>, profile: ChaosProfile = EMPTY_PROFILE) {
    this.restart(profile);
  }

  get profile(): ChaosProfile {
    return this.current;
  }

  /** Whether a request's exemption header carries this service's token (a constant-time check is not needed: the token only lifts injected test faults). */
  exempts(header: string | string[] | undefined): boolean {
    return header === this.exemptToken;
  }

  get active(): boolean {
    return Object.values(this.current.faults).some((f) => f && f.rate > 0);
  }

  /** A new profile; the counters start again (the same requests after it meet the same faults). */
  setProfile(profile: ChaosProfile): void {
    this.current = structuredClone(profile);
    this.occurrences.clear();
    this.mailDecisions.clear();
    this.events.clear();
  }

  /**
   * Names an event as it is emitted (compose.ts: an outbox): its type and what it says, less the
   * values no two runs share (ids, times: `stableContent`), numbered by occurrence. Webhook faults
   * are keyed by it rather than by the order attempts happen to be sent in; two events emitted
   * concurrently that say different things (a message delivered to one number, another failed) keep
   * their names whichever commits first. Only events that say the same thing are numbered in
   * emission order, and those are alike in everything a receiver could tell apart but their ids.
   */
  noteEvent(eventId: string, type: string, body: Record<string, unknown>): void {
    if (!this.active) return;
    if (this.events.size >= CHAOS_LIMITS.maxLogEntries * 10) this.events.clear();
    this.events.set(eventId, this.occurrence(`event ${type} ${stableContent(body)}`));
  }

  /** The stable id of an event noted by `noteEvent` (its own id for one emitted before chaos was on). */
  eventName(eventId: string): string {
    return this.events.get(eventId) ?? eventId;
  }

  /** Back to a profile with an empty log (svc/testing `reset()`). */
  restart(profile: ChaosProfile): void {
    this.setProfile(profile);
    this.entries = [];
    this.seq = 0;
  }

  get log(): readonly ChaosLogEntry[] {
    return this.entries;
  }

  /** The stable id of the next occurrence of `what`. */
  occurrence(what: string): string {
    const n = (this.occurrences.get(what) ?? 0) + 1;
    this.occurrences.set(what, n);
    return `${what}#${n}`;
  }

  /** The first of `kinds` (in that order) that this id's roll turns into a fault, or undefined. */
  roll(kinds: readonly ChaosFaultKind[], id: string): ChaosHit | undefined {
    for (const kind of kinds) {
      const fault = this.current.faults[kind];
      if (fault && fault.rate > 0 && chaosRoll(this.current.seed, kind, id) < fault.rate) return { kind, id, fault };
    }
    return undefined;
  }

  /** Every one of `kinds` this id's rolls turn into faults. */
  rollEach(kinds: readonly ChaosFaultKind[], id: string): ChaosHit[] {
    return kinds.flatMap((k) => this.roll([k], id) ?? []);
  }

  record(hit: ChaosHit, detail: Record<string, unknown>): void {
    if (this.entries.length >= CHAOS_LIMITS.maxLogEntries) this.entries.shift();
    this.entries.push({ seq: ++this.seq, at: new Date(this.clock.nowMs()).toISOString(), kind: hit.kind, id: hit.id, detail });
  }

  /**
   * A simulated inbound call's scenario with this profile's caller faults: nobody answers
   * (`call.no_answer`), or the caller hangs up `afterSecs` after the start (`call.drop`).
   */
  callScenario<S extends { answer?: unknown; hangupAfterSecs?: number | null }>(from: string, to: string, scenario: S): S {
    if (!this.active) return scenario;
    const id = this.occurrence(`call ${from}>${to}`);
    const hit = this.roll(['call.no_answer', 'call.drop'], id);
    if (!hit) return scenario;
    if (hit.kind === 'call.no_answer') {
      this.record(hit, { from, to });
      return { ...scenario, answer: null };
    }
    const after = hit.fault.afterSecs ?? CHAOS_DEFAULTS.afterSecs;
    this.record(hit, { from, to, hangupAfterSecs: after });
    return { ...scenario, hangupAfterSecs: after };
  }

  /** The mail server's script for one recipient, with this profile's faults (decided once per email and recipient). */
  mailScript(emailId: string, address: string, subject: string | null, script: MailStep[]): MailStep[] {
    const memo = `${emailId}\u0000${address.toLowerCase()}`;
    let hits = this.mailDecisions.get(memo);
    if (!hits) {
      hits = [];
      if (this.active) {
        const id = this.occurrence(`mail ${address.toLowerCase()} ${JSON.stringify(subject ?? '')}`);
        const outcome = this.roll(['mail.bounce', 'mail.defer'], id);
        const late = this.roll(['mail.late'], id);
        hits = [outcome, late].filter((h): h is ChaosHit => h !== undefined);
        for (const h of hits) this.record(h, { recipient: address, ...(h.kind === 'mail.bounce' ? {} : { delaySecs: delaySecs(h.fault) }) });
      }
      this.mailDecisions.set(memo, hits);
    }
    let steps = script;
    for (const hit of hits) steps = applyMailFault(hit, steps);
    return steps;
  }
}

/** A key or value no two runs share: an id (`msg_…`, a uuid), a time, or a field named as one. */
const VOLATILE_KEY = /(^id$|Id$|^at$|At$)/;
const VOLATILE_VALUE = /^([a-z]+_[0-9A-Za-z]{20}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d{2}-\d{2}T[\d:.]+Z)$/;

/** An event body as JSON with its volatile values blanked, keys in order; bounded (a body may be large). */
export function stableContent(body: unknown): string {
  const blank = (key: string, value: unknown): unknown => {
    if (VOLATILE_KEY.test(key)) return '*';
    if (typeof value === 'string' && VOLATILE_VALUE.test(value)) return '*';
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return Object.fromEntries(Object.keys(value).sort().map((k) => [k, (value as Record<string, unknown>)[k]]));
    }
    return value;
  };
  return JSON.stringify(body, blank).slice(0, 512);
}

export const delayMs = (f: ChaosFault): number => f.delayMs ?? CHAOS_DEFAULTS.delayMs;
export const delaySecs = (f: ChaosFault): number => f.delaySecs ?? CHAOS_DEFAULTS.delaySecs;

function applyMailFault(hit: ChaosHit, steps: MailStep[]): MailStep[] {
  const first = steps[0]?.afterSecs ?? 0;
  switch (hit.kind) {
    case 'mail.bounce':
      return [{ afterSecs: first, outcome: { type: 'email.bounced', bounce: HARD_BOUNCE } }];
    case 'mail.defer':
      return [{ afterSecs: first, outcome: { type: 'email.deferred' } }, ...steps.map((s) => ({ ...s, afterSecs: s.afterSecs + delaySecs(hit.fault) }))];
    case 'mail.late':
      return steps.map((s) => ({ ...s, afterSecs: s.afterSecs + delaySecs(hit.fault) }));
    default:
      return steps;
  }
}
