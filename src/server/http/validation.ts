import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import type { ErrorDetail } from '../../api/schemas/errors.js';
import { NUL_OR_LONE_SURROGATE, badTextMessage } from '../../api/values/text.js';

/** Where a value came from, as a client names it in an error path. */
const LOCATION: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

export class RequestValidationError extends Error {
  constructor(readonly details: ErrorDetail[]) {
    super(details.map((d) => `${d.path.join('.')}: ${d.message}`).join('; '));
  }
}

// The service's words for a field that failed validation, naming the form it
// expects; zod's defaults ("Invalid input: expected string, received number") name zod's internals.
// Each message reads after the field's path: `body.to: must be a string`.
export const FIELD_WORDS = {
  required: 'is required',
  unknownField: 'is not a field of this request',
  invalid: 'is not valid',
  noUnionMatch: 'does not match any of the accepted forms',
  ambiguousUnion: 'matches more than one of the accepted forms; make it match exactly one',
  invalidKey: 'has a key that is not allowed',
  invalidElement: 'has an element that is not valid',
} as const;

/** How each JSON type is named in "must be …". */
const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  map: 'an object',
  array: 'an array',
  tuple: 'an array',
  null: 'null',
  date: 'a date-time',
  nan: 'a number',
};

/** The forms zod's string formats stand for, each with an example. */
const FORMAT_WORDS: Record<string, string> = {
  email: 'an email address like name@example.com',
  url: 'a URL like https://example.com/path',
  datetime: 'an ISO 8601 date-time like 2026-01-31T09:30:00Z',
  date: 'a date like 2026-01-31',
  time: 'a time like 09:30:00',
  duration: 'an ISO 8601 duration like PT5M',
  e164: 'an E.164 number like +14155550100',
  uuid: 'a UUID',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  base64: 'base64-encoded text',
  base64url: 'base64url-encoded text',
};

