// Seeded chaos. The simulated world misbehaves on purpose, as a profile says (rates and
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
//
// Scoped (contract §9): a profile is stored per account, and one service-wide; the one that applies
// to what a fault would hit is its account's own, else its agency's, else the service-wide one. Each
// fault is logged under the account it hit, and an account reads only its own log.
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

/** `{seed: 0, faults: {}}`: the profile that turns chaos off (PUT stores nothing then). */
export const isOffProfile = (p: ChaosProfile): boolean => p.seed === 0 && Object.keys(p.faults).length === 0;

/**
 * Where the service-wide profile is kept among the stored ones, beside the accounts' (an account
 * id is a uuid, never this).
 */
export const SERVICE_SCOPE = '*';

/** One stored profile and its revision: a new PUT is a new revision, even of the same profile. */
export interface StoredChaosProfile {
  profile: ChaosProfile;
  rev: string;
}

/** Every stored profile, by scope: an account id, or SERVICE_SCOPE. */
export type StoredChaosProfiles = Record<string, StoredChaosProfile>;

/** What chaos needs of an account: its id and its agency (contract §9: an agency's profile acts on its sub-accounts). */
export interface ChaosAccount {
  id: string;
  parentId: string | null;
}

/** Reads an account (its agency): the transaction's repository inside one, the store outside. */
export interface ChaosAccountReader {
  get(id: string): Promise<ChaosAccount | undefined>;
}

export interface ChaosHit {
  kind: ChaosFaultKind;
  id: string;
  fault: ChaosFault;
}

/**
 * One stored profile in force: the profile, and the occurrence counters behind stable ids of what it
 * hits. Every account it applies to shares them (the service-wide profile numbers the requests of
 * all its accounts together, as one seed and one stream of requests), so the same seed and the same
 * requests give the same faults, per profile.
 */
export class ChaosRun {
  private readonly occurrences = new Map<string, number>();
  /** Each event's stable id, given as it is emitted (in emission order, which the requests and the clock decide). */
  private readonly events = new Map<string, string>();
  /** A mail script's faults, decided once per email and recipient (the delivery jobs re-derive the script at each step). */
  readonly mailDecisions = new Map<string, ChaosHit[]>();
  readonly active: boolean;

  constructor(
    readonly profile: ChaosProfile,
    readonly rev = '',
  ) {
    this.active = Object.values(profile.faults).some((f) => f && f.rate > 0);
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

  /** The stable id of the next occurrence of `what`. */
  occurrence(what: string): string {
    const n = (this.occurrences.get(what) ?? 0) + 1;
    this.occurrences.set(what, n);
    return `${what}#${n}`;
  }

  /** The first of `kinds` (in that order) that this id's roll turns into a fault, or undefined. */
  roll(kinds: readonly ChaosFaultKind[], id: string): ChaosHit | undefined {
    for (const kind of kinds) {
      const fault = this.profile.faults[kind];
      if (fault && fault.rate > 0 && chaosRoll(this.profile.seed, kind, id) < fault.rate) return { kind, id, fault };
    }
    return undefined;
  }

  /** Every one of `kinds` this id's rolls turn into faults. */
  rollEach(kinds: readonly ChaosFaultKind[], id: string): ChaosHit[] {
    return kinds.flatMap((k) => this.roll([k], id) ?? []);
  }
}

/** Accounts' agencies held at most (an account's agency never changes); past it the map starts again. */
const MAX_AGENCIES_HELD = 10_000;

export interface ChaosSources {
  /** The stored profiles (compose.ts: the service state, shared by every process on the database). */
  readStored(): Promise<StoredChaosProfiles>;
  /** An account read outside a transaction (the carrier and the webhook sender call out with none open). */
  accounts: ChaosAccountReader;
}

/**
 * The service's chaos (contract §9): the stored profiles in force in this process, which of them
 * applies to an account, and the log of the faults injected, kept per account.
 *
 * Which profile applies to an account: its own, else its agency's, else the service-wide one (the
 * most specific profile with a fault in it wins; one whose rates are all 0 applies to nothing). A process holds every stored profile in memory and reads them again when one
 * changes (`refresh`: after its own PUT; on another process's notice, compose.ts and worker-link.ts),
 * so a request, a send or an attempt reads nothing from the database for chaos, and nothing at all
 * when no profile has a fault (`anyActive`).
 */
export class Chaos {
  /** The stored profiles with a fault in them, by scope. */
  private runs = new Map<string, ChaosRun>();
  private anyFault = false;
  private readonly logs = new Map<string, { seq: number; entries: ChaosLogEntry[] }>();
  private readonly agencies = new Map<string, string | null>();
  private refreshing: Promise<void> = Promise.resolve();
  /** The value of CHAOS_EXEMPT_HEADER that spares a request the API's faults (api/values/chaos.ts): never sent over the wire by the service. */
  readonly exemptToken = randomBase62(32);

  constructor(
    private readonly clock: Pick<Clock, 'nowMs'>,
    private readonly sources: ChaosSources,
  ) {}

  /** Whether a request's exemption header carries this service's token (a constant-time check is not needed: the token only lifts injected test faults). */
  exempts(header: string | string[] | undefined): boolean {
    return header === this.exemptToken;
  }

