import type { ZodType } from 'zod';
import { UsageError } from './errors.js';
import { ApiError } from '../api/client/errors.js';

type FlagMap = Readonly<Record<string, string>>;

/** The flag of the longest path prefix that has one (`mediaUrls.3` → `--media`). */
function flagFor(path: readonly string[], flags: FlagMap): string | undefined {
  for (let n = path.length; n > 0; n--) {
    const flag = flags[path.slice(0, n).join('.')];
    if (flag !== undefined) return flag;
  }
  return undefined;
}

/**
 * Checks a request body built from flags with the API's own schema before anything is sent, so the
 * CLI never restates a rule the service enforces. The first problem becomes a usage error (exit 2)
 * naming the flag that supplies the field: `flags` maps a body path (`emergency.address.zip`) to its
 * flag. API field names in the schema's message are replaced by their flags as well.
 */
export function checkFlags(schema: ZodType, body: unknown, flags: FlagMap): void {
  const result = schema.safeParse(body);
  if (result.success) return;
  const issue = result.error.issues[0]!;
  const path = issue.path.map(String);
  const flag = flagFor(path, flags);
  let given: unknown = body;
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

/**
 * Sends a request whose body came from flags. Rules only the service can judge (a local search's
 * area code, with the codes of the locality given) come back as a `validation_error` on a body
 * field: said as a usage error naming the flag (exit 2, as a local check would be).
 */
export async function namingFlags<T>(flags: FlagMap, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'validation_error' || !Array.isArray(err.details)) throw err;
    const first = err.details[0] as { path?: unknown[]; message?: string } | undefined;
    if (!first || !Array.isArray(first.path) || first.path[0] !== 'body') throw err;
    const flag = flagFor(first.path.slice(1).map(String), flags);
    if (flag === undefined) throw err;
    throw new UsageError(`${flag}: ${first.message ?? err.message}`, flag);
  }
}
