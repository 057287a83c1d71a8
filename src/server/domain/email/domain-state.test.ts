import { describe, expect, it } from 'vitest';
import { nextCheckAt, releaseAt, statusAfterCheck } from './domain-state.js';
import { DOMAIN_TIMINGS } from '../../../api/values/email.js';

// spec: Sending domain status, as a table.
describe('statusAfterCheck', () => {
  it.each([
    ['pending', 'valid', 'verified'],
    ['pending', 'propagating', 'pending'],
    ['pending', 'failing', 'failed'],
    ['failed', 'valid', 'verified'],
    ['failed', 'failing', 'failed'],
    ['failed', 'propagating', 'failed'],
    ['verified', 'failing', 'degraded'],
    ['verified', 'valid', 'verified'],
    ['verified', 'propagating', 'verified'],
    ['degraded', 'valid', 'verified'],
    ['degraded', 'failing', 'degraded'],
  ] as const)('%s + %s → %s', (from, outcome, to) => {
    expect(statusAfterCheck(from, outcome)).toBe(to);
  });
});

describe('nextCheckAt', () => {
  const t0 = Date.UTC(2026, 0, 1);
  const min = 60_000;
  const hour = 60 * min;

  it('re-checks a never-verified domain every 10 minutes for an hour, then hourly until 72 h, then stops', () => {
    const d = { createdAt: t0, everVerified: false };
    const times: number[] = [];
    let at: number | null = t0;
    while ((at = nextCheckAt(d, at)) !== null) times.push(at - t0);
    expect(times.slice(0, 7)).toEqual([10 * min, 20 * min, 30 * min, 40 * min, 50 * min, 60 * min, 2 * hour]);
    expect(times.at(-1)).toBe(DOMAIN_TIMINGS.recheckForSecs * 1000);
    expect(times).toHaveLength(6 + 71);
  });

  it('checks a domain that was ever verified daily, with no end', () => {
    const far = t0 + 365 * 24 * hour;
    expect(nextCheckAt({ createdAt: t0, everVerified: true }, far)).toBe(far + 24 * hour);
  });

  it('releases 7 days after creation', () => {
    expect(releaseAt(t0) - t0).toBe(7 * 24 * hour);
  });
});
