import { describe, expect, it } from 'vitest';
import { BACKOFF_MS, MAX_ATTEMPTS, isRetryableStatus, nextAttemptAfterFailure, parseRetryAfterMs, tickAtOrAfter, TICK_MS } from './retry-schedule.js';

describe('retry schedule', () => {
  it('is 9 attempts with the spec backoffs, each sent at the first 5-minute tick at or after it is due', () => {
    expect(MAX_ATTEMPTS).toBe(9);
    expect(BACKOFF_MS.map((ms) => ms / 1000)).toEqual([30, 120, 600, 1800, 3600, 10800, 21600, 43200]);
    expect(tickAtOrAfter(TICK_MS * 10)).toBe(TICK_MS * 10);
    expect(tickAtOrAfter(TICK_MS * 10 + 1)).toBe(TICK_MS * 11);
    const t0 = TICK_MS * 100 + 10_000;
    expect(nextAttemptAfterFailure({ attempt: 1, maxAttempts: 9, attemptAt: t0, retryable: true, status: 500 })).toBe(TICK_MS * 101);
    expect(nextAttemptAfterFailure({ attempt: 1, maxAttempts: 9, attemptAt: TICK_MS * 100 - 40_000, retryable: true, status: 500 })).toBe(TICK_MS * 100);
    expect(nextAttemptAfterFailure({ attempt: 9, maxAttempts: 9, attemptAt: t0, retryable: true, status: 500 })).toBeNull();
    expect(nextAttemptAfterFailure({ attempt: 1, maxAttempts: 1, attemptAt: t0, retryable: true, status: 500 })).toBeNull();
    expect(nextAttemptAfterFailure({ attempt: 1, maxAttempts: 9, attemptAt: t0, retryable: false, status: 404 })).toBeNull();
    // Retry-After counts only on 429 and 503, and only when later than the backoff.
    expect(nextAttemptAfterFailure({ attempt: 1, maxAttempts: 9, attemptAt: t0, retryable: true, status: 429, retryAfterMs: 600_000 })).toBe(TICK_MS * 103);
    expect(nextAttemptAfterFailure({ attempt: 1, maxAttempts: 9, attemptAt: t0, retryable: true, status: 500, retryAfterMs: 600_000 })).toBe(TICK_MS * 101);
    expect(nextAttemptAfterFailure({ attempt: 8, maxAttempts: 9, attemptAt: t0, retryable: true, status: 503, retryAfterMs: 1000 })).toBe(tickAtOrAfter(t0 + 43_200_000));
    // …honoured up to a day.
    expect(nextAttemptAfterFailure({ attempt: 1, maxAttempts: 9, attemptAt: t0, retryable: true, status: 503, retryAfterMs: 365 * 86_400_000 })).toBe(tickAtOrAfter(t0 + 86_400_000));
  });

  it('retries exactly timeouts, connection errors, 408, 409, 425, 429 and 5xx', () => {
    const retried = [408, 409, 425, 429, 500, 502, 503, 504, 599];
    const notRetried = [400, 401, 403, 404, 410, 413, 422, 426, 451, 301, 302, 307, 600];
    for (const s of retried) expect(isRetryableStatus(s), String(s)).toBe(true);
    for (const s of notRetried) expect(isRetryableStatus(s), String(s)).toBe(false);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs('600', now)).toBe(600_000);
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:02:00 GMT', now)).toBe(120_000);
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
  });
});
