import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isIsoTimestamp, isPastTimeField, relativeTime, relativeTimeOf } from './time.js';

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

describe('relativeTimeOf', () => {
  it('a past field later than now (the clock went back) reads just now, never in the future', () => {
    expect(relativeTimeOf('createdAt', ago(-49 * 60_000), now)).toBe('just now');
    expect(relativeTimeOf('data.updatedAt', ago(-2 * 86_400_000), now)).toBe('just now');
    expect(relativeTimeOf('recipients.0.lastSeenAt', ago(-60_000), now)).toBe('just now');
    expect(relativeTimeOf('at', ago(-60_000), now)).toBe('just now');
  });

  it('a past field before now, and a time still to come, read as relativeTime does', () => {
    expect(relativeTimeOf('createdAt', ago(3 * 60_000), now)).toBe('3m ago');
    expect(relativeTimeOf('expiresAt', ago(-3 * 60_000), now)).toBe('in 3m');
    expect(relativeTimeOf('currentPeriodEnd', ago(-30 * 86_400_000), now)).toBe('in 30d');
    expect(relativeTimeOf('nextAttemptAt', ago(-60_000), now)).toBe('in 1m');
  });
});

// Every time field of the API is either past (clamped) or one that may lie ahead, listed here: a new
// time field fails this test until it is named as the rule in time.ts expects.
const MAY_LIE_AHEAD = new Set(['expiresAt', 'nextAttemptAt', 'focDate', 'currentPeriodEnd', 'visibleAt', 'from', 'to', 'now']);

type Def = { type?: string; format?: string; shape?: Record<string, { _zod: { def: Def } }>; innerType?: unknown; element?: unknown; options?: unknown[]; in?: unknown; out?: unknown };
function timeFields(schema: unknown, into: Set<string>, seen = new Set<unknown>()): void {
  const def = (schema as { _zod?: { def?: Def } })?._zod?.def;
  if (!def || seen.has(schema)) return;
  seen.add(schema);
  if (def.shape) {
    for (const [name, field] of Object.entries(def.shape)) {
      if (isTimestampSchema(field)) into.add(name);
      timeFields(field, into, seen);
    }
  }
  for (const inner of [def.innerType, def.element, def.in, def.out, ...(def.options ?? [])]) timeFields(inner, into, seen);
}
function isTimestampSchema(schema: unknown): boolean {
  let def = (schema as { _zod?: { def?: Def } })?._zod?.def;
  while (def && def.innerType) def = (def.innerType as { _zod?: { def?: Def } })._zod?.def;
  return def?.type === 'string' && def.format === 'datetime';
}

describe('isPastTimeField', () => {
  it('holds every time field of the API schemas: past ones by name, the rest listed as may lie ahead', async () => {
    const fields = new Set<string>();
    const dir = new URL('../api/schemas/', import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      for (const value of Object.values(await import(new URL(file, dir).href))) timeFields(value, fields);
    }
    expect(fields).toContain('createdAt');
    expect(fields).toContain('lastAt');
    const unnamed = [...fields].filter((f) => !isPastTimeField(f) && !MAY_LIE_AHEAD.has(f));
    expect(unnamed, 'a time field neither named as past nor listed as one that may lie ahead').toEqual([]);
    for (const ahead of MAY_LIE_AHEAD) expect(isPastTimeField(ahead), ahead).toBe(false);
  });
});
