import { UsageError } from './errors.js';
import { durationSecs } from '../api/values/duration.js';

/** cli.md: durations like 30s, 10m, 6h, 7d (and combinations: 1h30m); a bare number is seconds. */
export function parseDuration(text: string, flag: string): number {
  const secs = durationSecs(text);
  if (secs === undefined) throw new UsageError(`"${text}" is not a duration; use e.g. 30s, 10m, 6h, 7d or 1h30m`, flag);
  return secs;
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
