// The part of a svc/testing handle that speaks the public HTTP API: requests, the clock, waits,
// inbound texts and calls, chaos. Shared by a service of the file's own (`startService`, service.ts)
// and an account on the suite's one service (`connectService`, shared.ts); each adds its own
// lifecycle (`reset`, `seed`, `close`). Loads nothing of the server: a test file that connects pays
// for this module and a few requests only.
import { CHAOS_EXEMPT_HEADER, type ChaosProfile } from '../api/values/chaos.js';
import { parseDurationSecs } from './duration.js';
import { headersOf, send, type RawRequest } from './http.js';
import { POLL_MS, sleep, waitForCondition } from './wait.js';
import type { SimulatedCall, TestService, TextMatch } from './types.js';
import { EVENTS_FEED_PATH } from '../api/resources/events.js';
import { sandboxClockEndpoints } from '../api/resources/sandbox.js';
import { sandboxChaosEndpoints } from '../api/resources/sandbox-chaos.js';
import { sandboxMessagingEndpoints } from '../api/resources/sandbox-messaging.js';
import { sandboxCallEndpoints } from '../api/resources/sandbox-calls.js';
import { MAILBOX_PATH } from '../api/resources/sandbox-email.js';
import { callPath } from '../api/resources/calls.js';
import { messageList } from '../api/resources/messages.js';

const DEFAULT_TIMEOUT_MS = 5000;
/** A simulated call is walked in steps of this many seconds until its end (manual clock). */
const CALL_STEP_SECS = 30;
const CALL_MAX_STEPS = 240;
/** One long poll of the events feed is held at most this long (the service allows 30 s). */
const MAX_HOLD_SECS = 5;
/** The service-wide chaos profile (contract §9): only the root account's live key sets it. */
export const SERVICE_CHAOS_PATH = `${sandboxChaosEndpoints.set.path}?scope=service`;
/** An account's own chaos profile (contract §9): set with its key, it acts on that account only. */
export const ACCOUNT_CHAOS_PATH = sandboxChaosEndpoints.set.path;
export const CHAOS_OFF: ChaosProfile = { seed: 0, faults: {} };

/** The account a handle acts as; `connectService`'s `reset()` moves it to another. */
export interface HandleAccount {
  baseUrl: string;
  liveKey: string;
  testKey: string;
  accountId: string;
}

export interface HandleWiring {
  /** Spares the test's own requests the API's chaos faults (the app under test is not spared). */
  exemptToken: string;
  clockMode: 'manual' | 'system';
  /** The key that moves the clock: service-wide, so the root account's live key. */
  clockKey: () => string;
  /** Where `chaos.set` puts a profile (with the account's live key). */
  chaosPath: string;
  /** A new account: event waits read its feed from the start (asc without `after`), no head to fetch. */
  feedFromStart?: boolean;
}

export type Lifecycle = Pick<TestService, 'reset' | 'seed' | 'close'>;

export interface HandleParts {
  handle: TestService;
  request: TestService['request'];
  /** A call that must succeed: anything else throws with the service's error envelope. */
  ok(method: string, path: string, body?: unknown, key?: string): Promise<any>;
  /** Event waits count from the feed's head now (after a start, a reset or a seed). */
  restartFeed(): Promise<void>;
}

