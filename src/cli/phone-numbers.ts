// Phone numbers given on the command line. The pattern is the zod-free value the API's schemas
// build on, so checking a number loads no zod (bench/startup: `svc messages send`).
import { E164_PATTERN } from '../api/values/phone.js';
import { UsageError } from './errors.js';

/** spec: Global conventions 3 — E.164, `+` then up to 15 digits. The error names the flag. */
export function requireE164(value: string, flag: string): string {
  const v = value.trim();
  if (!E164_PATTERN.test(v)) throw new UsageError(`${flag}: "${value}" is not an E.164 phone number like +14155550123`, flag);
  return v;
}

/**
 * A number as the commands take it: its id (`num_…`) or its E.164 form (contract §5: the CLI
 * accepts either; the service resolves E.164). Anything starting with `+` must be valid E.164.
 */
export function numberRef(value: string, flag = '<number>'): string {
  const v = value.trim();
  if (v.startsWith('+')) return requireE164(v, flag);
  if (v === '' || /\s/.test(v)) throw new UsageError(`${flag}: give a number id (num_…) or an E.164 number`, flag);
  return v;
}
