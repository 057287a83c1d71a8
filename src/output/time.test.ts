import { describe, expect, it } from 'vitest';
import { isIsoTimestamp, relativeTime } from './time.js';

const now = new Date('2024-06-01T12:00:00.000Z');
const ago = (ms: number): string => new Date(now.getTime() - ms).toISOString();

describe('relativeTime', () => {
  it.each([
    [2_000, 'just now'],
    [45_000, '45s ago'],
    [3 * 60_000, '3m ago'],
    [2 * 3_600_000 + 29 * 60_000, '2h ago'],
    [2 * 3_600_000 + 59 * 60_000, '3h ago'],
    [59 * 60_000 + 40_000, '1h ago'],
    [5 * 86_400_000, '5d ago'],
    [65 * 86_400_000, '2mo ago'],
    [800 * 86_400_000, '2y ago'],
    [-3 * 60_000, 'in 3m'],
    [-2 * 86_400_000, 'in 2d'],
    // A 30-day period read a moment after it started: rounded, not floored.
    [-(30 * 86_400_000 - 1_500), 'in 30d'],
    [-(30 * 86_400_000 - 600_000), 'in 30d'],
    [-30 * 86_400_000, 'in 30d'],
    [-45 * 86_400_000, 'in 2mo'],
    [364 * 86_400_000, '1y ago'],
  ])('%i ms before now reads %s', (ms, expected) => {
    expect(relativeTime(ago(ms), now)).toBe(expected);
  });

  it('accepts a Date and leaves garbage untouched', () => {
    expect(relativeTime(new Date(now.getTime() - 60_000), now)).toBe('1m ago');
    expect(relativeTime('not a date', now)).toBe('not a date');
  });
});

describe('isIsoTimestamp', () => {
  it('recognises full ISO date-times only', () => {
    expect(isIsoTimestamp('2024-06-01T12:00:00.000Z')).toBe(true);
    expect(isIsoTimestamp('2024-06-01T12:00:00+02:00')).toBe(true);
    expect(isIsoTimestamp('2024-06-01')).toBe(false);
    expect(isIsoTimestamp('+15551234567')).toBe(false);
    expect(isIsoTimestamp(1717243200000)).toBe(false);
  });
});
