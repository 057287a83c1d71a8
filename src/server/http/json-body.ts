import type { FastifyInstance } from 'fastify';
import { ServiceError, omittedDetail, validationError } from '../errors.js';
import { MAX_ERROR_DETAILS } from '../../api/schemas/errors.js';
import { FIELD_WORDS } from './validation.js';
import { takesNoBody } from './bodyless.js';
import { MAX_JSON_DEPTH } from '../../api/values/http.js';

/**
 * How many values a JSON body may hold in all (object members and array elements), and how many of
 * them object members. No request of the API comes near either (its largest lists hold 100 items);
 * they bound the work of a hostile body before anything parses it: 250,000 members in 2.8 MB took
 * 1.8 s to parse, walk and validate (parsing one member and checking its key costs about 7 µs, an
 * array element a fifth of that), holding the event loop for every client.
 */
export const MAX_JSON_VALUES = 100_000;
export const MAX_JSON_MEMBERS = 10_000;

export interface JsonScan {
  /** Nested deeper than the limit given (the scan stopped there). */
  tooDeep: boolean;
  /** Object members and array elements, at any depth. */
  values: number;
  members: number;
  /** Top-level member names not in `known` (the first MAX_ERROR_DETAILS of them), and how many there were. */
  unknown: string[];
  unknownCount: number;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** A member name as JSON spells it, decoded (undefined when its escapes are broken: the parser will say so). */
function memberName(raw: string): string | undefined {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return undefined;
  }
}

/** Where the string starting at `start` (just past its opening quote) ends: its closing quote, or the text's end. */
function stringEnd(text: string, start: number): number {
  for (let q = text.indexOf('"', start); q !== -1; q = text.indexOf('"', q + 1)) {
    // Escaped when an odd number of backslashes stand before it.
    let slashes = 0;
    while (q - slashes - 1 >= start && text.charCodeAt(q - slashes - 1) === 0x5c) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return text.length;
}

/**
 * Whether the member name spelled in `text` from `start` to `end` is one of `known`, without making
 * a string of it (a hostile body has hundreds of thousands). A name with an escape is decoded.
 */
function isKnown(text: string, start: number, end: number, known: ReadonlySet<string>): boolean {
  const length = end - start;
  for (const name of known) if (name.length === length && text.startsWith(name, start)) return true;
  let escaped = false;
  for (let i = start; i < end && !escaped; i++) escaped = text.charCodeAt(i) === 0x5c;
  if (!escaped) return false;
  const name = memberName(text.slice(start, end));
  return name !== undefined && known.has(name);
}

/**
 * One linear pass over a JSON text, without parsing it or recursing: its nesting (stopping as soon as
 * it passes `depthLimit`), how many values and members it holds, and which top-level member names are
 * not in `known`. Brackets inside strings do not count; escapes inside strings are skipped. A text that
 * is not JSON is scanned as far as it goes: the parser then refuses it.
 */
export function scanJson(text: string, depthLimit: number, known?: ReadonlySet<string>): JsonScan {
  const scan: JsonScan = { tooDeep: false, values: 0, members: 0, unknown: [], unknownCount: 0 };
  /** Whether each open container is an object (true) or an array. */
  const inObject: boolean[] = [];
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i + 1;
      i = stringEnd(text, start);
      if (!expectName) continue;
      expectName = false;
      scan.members++;
      if (known && inObject.length === 1 && !isKnown(text, start, i, known)) {
        if (scan.unknown.length < MAX_ERROR_DETAILS) {
          const name = memberName(text.slice(start, i));
          if (name === undefined) continue;
          scan.unknown.push(name);
        }
        scan.unknownCount++;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const object = c === 0x7b;
      inObject.push(object);
      if (inObject.length > depthLimit) {
        scan.tooDeep = true;
        return scan;
      }
      if (object) expectName = true;
      else {
        // An array's first element (if any); each comma in it adds one more.
        let j = i + 1;
        while (j < text.length && WHITESPACE.has(text.charCodeAt(j))) j++;
        if (text.charCodeAt(j) !== 0x5d /* ] */) scan.values++;
      }
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      inObject.pop();
      expectName = false;
    } else if (c === 0x2c /* , */) {
      if (inObject[inObject.length - 1]) expectName = true;
      else if (inObject.length > 0) scan.values++;
    }
  }
  scan.values += scan.members;
  return scan;
}

