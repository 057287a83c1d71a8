// spec: Delivery — the retry schedule. contract §10: a retry becomes due its backoff after the
// previous attempt and is sent by the next scheduler tick (every 5 minutes of service clock).

/** Delays after attempt 1..8; attempt 9 is the last (spec: "9 attempts over about 23 hours"). */
export const BACKOFF_MS = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000] as const;
export const MAX_ATTEMPTS = BACKOFF_MS.length + 1;
export const TICK_MS = 5 * 60_000;
/** A receiver's Retry-After is honoured up to a day, so a delivery stays inside its log's 7 days. */
export const MAX_RETRY_AFTER_MS = 24 * 3600_000;

/** The first 5-minute tick boundary (of service time since the epoch) at or after `ms`. */
export const tickAtOrAfter = (ms: number): number => Math.ceil(ms / TICK_MS) * TICK_MS;

/** spec: Delivery — retried: timeouts, connection errors, 408, 409, 425, 429 and 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 425 || status === 429 || (status >= 500 && status <= 599);
}

/**
 * `Retry-After` in milliseconds from now: delta-seconds or an HTTP date (read against the real
 * clock, which is what the receiver's date means). Undefined when absent or unreadable.
 */
export function parseRetryAfterMs(value: string | string[] | undefined, wallNowMs: number): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  const trimmed = v.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - wallNowMs);
}

export interface RetryDecision {
  /** Service time the retry is sent (a tick boundary), or null: no further attempt. */
  nextAttemptAt: number | null;
}

/**
 * What follows a failed attempt `attempt` (1-based) made at service time `attemptAt`:
 * - not retryable, or the last allowed attempt → null (abandoned);
 * - else due at attemptAt + backoff, or + Retry-After (429/503 only, at most a day) when later, sent at the first
 *   tick at or after that.
 */
export function nextAttemptAfterFailure(opts: {
  attempt: number;
  maxAttempts: number;
  attemptAt: number;
  retryable: boolean;
  status: number | null;
  retryAfterMs?: number;
}): number | null {
  if (!opts.retryable || opts.attempt >= opts.maxAttempts) return null;
  let delay: number = BACKOFF_MS[Math.min(opts.attempt, BACKOFF_MS.length) - 1]!;
  if ((opts.status === 429 || opts.status === 503) && opts.retryAfterMs !== undefined) delay = Math.max(delay, Math.min(opts.retryAfterMs, MAX_RETRY_AFTER_MS));
  return tickAtOrAfter(opts.attemptAt + delay);
}