/** A handle acting as `account`, with its lifecycle from `lifecycle` (called once the parts exist). */
export async function createHandle(account: HandleAccount, wiring: HandleWiring, lifecycle: (parts: Omit<HandleParts, 'handle'>) => Lifecycle): Promise<HandleParts> {
  const raw: RawRequest = async (method, path, body, key = account.liveKey) => {
    const json = body === undefined ? undefined : JSON.stringify(body);
    const res = await send(account.baseUrl, method, path, { authorization: `Bearer ${key}`, [CHAOS_EXEMPT_HEADER]: wiring.exemptToken, ...(json === undefined ? {} : { 'content-type': 'application/json' }) }, json);
    let parsed: unknown;
    try {
      parsed = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      parsed = res.text;
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  const request: TestService['request'] = async (method, path, body, key) => {
    const res = await raw(method, path, body, key);
    const headers = headersOf(res.headers);
    return {
      status: res.status,
      body: res.body,
      get headers() {
        return headers();
      },
    };
  };
  const ok = async (method: string, path: string, body?: unknown, key?: string): Promise<any> => {
    const res = await request(method, path, body, key);
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };

  /** The events feed's position the event waits count from (start, then each reset). */
  const feedHead = async (): Promise<string> => (await ok('GET', `${EVENTS_FEED_PATH}?after=now&limit=1`)).cursor as string;
  let since: string | undefined = wiring.feedFromStart ? undefined : await feedHead();
  const feedAfter = (cursor: string | undefined) => (cursor == null ? '' : `after=${encodeURIComponent(cursor)}&`);
  const restartFeed = async () => void (since = await feedHead());

  const now = async () => (await ok('GET', sandboxClockEndpoints.get.path)).now as string;
  const advance = async (seconds: number) => {
    if (seconds <= 0) return { now: await now() };
    const moved = await ok('POST', sandboxClockEndpoints.advance.path, { seconds }, wiring.clockKey());
    return { now: moved.now as string };
  };

  /** Looks again every POLL_MS (messages, mailbox, calls: lists that change without an event). */
  const poll = <T>(what: string, timeoutMs: number, probe: () => Promise<{ found?: T; seen?: string[] }>) =>
    waitForCondition({ what, timeoutMs, probe, pause: (left) => sleep(Math.min(POLL_MS, left)) });

  const { reset, seed, close } = lifecycle({ request, ok, restartFeed });
  const handle: TestService = {
    get baseUrl() {
      return account.baseUrl;
    },
    get liveKey() {
      return account.liveKey;
    },
    get testKey() {
      return account.testKey;
    },
    get accountId() {
      return account.accountId;
    },
    get env() {
      return { SVC_BASE_URL: account.baseUrl, SVC_API_KEY: account.liveKey };
    },
    clock: {
      advance: async (duration) => advance(parseDurationSecs(duration)),
      async set(iso) {
        const target = Date.parse(iso);
        if (Number.isNaN(target)) throw new Error(`clock.set: "${iso}" is not an ISO 8601 time`);
        const current = Date.parse(await now());
        if (target < current) throw new Error(`clock.set: ${iso} is before the service's time (${new Date(current).toISOString()}); the clock never goes back (reset() does)`);
        return advance(Math.ceil((target - current) / 1000));
      },
      now,
    },
    reset,
    seed,
    inbound: {
      sms: async (input) => ok('POST', sandboxMessagingEndpoints.inbound.path, input),
    },
    calls: {
      async simulate(input, opts = {}) {
        const placed = await ok('POST', sandboxCallEndpoints.place.path, input);
        // `complete`: the engine has nothing more to do for the call (its end, and a transcript due after it).
        const traceOf = async () => (await ok('GET', callPath(placed.id, '/trace'))) as { data: SimulatedCall['trace']; complete: boolean };
        let trace = await traceOf();
        if (opts.runToEnd !== false) {
          if (wiring.clockMode === 'manual') {
            for (let i = 0; i < CALL_MAX_STEPS && !trace.complete; i++) {
              await advance(CALL_STEP_SECS);
              trace = await traceOf();
            }
          } else {
            trace = await poll(`call ${placed.id} to end`, CALL_MAX_STEPS * 1000, async () => {
              const now = await traceOf();
              return now.complete ? { found: now } : { seen: [`${now.data.length} trace steps so far`] };
            });
          }
        }
        return { call: await ok('GET', callPath(placed.id)), trace: trace.data };
      },
      // Loaded at the first use: the test format reads YAML, which a file that runs no call test never loads.
      test: async (file) => (await import('./call-tests.js')).runCallTests(file, raw),
    },
    waitFor: {
      message: async ({ to, match, timeoutMs = DEFAULT_TIMEOUT_MS }) =>
        poll(`an outbound message to ${to}${match ? ` matching ${describe(match)}` : ''}`, timeoutMs, async () => {
          const page = await ok('GET', `${messageList.path}?direction=outbound&to=${encodeURIComponent(to)}&limit=100`);
          const messages = page.data as Array<{ id: string; body: string | null; to: string; from: string }>;
          const found = messages.find((m) => matches(match, m.body ?? ''));
          return found ? { found } : { seen: messages.map((m) => `${m.from} → ${m.to}: ${JSON.stringify(m.body)}`) };
        }),
      email: async ({ to, subject, timeoutMs = DEFAULT_TIMEOUT_MS }) =>
        poll(`an email to ${to}${subject ? ` with a subject matching ${describe(subject)}` : ''}`, timeoutMs, async () => {
          const page = await ok('GET', `${MAILBOX_PATH}?to=${encodeURIComponent(to)}&limit=100`);
          const mails = page.data as Array<{ subject: string | null; text: string | null; to: string }>;
          const found = mails.find((m) => matches(subject, m.subject ?? ''));
          return found ? { found } : { seen: mails.map((m) => `${m.to}: ${JSON.stringify(m.subject)}`) };
        }),
      async event(type, match = {}, { timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
        // Events are read from `since` on; between looks, the feed's long poll holds until the next one.
        const seen: Array<Record<string, unknown> & { type: string }> = [];
        let cursor = since;
        return waitForCondition({
          what: `a ${type} event${Object.keys(match).length ? ` with ${JSON.stringify(match)}` : ''}`,
          timeoutMs,
          probe: async () => {
            for (let more = true; more; ) {
              const page = await ok('GET', `${EVENTS_FEED_PATH}?${feedAfter(cursor)}limit=100`);
              seen.push(...page.data);
              cursor = page.cursor;
              more = page.hasMore;
            }
            const found = seen.find((e) => typeMatches(type, e.type) && fieldsMatch(e, match));
            return found ? { found } : { seen: seen.map((e) => `${e.type} ${JSON.stringify(fieldsOf(e))}`) };
          },
          pause: async (left) => void (await ok('GET', `${EVENTS_FEED_PATH}?${feedAfter(cursor)}limit=1&wait=${Math.max(1, Math.min(MAX_HOLD_SECS, Math.floor(left / 1000)))}`)),
        });
      },
    },
    chaos: {
      set: async (profile) => void (await ok('PUT', wiring.chaosPath, profile ?? CHAOS_OFF)),
      log: async () => (await ok('GET', sandboxChaosEndpoints.log.path)).data,
    },
    request,
    close,
  };
  return { handle, request, ok, restartFeed };
}

const typeMatches = (pattern: string, type: string) =>
  pattern === '*' || (pattern.endsWith('.*') ? type.startsWith(pattern.slice(0, -1)) : type === pattern);

const ENVELOPE = new Set(['eventId', 'id', 'type', 'createdAt']);
const fieldsOf = (e: Record<string, unknown>) => Object.fromEntries(Object.entries(e).filter(([k]) => !ENVELOPE.has(k)));

/** Every field of `match` is in the event (objects compared as subsets). */
function fieldsMatch(event: Record<string, unknown>, match: Record<string, unknown>): boolean {
  const data = (event.data && typeof event.data === 'object' ? { ...event, ...(event.data as object) } : event) as Record<string, unknown>;
  return Object.entries(match).every(([k, v]) => subset(v, data[k]));
}

function subset(want: unknown, got: unknown): boolean {
  if (want && typeof want === 'object' && got && typeof got === 'object') {
    return Object.entries(want).every(([k, v]) => subset(v, (got as Record<string, unknown>)[k]));
  }
  return Object.is(want, got);
}

function matches(match: TextMatch | undefined, text: string): boolean {
  if (match === undefined) return true;
  if (typeof match === 'string') return text.includes(match);
  if (match instanceof RegExp) return match.test(text);
  return match(text);
}

const describe = (m: TextMatch) => (typeof m === 'function' ? 'the predicate' : String(m));