/** The deepest nesting of `[`/`{` in a JSON text passes `limit` (read without parsing it). */
export const jsonNestingExceeds = (text: string, limit: number): boolean => scanJson(text, limit).tooDeep;

/**
 * The member names a route's body schema accepts at its top level, when it refuses every other
 * (a strict object); undefined otherwise (a union, a record: the schema judges those alone).
 */
const knownNames = new WeakMap<object, ReadonlySet<string> | null>();
function strictMemberNames(schema: unknown): ReadonlySet<string> | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  let names = knownNames.get(schema);
  if (names === undefined) {
    const def = (schema as { _zod?: { def?: { type?: string; shape?: object; catchall?: { _zod?: { def?: { type?: string } } } } } })._zod?.def;
    names = def?.type === 'object' && def.shape && def.catchall?._zod?.def?.type === 'never' ? new Set(Object.keys(def.shape)) : null;
    knownNames.set(schema, names);
  }
  return names ?? undefined;
}

/**
 * What the scan refuses before the text is parsed, or undefined. contract §2: unknown fields are named,
 * and so a body with more than MAX_ERROR_DETAILS of them at its top level (or with some, and over a
 * bound) is answered with them alone: the schema would list the same names, after a parse and a walk
 * of everything. A small body with a few goes on to the schema, which names every problem at once.
 */
function refusal(scan: JsonScan): ServiceError | undefined {
  if (scan.tooDeep) return validationError(['body'], `nested deeper than ${MAX_JSON_DEPTH} levels`);
  const overBound = scan.members > MAX_JSON_MEMBERS || scan.values > MAX_JSON_VALUES;
  if (scan.unknownCount > MAX_ERROR_DETAILS || (scan.unknownCount > 0 && overBound)) {
    const details: unknown[] = scan.unknown.map((name) => ({ path: ['body', name], message: FIELD_WORDS.unknownField }));
    if (scan.unknownCount > scan.unknown.length) details.push(omittedDetail(scan.unknownCount - scan.unknown.length));
    return new ServiceError('validation_error', 'the request failed validation', details);
  }
  if (scan.members > MAX_JSON_MEMBERS) return validationError(['body'], `holds more than ${MAX_JSON_MEMBERS} object members in all`);
  if (scan.values > MAX_JSON_VALUES) return validationError(['body'], `holds more than ${MAX_JSON_VALUES} values in all`);
  return undefined;
}

/**
 * Replaces the root JSON parser with Fastify's own (same errors, same prototype-poisoning guard)
 * behind a scan of the raw text (`scanJson`): a body nested deeper than MAX_JSON_DEPTH, over
 * MAX_JSON_MEMBERS or MAX_JSON_VALUES, or with many unknown top-level fields is a `validation_error`
 * before anything parses or walks it, in one linear pass. Contexts that
 * register their own parsers (audio uploads, hosted forms) take no JSON.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // An empty body sent as JSON to a route that takes none is no body (bodyless.ts);
    // elsewhere it stays Fastify's "malformed JSON".
    if ((body as string).length === 0 && takesNoBody(req)) {
      done(null, undefined);
      return;
    }
    const refused = refusal(scanJson(body as string, MAX_JSON_DEPTH, strictMemberNames(req.routeOptions.schema?.body)));
    if (refused) {
      done(refused, undefined);
      return;
    }
    // Callback style: `done` answers; the returned value (a promise in some typings) carries nothing.
    void parseJson(req, body as string, done);
  });
}
