// Sinks (contract §10, extension, local service only): webhook endpoints served by the local service
// itself, which keep what they receive. Plain values (no zod): the schemas, the service and the CLI
// read the same bounds.

export const SINK_LIMITS = {
  /** The requests a sink keeps: the newest ones; an older one is dropped as each new one arrives. */
  keptRequests: 1000,
  /** The bytes of a request body a sink keeps (its signature is checked on the whole body first). */
  keptBodyBytes: 64 * 1024,
  /** The largest body a sink reads at all; a longer one is answered 400 and not kept. */
  readBodyBytes: 1024 * 1024,
  /**
   * What one sink takes in, per process: bodies of at most this many bytes a second (a token bucket
   * as full as a second's worth), each request counted as at least `intakeRequestBytes` (its write).
   * Past it: 429 with `Retry-After`, the body not read. So a flooded sink costs the service a bounded
   * share of its time and other clients are answered meanwhile. A real endpoint's deliveries are far
   * below it (event bodies of a few KB).
   */
  intakeBytesPerSec: 16 * 1024 * 1024,
  intakeRequestBytes: 4 * 1024,
  /** `respond.delayMs`: at most 30 s (the worker's acknowledgement timeout is 10 s: a longer delay is a timeout). */
  maxDelayMs: 30_000,
  /** `respond.failFirst`: at most this many failed attempts per event (an event is attempted 9 times at most). */
  maxFailFirst: 100,
} as const;

/** The status a sink answers unless told otherwise. */
export const SINK_DEFAULT_STATUS = 200;
/** The status of a failed attempt (`failFirst`). */
export const SINK_FAIL_STATUS = 500;

/** The path a sink is served at by the service itself (public: it is a webhook receiver). */
export const SINK_PATH_PREFIX = '/sinks/';

/** Request headers a sink keeps only as `[redacted]`: credentials someone sent it by mistake. */
export const SINK_REDACTED_HEADERS: readonly string[] = ['authorization', 'proxy-authorization', 'cookie'];

/** Events a replay may make deliveries of at once (`POST /v1/webhooks/{id}/replay`). */
export const MAX_REPLAY_EVENTS = 10_000;
