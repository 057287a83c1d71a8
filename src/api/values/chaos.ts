// Seeded chaos for the simulated world of the local service. The profile's shape, shared by
// the service (world/chaos.ts), the sandbox routes, `svc server start --chaos` and svc/testing.
// Zod-free: svc/testing publishes these types.

/** Every kind of fault the simulated world can inject, where it is injected in brackets. */
export const CHAOS_FAULT_KINDS = [
  /** [carrier] a live message ends `failed` (`reason`, default "carrier rejected: chaos") */
  'carrier.failed',
  /** [carrier] a live message ends `undelivered` (`reason`, default "unreachable handset: chaos") */
  'carrier.undelivered',
  /** [carrier] the final receipt comes `delayMs` later */
  'carrier.late',
  /** [carrier] a stale `sent` receipt arrives after the final one (the service ignores it) */
  'carrier.out_of_order',
  /** [HTTP] the API answers 429 with `Retry-After: retryAfterSecs` (default 1) */
  'api.429',
  /** [HTTP] the API answers 502 `provider_error` */
  'api.502',
  /** [HTTP] the API answers `delayMs` late */
  'api.slow',
  /** [mail server] a recipient is deferred first, then delivered `delaySecs` later */
  'mail.defer',
  /** [mail server] a recipient hard-bounces */
  'mail.bounce',
  /** [mail server] a recipient is accepted `delaySecs` late */
  'mail.late',
  /** [webhooks] a delivery attempt is sent `delayMs` late */
  'webhook.delay',
  /** [webhooks] a delivery attempt is sent twice (at-least-once made visible) */
  'webhook.duplicate',
  /** [caller] a simulated inbound call is answered by nobody */
  'call.no_answer',
  /** [caller] a simulated inbound call is dropped `afterSecs` (default 5) after it starts */
  'call.drop',
] as const;

export type ChaosFaultKind = (typeof CHAOS_FAULT_KINDS)[number];

/** One kind's settings: `rate` in [0, 1] is the share of the chances that become a fault. */
export interface ChaosFault {
  rate: number;
  /** carrier.late, api.slow, webhook.delay (default 1000). */
  delayMs?: number;
  /** mail.defer, mail.late (default 600). */
  delaySecs?: number;
  /** api.429 (default 1). */
  retryAfterSecs?: number;
  /** call.drop (default 5). */
  afterSecs?: number;
  /** carrier.failed, carrier.undelivered. */
  reason?: string;
}

export interface ChaosProfile {
  /** The same seed and the same requests give the same faults (a 32-bit integer). */
  seed: number;
  faults: Partial<Record<ChaosFaultKind, ChaosFault>>;
}

/** One injected fault: its kind, the stable id of what it hit, and what was done. */
export interface ChaosLogEntry {
  seq: number;
  /** Service time, ISO 8601. */
  at: string;
  kind: ChaosFaultKind;
  /** What it hit: the request, message, email recipient, delivery or call, as the roll was keyed. */
  id: string;
  detail: Record<string, unknown>;
}

/**
 * contract §9: whose profile a chaos request reads or replaces — the account acted on (`account`:
 * the key's, or a sub-account's through `Service-Subaccount`), or the service-wide one (`service`:
 * replaced only with the root account's live key). `?scope=` on `/v1/sandbox/chaos`; default account.
 */
export const CHAOS_SCOPES = ['account', 'service'] as const;
export type ChaosScope = (typeof CHAOS_SCOPES)[number];

export const CHAOS_DEFAULTS = { delayMs: 1000, delaySecs: 600, retryAfterSecs: 1, afterSecs: 5 } as const;
/** Bounds a profile may ask for (a test should not wait minutes for a request). */
export const CHAOS_LIMITS = { maxDelayMs: 60_000, maxDelaySecs: 7 * 86_400, maxRetryAfterSecs: 3600, maxLogEntries: 10_000 } as const;

/**
 * A request carrying this header with the service's exemption token is never hit by the API's
 * faults: svc/testing's own reads and the test's `request()` (the app under test meets the chaos, the
 * test that watches it does not). The token is random per service and known only in its process
 * (`Chaos.exemptToken`, which svc/testing runs beside), so an app under test cannot opt out by
 * sending the header: any other value is ignored.
 */
export const CHAOS_EXEMPT_HEADER = 'svc-chaos-exempt';
