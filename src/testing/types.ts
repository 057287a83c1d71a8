// The types svc/testing publishes (index.ts re-exports them): apart from the entry, so the modules
// that implement them import their types from below and never from the entry that loads them.
import type { ChaosProfile } from '../api/values/chaos.js';

export interface StartServiceOptions {
  /** `manual` (default): time moves only with `clock.advance`/`clock.set`; `system`: wall time. */
  clock?: 'manual' | 'system';
  /** A fixture (a YAML file's path, or the same object) run once after start (`svc fixtures run`). */
  seed?: string | FixtureObject;
  /** A chaos profile (an object, or a YAML/JSON file's path): seeded faults of the simulated world. */
  chaos?: ChaosProfile | string;
  /** Where the data lives (default: a new temporary directory, removed at `close()`). */
  dataDir?: string;
}

/** The fixtures format (`svc fixtures run`): `params` and `steps`. */
export interface FixtureObject {
  params?: Record<string, string | number | boolean>;
  steps: Array<Record<string, unknown>>;
}

/** A text to look for: a substring, a regular expression, or a predicate. */
export type TextMatch = string | RegExp | ((text: string) => boolean);

export interface WaitOptions {
  /** Milliseconds before the wait fails, listing what did arrive (default 5000). */
  timeoutMs?: number;
}

export interface SimulateCallInput {
  from: string;
  to: string;
  /** The sandbox call scenario (`POST /v1/sandbox/calls`): answer, digits, machine, hangupAfterSecs. */
  scenario?: Record<string, unknown>;
}

export interface SimulatedCall {
  call: Record<string, unknown> & { id: string; status: string };
  trace: Array<{ at: string; step: string; detail?: unknown }>;
}

/**
 * A call test document (`svc calls test`'s format, cli.md "Calls as tests") as an object. `route` is
 * the route document itself (as `svc routes get -o yaml` writes it), tested instead of the number's
 * saved route and never saved; a route's path is only for a test file, which it is relative to.
 */
export interface CallTestDocument {
  /** A number of the account (id or E.164): its saved route, its blocked list. */
  number: string;
  route?: Record<string, unknown>;
  tests: CallTestCase[];
}

export interface CallTestCase {
  name?: string;
  /** The caller (default +15005550100). */
  from?: string;
  /** The key pressed at each prompt, in order; "" stays silent. */
  press?: string[];
  /** Who picks up (E.164, device id or destination label), after how long (`5s` or seconds). */
  answer?: Record<string, string | number>;
  /** The decision webhook's answer (default: it times out). */
  decision?: { status: number; body?: unknown } | { timeout: true };
  /** The caller hangs up then (`40s` or seconds), if nothing ended the call before. */
  hangupAfter?: string | number;
  expect?: {
    status?: 'completed' | 'missed' | 'blocked' | 'failed';
    outcome?: 'voicemail' | 'missed';
    answeredBy?: string;
    /** Steps in this order, not necessarily adjacent: a step name, then text its detail contains (`ivr.key 1`). */
    trace?: string[];
  };
}

/** What `calls.test` found: the shape of `svc calls test --reporter json`. */
export interface CallTestReport {
  tests: Array<{
    name: string;
    passed: boolean;
    /** The first expectation the call did not meet (`expected step not found: ivr.key 1`), or null. */
    failure: string | null;
    trace: Array<{ atSecs: number; step: string; detail: string }>;
  }>;
  /** The route's branches the tests took, together (cli.md names them: `ivr.key:1`, `answer:+1…`, `voicemail`). */
  coverage: { covered: number; total: number; percent: number; uncovered: string[] };
}

export interface TestService {
  /** The service's address on loopback, e.g. `http://127.0.0.1:40123`. */
  baseUrl: string;
  /** The root account's live key (moves the clock, sends for real in the sandbox). */
  liveKey: string;
  /** The root account's test key (sends play their outcome at once, move no money). */
  testKey: string;
  accountId: string;
  /** What an app under test reads: `SVC_BASE_URL` and `SVC_API_KEY` (the live key). */
  env: { SVC_BASE_URL: string; SVC_API_KEY: string };
  clock: {
    /** Moves the service clock forward (`30s`, `10m`, `2h`, `1d`, `1h30m` or seconds) and runs what falls due. */
    advance(duration: string | number): Promise<{ now: string }>;
    /** Moves the service clock forward to an instant (never back: `reset()` is the way back). */
    set(iso: string): Promise<{ now: string }>;
    now(): Promise<string>;
  };
  /** Back to the state right after start and the last `seed()`: data, clock, chaos profile and log. */
  reset(): Promise<void>;
  /** Runs a fixture, then makes the result the state `reset()` returns to. */
  seed(fixture: string | FixtureObject): Promise<unknown[]>;
  inbound: {
    /** A consumer's text to one of the account's numbers (`POST /v1/sandbox/inbound-messages`). */
    sms(input: { to: string; from: string; body?: string; mediaUrls?: string[] }): Promise<Record<string, unknown> & { id: string }>;
  };
  calls: {
    /** An inbound call; with a manual clock it is walked to its end (the clock moves), then read with its trace. */
    simulate(input: SimulateCallInput, options?: { runToEnd?: boolean }): Promise<SimulatedCall>;
    /**
     * Runs a call test file (its path) or the same document as an object, as `svc calls test` does:
     * each test one evaluation of the call engine (nothing saved, charged or sent), the expectations
     * checked, the coverage kept as the number's last run. Failed tests are in the report, not thrown;
     * a document the format or the service refuses throws, naming where.
     */
    test(file: string | CallTestDocument): Promise<CallTestReport>;
  };
  waitFor: {
    /** An outbound message to `to` (whose body matches `match`). */
    message(query: { to: string; match?: TextMatch } & WaitOptions): Promise<Record<string, unknown> & { id: string; body: string | null }>;
    /** A message in the mail sandbox to `to` (whose subject matches `subject`). */
    email(query: { to: string; subject?: TextMatch } & WaitOptions): Promise<Record<string, unknown> & { subject: string | null; text: string | null }>;
    /** An event of `type` (`message.*` patterns too) emitted since start or the last reset, whose fields include `match`. */
    event(type: string, match?: Record<string, unknown>, options?: WaitOptions): Promise<Record<string, unknown> & { type: string }>;
  };
  chaos: {
    /**
     * Replaces the service-wide chaos profile (`PUT /v1/sandbox/chaos?scope=service`, as `chaos:` at
     * start); `null` turns it off. An account's own profile (`PUT /v1/sandbox/chaos` with its key) goes first.
     */
    set(profile: ChaosProfile | null): Promise<void>;
    /** Every fault injected on the account's requests and records since start or the last reset (`GET /v1/sandbox/chaos/log`). */
    log(): Promise<Array<Record<string, unknown> & { kind: string; id: string }>>;
  };
  /** A request to the API with the live key (or `key`); answers status and parsed body. Spared by chaos (the app under test is not). */
  request(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; body: any; headers: Headers }>;
  /** Stops the service and removes its temporary data. */
  close(): Promise<void>;
}

/**
 * What the suite's one service (the `svc/testing/vitest-setup` globalSetup) hands each test file:
 * `inject('svcService')` in Vitest. Holds the root account's live key: for `connectService` only.
 */
export interface SharedServiceInfo {
  baseUrl: string;
  rootKey: string;
  /** Spares the test's own requests the API's chaos faults. */
  exemptToken: string;
  clock: 'manual' | 'system';
}

export interface ConnectServiceOptions {
  /** A fixture run once for the file's account (`svc fixtures run`), and again at each `reset()`. */
  seed?: string | FixtureObject;
}
