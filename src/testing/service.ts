// svc/testing's implementation, loaded by `startService` (index.ts). The service runs in this process
// on its own port and data directory; every helper but `reset()` speaks the public HTTP API, as the
// app under test does. `reset()` is the one lifecycle act that reaches inside (server/reset-point.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService as startServer } from '../server/main.js';
import { markResetPoint, type ServiceResetPoint } from '../server/reset-point.js';
import { CHAOS_EXEMPT_HEADER, type ChaosProfile } from '../api/values/chaos.js';
import { parseDurationSecs } from './duration.js';
import { runSeed } from './seed.js';
import { POLL_MS, sleep, waitForCondition } from './wait.js';
import type { SimulatedCall, StartServiceOptions, TestService, TextMatch } from './index.js';
import { EVENTS_FEED_PATH } from '../api/resources/events.js';
import { sandboxClockEndpoints } from '../api/resources/sandbox.js';
import { sandboxChaosEndpoints } from '../api/resources/sandbox-chaos.js';
import { sandboxMessagingEndpoints } from '../api/resources/sandbox-messaging.js';
import { sandboxCallEndpoints } from '../api/resources/sandbox-calls.js';
import { MAILBOX_PATH } from '../api/resources/sandbox-email.js';
import { callPath } from '../api/resources/calls.js';
import { messageList } from '../api/resources/messages.js';

/** No limit of the service gets in a test's way (as the project's own test services). */
const UNLIMITED = { ratePerSec: 1e9, burst: 1e9 } as const;
const DEFAULT_TIMEOUT_MS = 5000;
/** A simulated call is walked in steps of this many seconds until its end (manual clock). */
const CALL_STEP_SECS = 30;
const CALL_MAX_STEPS = 240;
/** The service-wide chaos profile (contract §9): what `startService({chaos})` and `chaos.set()` replace, with the root account's live key. */
const SERVICE_CHAOS_PATH = `${sandboxChaosEndpoints.set.path}?scope=service`;
const CHAOS_OFF: ChaosProfile = { seed: 0, faults: {} };
/** One long poll of the events feed is held at most this long (the service allows 30 s). */
const MAX_HOLD_SECS = 5;

export async function launchTestService(options: StartServiceOptions): Promise<TestService> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-testing-'));
  const chaos = typeof options.chaos === 'string' ? await readChaosFile(options.chaos) : options.chaos;
  let running;
  try {
    running = await startServer({
      host: '127.0.0.1',
      port: 0,
      dataDir,
      clock: options.clock ?? 'manual',
      rateLimit: UNLIMITED,
      unauthenticatedRate: UNLIMITED,
      ...(chaos ? { chaos } : {}),
    });
  } catch (error) {
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const service = running;
  const { baseUrl, bootstrap } = service;
  const exemptToken = service.deps.chaos.exemptToken;
  const liveKey = bootstrap.liveKey;

  const request: TestService['request'] = async (method, path, body, key = liveKey) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      // The test's own requests are spared the API's chaos faults (the app under test is not).
      headers: { authorization: `Bearer ${key}`, [CHAOS_EXEMPT_HEADER]: exemptToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
  /** A call that must succeed: anything else throws with the service's error envelope. */
  const ok = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await request(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };

  /** The events feed's position the event waits count from (start, then each reset). */
  const feedHead = async (): Promise<string> => (await ok('GET', `${EVENTS_FEED_PATH}?after=now&limit=1`)).cursor as string;
  let since = await feedHead();
  let point: ServiceResetPoint = await markResetPoint(service);
  let closed = false;

  const advance = async (seconds: number) => {
    if (seconds <= 0) return { now: (await ok('GET', sandboxClockEndpoints.get.path)).now as string };
    const moved = await ok('POST', sandboxClockEndpoints.advance.path, { seconds });
    return { now: moved.now as string };
  };

  /** Looks again every POLL_MS (messages, mailbox, calls: lists that change without an event). */
  const poll = <T>(what: string, timeoutMs: number, probe: () => Promise<{ found?: T; seen?: string[] }>) =>
    waitForCondition({ what, timeoutMs, probe, pause: (left) => sleep(Math.min(POLL_MS, left)) });

  const handle: TestService = {
    baseUrl,
    liveKey,
    testKey: bootstrap.testKey,
    accountId: bootstrap.accountId,
    env: { SVC_BASE_URL: baseUrl, SVC_API_KEY: liveKey },
    clock: {
      advance: async (duration) => advance(parseDurationSecs(duration)),
      async set(iso) {
        const target = Date.parse(iso);
        if (Number.isNaN(target)) throw new Error(`clock.set: "${iso}" is not an ISO 8601 time`);
        const now = Date.parse((await ok('GET', sandboxClockEndpoints.get.path)).now as string);
        if (target < now) throw new Error(`clock.set: ${iso} is before the service's time (${new Date(now).toISOString()}); the clock never goes back (reset() does)`);
        return advance(Math.ceil((target - now) / 1000));
      },
      now: async () => (await ok('GET', sandboxClockEndpoints.get.path)).now as string,
    },
    async reset() {
      await point.restore();
      since = await feedHead();
    },
    async seed(fixture) {
      // The fixture runs with chaos off (its requests are the test's setup, not the app under test):
      // the account's profile and the service-wide one, each put back after.
      const scopes = [sandboxChaosEndpoints.set.path, SERVICE_CHAOS_PATH];
      const profiles = await Promise.all(scopes.map((path) => ok('GET', path)));
      for (const path of scopes) await ok('PUT', path, CHAOS_OFF);
      let results: unknown[];
      try {
        results = await runSeed(fixture, { baseUrl, apiKey: liveKey });
      } finally {
        for (const [i, path] of scopes.entries()) await ok('PUT', path, profiles[i]);
      }
      // The seeded state is the one reset() returns to from now on.
      point = await markResetPoint(service);
      since = await feedHead();
      return results;
    },
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
          if (service.deps.clock.mode === 'manual') {
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
              const page = await ok('GET', `${EVENTS_FEED_PATH}?after=${encodeURIComponent(cursor)}&limit=100`);
              seen.push(...page.data);
              cursor = page.cursor;
              more = page.hasMore;
            }
            const found = seen.find((e) => typeMatches(type, e.type) && fieldsMatch(e, match));
            return found ? { found } : { seen: seen.map((e) => `${e.type} ${JSON.stringify(fieldsOf(e))}`) };
          },
          pause: async (left) => void (await ok('GET', `${EVENTS_FEED_PATH}?after=${encodeURIComponent(cursor)}&limit=1&wait=${Math.max(1, Math.min(MAX_HOLD_SECS, Math.floor(left / 1000)))}`)),
        });
      },
    },
    chaos: {
      set: async (profile) => void (await ok('PUT', SERVICE_CHAOS_PATH, profile ?? CHAOS_OFF)),
      log: async () => (await ok('GET', sandboxChaosEndpoints.log.path)).data,
    },
    request,
    async close() {
      if (closed) return;
      closed = true;
      await service.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (options.seed !== undefined) {
    try {
      await handle.seed(options.seed);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
  return handle;
}

async function readChaosFile(file: string): Promise<ChaosProfile> {
  const { parse } = await import('yaml');
  return parse(readFileSync(file, 'utf8')) as ChaosProfile;
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
