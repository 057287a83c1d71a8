// The nearest valid value named in a refusal: a value the answer begins, else edit distance, the
// earliest on a tie, and only the start of a long answer compared.
import { describe, expect, it } from 'vitest';
import { closest, CLOSEST_INPUT_CHARS, editDistance } from './closest.js';
import { VERTICALS, verticalKey, verticalOf } from '../api/values/registration.js';

describe('editDistance', () => {
  it('counts inserts, deletes and substitutions', () => {
    expect(editDistance('', '')).toBe(0);
    expect(editDistance('RETAIL', 'RETAIL')).toBe(0);
    expect(editDistance('REAL_ESTAT', 'REAL_ESTATE')).toBe(1);
    expect(editDistance('LEAGL', 'LEGAL')).toBe(2);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'NGO')).toBe(3);
  });
});

describe('closest', () => {
  it('names the nearest registry vertical to a typo', () => {
    expect(closest(verticalKey('real estat'), VERTICALS)).toBe('REAL_ESTATE');
    expect(closest(verticalKey('helthcare'), VERTICALS)).toBe('HEALTHCARE');
    // An abbreviation: edit distance alone would name LEGAL.
    expect(editDistance('TECH', 'LEGAL')).toBeLessThan(editDistance('TECH', 'TECHNOLOGY'));
    expect(closest(verticalKey('tech'), VERTICALS)).toBe('TECHNOLOGY');
    expect(closest(verticalKey('human'), VERTICALS)).toBe('HUMAN_RESOURCES');
    expect(closest('FINANCE', VERTICALS)).toBe('FINANCIAL');
  });

  it('takes the earliest candidate on a tie, and none from no candidates', () => {
    expect(closest('AB', ['AX', 'XB'])).toBe('AX');
    expect(closest('anything', [])).toBeUndefined();
  });

  it('compares only the start of a long answer, so a pasted page is as quick as a word', () => {
    const page = `RETAIL${'x'.repeat(1_000_000)}`;
    const started = process.hrtime.bigint();
    expect(closest(page, VERTICALS)).toBe(closest(page.slice(0, CLOSEST_INPUT_CHARS), VERTICALS));
    // A bound that catches an unbounded comparison (a million characters against 23 words is
    // billions of steps), generous enough for a loaded machine.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2_000);
  });
});

describe('verticalOf', () => {
  it('reads the registry spelling in any case, with spaces or hyphens for underscores', () => {
    expect(verticalOf('real estate')).toBe('REAL_ESTATE');
    expect(verticalOf('  Human-Resources ')).toBe('HUMAN_RESOURCES');
    expect(verticalOf('retail')).toBe('RETAIL');
    expect(verticalOf('123 Main St')).toBeUndefined();
    expect(verticalOf('')).toBeUndefined();
  });
});
