import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError, validationError } from '../errors.js';
import { BODYLESS_READ_MAX_BYTES } from '../../api/values/http.js';

const NO_BODY = 'this endpoint takes no request body';

/** A route that declares a body (a schema, or the raw types it `consumes`) reads one. */
function takesBody(req: FastifyRequest): boolean {
  const schema = req.routeOptions.schema as { body?: unknown; consumes?: unknown } | undefined;
  return Boolean(schema?.body ?? schema?.consumes);
}

/** A POST or DELETE whose route reads no body (the rule below applies to it). */
export function takesNoBody(req: FastifyRequest): boolean {
  return (req.method === 'POST' || req.method === 'DELETE') && !req.is404 && !takesBody(req);
}

/**
 * A read (GET, HEAD) never takes a body. Fastify does not parse one, so it would be silently
 * ignored: a client that put its filters in the body would get an unfiltered answer. Refused instead,
 * whatever its type (RFC 9110 §9.3.1 allows it), saying where they go.
 */
const isRead = (req: FastifyRequest): boolean => req.method === 'GET' || req.method === 'HEAD';

/**
 * contract §2: unknown fields are rejected, so a body sent to a read, or to a
 * POST or DELETE that takes none, is a `validation_error` before anything runs (it changes nothing, and its
 * Idempotency-Key stays free). Decision (API_DESCRIPTION): no body, an empty body without a content
 * type, or the empty JSON object `{}` all mean "no body", since HTTP clients commonly send `{}`.
 */
export function installBodylessRule(app: FastifyInstance): void {
  // Before parsing: anything but a short JSON text is refused without reading it, so a body-less
  // route never spends a parse on a large or non-JSON body.
  app.addHook('preParsing', async (req, _reply, payload) => {
    const read = isRead(req) && !req.is404;
    if (!read && !takesNoBody(req)) return payload;
    const length = req.headers['content-length'];
    const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (!hasBody) return payload;
    if (read) throw validationError(['body'], `${NO_BODY}; a read takes its filters in the query string`);
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json' || (length !== undefined && Number(length) > BODYLESS_READ_MAX_BYTES)) throw validationError(['body'], NO_BODY);
    return payload;
  });
  // After parsing (chunked bodies have no length to judge by): only `{}` passes, and becomes no body
  // so its Idempotency-Key hashes as a request without one.
  app.addHook('preValidation', async (req) => {
    if (!takesNoBody(req) || req.body === undefined) return;
    const body = req.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const keys = Object.keys(body);
      if (keys.length === 0) {
        req.body = undefined;
        return;
      }
      throw new ServiceError(
        'validation_error',
        `${NO_BODY}; unknown field${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`,
        keys.map((k) => ({ path: ['body', k], message: 'unknown field' })),
      );
    }
    throw validationError(['body'], NO_BODY);
  });
}
