import { UsageError } from './errors.js';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** cli.md: durations like 30s, 10m, 6h, 7d (and combinations: 1h30m); a bare number is seconds. */
export function parseDuration(text: string, flag: string): number {
  const t = text.trim();
  if (/^\d+$/.test(t)) return Number(t);
  const parts = [...t.matchAll(/(\d+)([smhdw])/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== t) {
    throw new UsageError(`"${text}" is not a duration; use e.g. 30s, 10m, 6h, 7d or 1h30m`, flag);
  }
  return parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_SECONDS[p[2]!]!, 0);
}

/** A duration flag's value in seconds, at least `min`; a bad one is a usage error naming the flag. */
export function durationFlag(text: string, flag: string, min = 1): number {
  let secs: number;
  try {
    secs = parseDuration(text, flag);
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${flag}: ${err.message}`, flag);
    throw err;
  }
  if (secs < min) throw new UsageError(`${flag} must be at least ${min}s`, flag);
  return secs;
}
