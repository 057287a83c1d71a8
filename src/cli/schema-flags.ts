import type { ZodType } from 'zod';
import { UsageError } from './errors.js';

/**
 * Checks a request body built from flags with the API's own schema before anything is sent, so the
 * CLI never restates a rule the service enforces. The first problem becomes a usage error (exit 2)
 * naming the flag that supplies the field: `flags` maps a body path (`emergency.address.zip`) to its
 * flag. API field names in the schema's message are replaced by their flags as well.
 */
export function checkFlags(schema: ZodType, body: unknown, flags: Readonly<Record<string, string>>): void {
  const result = schema.safeParse(body);
  if (result.success) return;
  const issue = result.error.issues[0]!;
  const path = issue.path.map(String);
  // The flag of the longest path prefix that has one (`mediaUrls.3` → `--media`).
  let flag: string | undefined;
  let given: unknown = body;
  for (let n = path.length; n > 0 && flag === undefined; n--) flag = flags[path.slice(0, n).join('.')];
  for (const key of path) given = given && typeof given === 'object' ? (given as Record<string, unknown>)[key] : undefined;
  let message = issue.message;
  // A length limit reads better with the length given (zod says only "Too big: expected … <=64").
  const tooLong = issue.code === 'too_big' && (typeof given === 'string' || Array.isArray(given));
  if (tooLong) message = `${(given as string | unknown[]).length} ${typeof given === 'string' ? 'characters' : 'values'}; the limit is ${String(issue.maximum)}`;
  // The schema's own message names API fields ("required unless mediaUrls is given"): say the flags.
  if (!tooLong) for (const [field, f] of Object.entries(flags)) if (!field.includes('.')) message = message.replace(new RegExp(`\\b${field}\\b`, 'g'), f);
  // A short value is worth repeating; a 1600-character body is not.
  const shown = !tooLong && typeof given === 'string' && given.length <= 60 ? `"${given}" ` : '';
  const name = flag ?? (path.length ? path.join('.') : 'input');
  throw new UsageError(`${name}: ${shown}${message}`, flag);
}