// A plain word reads as itself (`must be one of: live, test`); anything else is quoted so an empty
// string or a value with a comma stays visible.
const quote = (v: unknown): string => (typeof v === 'string' && !/^[\w.+#*-]+$/.test(v) ? JSON.stringify(v) : String(v));
const oneOf = (values: readonly unknown[]): string => (values.length === 1 ? `must be ${quote(values[0])}` : `must be one of: ${values.map(quote).join(', ')}`);
const typeWords = (expected: string): string => TYPE_WORDS[expected] ?? `of type ${expected}`;

/** "characters", "items"…: the unit a length limit counts. */
function sizeUnit(origin: string | undefined, n: number | bigint): string | null {
  const one = Number(n) === 1;
  if (origin === 'string') return one ? 'character' : 'characters';
  if (origin === 'array' || origin === 'set') return one ? 'item' : 'items';
  if (origin === 'map') return one ? 'entry' : 'entries';
  if (origin === 'file') return one ? 'byte' : 'bytes';
  return null;
}

type RawIssue = z.core.$ZodRawIssue;

/**
 * The one mapping from zod v4 issue codes to the service's words. Handed to every parse as its error
 * map, so it only fills in a message a schema did not set itself: "must be an E.164 phone number like
 * +14155550123" on a schema stays as written.
 */
export function fieldMessage(issue: RawIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      // A missing field: zod 4 reports the absent value as the input of an invalid_type.
      if (issue.input === undefined) return FIELD_WORDS.required;
      const expected = String(issue.expected);
      return issue.input === null && expected !== 'null' ? `must be ${typeWords(expected)}, not null` : `must be ${typeWords(expected)}`;
    }
    case 'invalid_value':
      return oneOf(issue.values);
    case 'too_big': {
      const unit = sizeUnit(issue.origin, issue.maximum);
      const n = issue.maximum.toString();
      if (issue.exact) return unit ? `must be exactly ${n} ${unit}` : `must be exactly ${n}`;
      if (unit) return issue.inclusive === false ? `must be fewer than ${n} ${unit}` : `must be at most ${n} ${unit}`;
      if (issue.origin === 'date') return `must be ${issue.inclusive === false ? 'before' : 'at or before'} ${n}`;
      return issue.inclusive === false ? `must be less than ${n}` : `must be at most ${n}`;
    }
    case 'too_small': {
      const unit = sizeUnit(issue.origin, issue.minimum);
      const n = issue.minimum.toString();
      if (issue.exact) return unit ? `must be exactly ${n} ${unit}` : `must be exactly ${n}`;
      if (unit && issue.origin === 'string' && Number(issue.minimum) === 1 && issue.inclusive !== false) return 'must not be empty';
      if (unit) return issue.inclusive === false ? `must be more than ${n} ${unit}` : `must be at least ${n} ${unit}`;
      if (issue.origin === 'date') return `must be ${issue.inclusive === false ? 'after' : 'at or after'} ${n}`;
      return issue.inclusive === false ? `must be greater than ${n}` : `must be at least ${n}`;
    }
    case 'invalid_format': {
      const f = issue as RawIssue & { format: string; prefix?: string; suffix?: string; includes?: string };
      if (f.format === 'starts_with') return `must start with ${quote(f.prefix)}`;
      if (f.format === 'ends_with') return `must end with ${quote(f.suffix)}`;
      if (f.format === 'includes') return `must include ${quote(f.includes)}`;
      // A bare pattern's source means nothing to a client; schemas with patterns say their form.
      if (f.format === 'regex') return 'is not in the expected form';
      return `must be ${FORMAT_WORDS[f.format] ?? `a valid ${f.format}`}`;
    }
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor.toString()}`;
    case 'unrecognized_keys':
      return FIELD_WORDS.unknownField;
    case 'invalid_union': {
      if (issue.inclusive === false) return FIELD_WORDS.ambiguousUnion;
      if (issue.options?.length) return oneOf(issue.options);
      return unionWords(issue.errors) ?? FIELD_WORDS.noUnionMatch;
    }
    case 'invalid_key':
      return FIELD_WORDS.invalidKey;
    case 'invalid_element':
      return FIELD_WORDS.invalidElement;
    default:
      return FIELD_WORDS.invalid;
  }
}

/**
 * A union of plain types or values (`string | null`, `'' | url`) said as one: "must be a string or
 * null". Undefined when a branch failed on something deeper (then no one form can be named).
 */
function unionWords(branches: z.core.$ZodIssue[][]): string | undefined {
  if (branches.some((b) => b.length === 0) || branches.some((b) => b.some((i) => i.path.length > 0))) return undefined;
  if (branches.every((b) => b.length === 1 && b[0]!.code === 'invalid_type')) {
    const forms = [...new Set(branches.map((b) => typeWords(String((b[0] as z.core.$ZodIssueInvalidType).expected))))];
    return `must be ${forms.join(' or ')}`;
  }
  return undefined;
}

/**
 * Turns zod issues into the spec's `details` (`[{path, message}]`, spec: Errors), one entry per
 * offending field; an unknown field is named by its own path (contract §2).
 */
export function issuesToDetails(location: string, issues: z.core.$ZodIssue[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    const base = [location, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) details.push({ path: [...base, key], message: FIELD_WORDS.unknownField });
    } else {
      details.push({ path: base, message: issue.message });
    }
  }
  return details;
}

/**
 * Every string of a request part (values and keys, at any depth) that holds NUL or an
 * unpaired surrogate (`api/values/text.ts`), each named by its path. JSON bodies are nested at most
 * MAX_JSON_DEPTH deep (json-body.ts refuses deeper ones before parsing), so the walk is bounded.
 */
export function badTextDetails(location: string, data: unknown): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const walk = (value: unknown, path: Array<string | number>): void => {
    if (typeof value === 'string') {
      if (NUL_OR_LONE_SURROGATE.test(value)) details.push({ path, message: badTextMessage(value) });
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, [...path, i]));
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        if (NUL_OR_LONE_SURROGATE.test(k)) details.push({ path: [...path, k], message: `field name ${badTextMessage(k)}` });
        else walk(v, [...path, k]);
      }
    }
  };
  walk(data, [location]);
  return details;
}

/**
 * Our own validator compiler (rather than the type provider's) so error paths keep their real
 * segments (array indexes stay numbers) and carry the request location, and messages are ours.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const location = LOCATION[httpPart ?? 'body'] ?? 'body';
  // A request with no body reaches the body's validator as null: a route whose body may be left out
  // (`.optional()`: every field optional) takes that as no body.
  const noBodyOk = location === 'body' && schema.safeParse(undefined).success;
  return (data: unknown) => {
    if (data === null && noBodyOk) return { value: undefined };
    // Checked before the schema, for every route and part: no string with NUL or a lone
    // surrogate is stored, echoed or compared, whatever field it is in.
    const badText = badTextDetails(location, data);
    if (badText.length) return { error: new RequestValidationError(badText) };
    const result = schema.safeParse(data, { error: fieldMessage });
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(issuesToDetails(location, result.error.issues)) };
  };
};
