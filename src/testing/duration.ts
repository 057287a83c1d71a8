import { durationSecs } from '../api/values/duration.js';

/** `30s`, `10m`, `2h`, `7d`, `1h30m` (as the CLI reads them), or a number of seconds. */
export function parseDurationSecs(duration: string | number): number {
  if (typeof duration === 'number') {
    if (!Number.isInteger(duration) || duration < 0) throw new Error(`clock.advance: ${duration} is not a whole number of seconds`);
    return duration;
  }
  const secs = durationSecs(duration);
  if (secs === undefined) throw new Error(`clock.advance: "${duration}" is not a duration; use e.g. 30s, 10m, 2h, 7d or 1h30m`);
  return secs;
}
