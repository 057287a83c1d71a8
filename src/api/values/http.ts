// The HTTP layer's bounds on a client as plain values (no fastify, no node:http): the limits a client
// meets (the README's "local service" section and /openapi.json's description quote them), kept here
// so tests and docs read the same numbers the server enforces (src/server/http/ applies them).

/**
 * How long the service waits for a client and how many connections it keeps,
 * so that one misbehaving local script cannot hold the service for everyone. Tests pass lower
 * values through `buildApp`'s `server` option; the README's "local service" section lists these.
 */
export interface ServerLimits {
  /**
   * The request line and every header must have arrived this long after the request began (Node's
   * `headersTimeout`; a connection that sends nothing is closed after it too). A real client sends
   * its headers in one packet: 10 s only cuts a client that trickles them.
   */
  headersTimeoutMs: number;
  /**
   * The whole request, body included, must have arrived this long after it began (Node's
   * `requestTimeout`). It bounds a body that stalls; it does not cover the answer, so a held read
   * (`wait` up to FEED_WAIT_MAX_SECS in `api/schemas/events.ts`) is never cut by it. 60 s lets a legal 3 MB body come at
   * 50 KB/s, and the 5 MB greeting upload at 85 KB/s: far slower than any link to a local service.
   */
  requestTimeoutMs: number;
  /**
   * An idle keep-alive connection is closed after this. Longer than the CLI's own idle window (10 s,
   * `api/client`), so the client always closes first and never sends on a socket being closed.
   */
  keepAliveTimeoutMs: number;
  /** How often Node checks the two timeouts above (its default, 30 s, would triple the headers bound). */
  timeoutCheckIntervalMs: number;
  /**
   * Open connections at once. Beyond it a new connection is answered 429 and closed. Well under the
   * usual 1,024 open files, which the database, media files and webhook deliveries share.
   */
  maxConnections: number;
  /** Open connections from one client address (IPv4-mapped IPv6 counts as its IPv4 address). */
  maxConnectionsPerAddress: number;
  /**
   * A connection that has not completed its first request's headers this long after it
   * opened is slow. When a cap is reached, a new connection takes the place of the oldest slow one
   * (answered 408 and closed) instead of being refused: 256 sockets dripping bytes from 127.0.0.1
   * locked every local client (they share the address) out until the headers timeout cut them.
   * A real client sends its headers in its first packet, milliseconds after connecting.
   */
  slowHeadersGraceMs: number;
  /**
   * A request body must keep coming at this rate at least, judged over each `bodyRateWindowMs`
   * (`slow-bodies.ts`): 256 sockets trickling a declared 32 MB body at 100 bytes/s held every
   * connection of 127.0.0.1 for the request timeout. 16 KB/s is far below any local link (a 3 MB
   * body on loopback arrives in milliseconds) yet cuts a trickle within two windows. Below it the
   * request is answered 408 `request_timeout` and closed.
   */
  bodyMinBytesPerSec: number;
  /**
   * The window the body's rate is judged over; also: a body still arriving one window after its
   * headers counts against its account's held requests (`client-holds.ts`), and the rest of a body
   * answered before it was read (a refused one, which is read and dropped) must arrive within one.
   */
  bodyRateWindowMs: number;
}

export const SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 15_000,
  timeoutCheckIntervalMs: 1_000,
  maxConnections: 512,
  // Half the total: one address cannot take everything, yet a local client firing a few hundred
  // requests at once (test/billing-enforcement.test.ts sends 200 concurrently) is not refused.
  maxConnectionsPerAddress: 256,
  slowHeadersGraceMs: 1_000,
  bodyMinBytesPerSec: 16 * 1024,
  bodyRateWindowMs: 2_000,
};

/** The request line plus headers, at most (Node's default, written here so the docs can quote it). */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * How deeply a JSON body may nest (objects and arrays). No request body of the
 * API comes near it (a call route with its IVR is under 10 levels); it is bounded so that nothing
 * that walks a body (zod, the idempotency hash, a log serializer) can overflow the stack on one.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The longest JSON body a body-less POST or DELETE reads: enough to accept the empty object `{}`
 * ("no body") or name the unknown fields of a small one (contract §2); a longer one is refused unread.
 */
export const BODYLESS_READ_MAX_BYTES = 1024;

/**
 * The longest declared body refused unread (over its route's limit) that is still read to its end and
 * dropped, so the client sees the answer on a kept connection; a larger one is closed at once
 * (src/server/http/refused-body.ts says why).
 */
export const REFUSED_BODY_READ_MAX_BYTES = 32 * 1024 * 1024;

/** A token bucket: its refill rate and its size (src/server/http/rate-limit.ts applies it). */
export interface RateLimitOptions {
  /** Tokens per second (contract §2: local default 100). */
  ratePerSec: number;
  /** Bucket size (contract §2: burst 200). */
  burst: number;
}

/**
 * Requests that present no key, a malformed, unknown or revoked one are limited
 * per client address, so a script guessing keys (2,000 a second) gets `429` rather than an answer
 * each. Tighter than a key's bucket: a person fixing a typo never needs 50 tries in a burst. A good
 * key on the same address is counted in its own bucket, never in this one.
 */
export const UNAUTHENTICATED_RATE: RateLimitOptions = { ratePerSec: 5, burst: 50 };
