import type { FastifyInstance } from 'fastify';
import { validationError } from '../errors.js';
import { takesNoBody } from './bodyless.js';

/**
 * issue 14 (defect 2): how deeply a JSON body may nest (objects and arrays). No request body of the
 * API comes near it (a call route with its IVR is under 10 levels); it is bounded so that nothing
 * that walks a body (zod, the idempotency hash, a log serializer) can overflow the stack on one.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The deepest nesting of `[`/`{` in a JSON text, read without parsing it, stopping as soon as it
 * passes `limit` (so the scan of a hostile 3 MB body is one linear pass with no recursion).
 * Brackets inside strings do not count; escapes inside strings are skipped.
 */
export function jsonNestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/**
 * Replaces the root JSON parser with Fastify's own (same errors, same prototype-poisoning guard)
 * behind a depth check that runs on the raw text first: a body nested deeper than MAX_JSON_DEPTH is
 * a `validation_error` on `["body"]` before anything parses or walks it (issue 14). Contexts that
 * register their own parsers (audio uploads, hosted forms) take no JSON.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // An empty body sent as JSON to a route that takes none is no body (bodyless.ts, issue 14);
    // elsewhere it stays Fastify's "malformed JSON".
    if ((body as string).length === 0 && takesNoBody(req)) {
      done(null, undefined);
      return;
    }
    if (jsonNestingExceeds(body as string, MAX_JSON_DEPTH)) {
      done(validationError(['body'], `nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      return;
    }
    // Callback style: `done` answers; the returned value (a promise in some typings) carries nothing.
    void parseJson(req, body as string, done);
  });
}