  /** Some stored profile has a fault: only then is an account's profile looked for. */
  get anyActive(): boolean {
    return this.anyFault;
  }

  /** Reads the stored profiles again; a profile whose revision did not change keeps its counters. */
  refresh(): Promise<void> {
    return this.reload(false);
  }

  /** Back to the stored profiles with fresh counters and an empty log (svc/testing `reset()`). */
  async restart(): Promise<void> {
    this.logs.clear();
    await this.reload(true);
  }

  private reload(fresh: boolean): Promise<void> {
    const next = this.refreshing.then(async () => {
      const stored = await this.sources.readStored();
      const runs = new Map<string, ChaosRun>();
      for (const [scope, { profile, rev }] of Object.entries(stored)) {
        const held = this.runs.get(scope);
        const run = !fresh && held?.rev === rev ? held : new ChaosRun(profile, rev);
        // A profile with no fault stands for nothing: the next one out applies.
        if (run.active) runs.set(scope, run);
      }
      this.runs = runs;
      this.anyFault = runs.size > 0;
    });
    this.refreshing = next.catch(() => undefined);
    return next;
  }

  /** The profile that applies to an account (its own, its agency's, the service-wide one), or undefined. */
  forAccount(account: ChaosAccount): ChaosRun | undefined {
    if (!this.anyFault) return undefined;
    return this.runs.get(account.id) ?? (account.parentId === null ? undefined : this.runs.get(account.parentId)) ?? this.runs.get(SERVICE_SCOPE);
  }

  /** As `forAccount`, for an account known by id (its agency read once, through `accounts` inside a transaction). */
  async forAccountId(accountId: string, accounts: ChaosAccountReader = this.sources.accounts): Promise<ChaosRun | undefined> {
    if (!this.anyFault) return undefined;
    const own = this.runs.get(accountId);
    if (own) return own;
    let parentId = this.agencies.get(accountId);
    if (parentId === undefined) {
      parentId = (await accounts.get(accountId))?.parentId ?? null;
      if (this.agencies.size >= MAX_AGENCIES_HELD) this.agencies.clear();
      this.agencies.set(accountId, parentId);
    }
    return this.forAccount({ id: accountId, parentId });
  }

  /** Logs a fault injected on what `accountId` owns (its request, message, email, webhook or call). */
  record(accountId: string, hit: ChaosHit, detail: Record<string, unknown>): void {
    let log = this.logs.get(accountId);
    if (!log) this.logs.set(accountId, (log = { seq: 0, entries: [] }));
    if (log.entries.length >= CHAOS_LIMITS.maxLogEntries) log.entries.shift();
    log.entries.push({ seq: ++log.seq, at: new Date(this.clock.nowMs()).toISOString(), kind: hit.kind, id: hit.id, detail });
  }

  /** contract §9: the faults injected on this account's own requests and records, oldest first. */
  logOf(accountId: string): readonly ChaosLogEntry[] {
    return this.logs.get(accountId)?.entries ?? [];
  }

  /**
   * A simulated inbound call's scenario with the caller faults of the account's profile: nobody
   * answers (`call.no_answer`), or the caller hangs up `afterSecs` after the start (`call.drop`).
   */
  callScenario<S extends { answer?: unknown; hangupAfterSecs?: number | null }>(account: ChaosAccount, from: string, to: string, scenario: S): S {
    const run = this.forAccount(account);
    if (!run?.active) return scenario;
    const id = run.occurrence(`call ${from}>${to}`);
    const hit = run.roll(['call.no_answer', 'call.drop'], id);
    if (!hit) return scenario;
    if (hit.kind === 'call.no_answer') {
      this.record(account.id, hit, { from, to });
      return { ...scenario, answer: null };
    }
    const after = hit.fault.afterSecs ?? CHAOS_DEFAULTS.afterSecs;
    this.record(account.id, hit, { from, to, hangupAfterSecs: after });
    return { ...scenario, hangupAfterSecs: after };
  }

  /**
   * The mail server's script for one recipient of an email of `accountId`, with the faults of `run`
   * (the profile that applies to the account: `forAccountId`), decided once per email and recipient.
   */
  mailScript(run: ChaosRun | undefined, accountId: string, emailId: string, address: string, subject: string | null, script: MailStep[]): MailStep[] {
    if (!run) return script;
    const memo = `${emailId}\u0000${address.toLowerCase()}`;
    let hits = run.mailDecisions.get(memo);
    if (!hits) {
      hits = [];
      if (run.active) {
        const id = run.occurrence(`mail ${address.toLowerCase()} ${JSON.stringify(subject ?? '')}`);
        const outcome = run.roll(['mail.bounce', 'mail.defer'], id);
        const late = run.roll(['mail.late'], id);
        hits = [outcome, late].filter((h): h is ChaosHit => h !== undefined);
        for (const h of hits) this.record(accountId, h, { recipient: address, ...(h.kind === 'mail.bounce' ? {} : { delaySecs: delaySecs(h.fault) }) });
      }
      if (run.mailDecisions.size >= CHAOS_LIMITS.maxLogEntries * 10) run.mailDecisions.clear();
      run.mailDecisions.set(memo, hits);
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
