import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, omittedDetail, validationError } from '../errors.js';
import { ContentionError, DatabaseUnavailableError, MalformedCursorError } from '../storage/storage-errors.js';
import { RequestValidationError } from './validation.js';
import { readRefusedBodyToItsEnd } from './refused-body.js';
import { IdempotentReplay, sendReplay } from './idempotency.js';
import type { ErrorCode } from '../../api/schemas/errors.js';
import { ERROR_STATUS, MAX_ERROR_DETAILS, type OmittedDetails } from '../../api/schemas/errors.js';
import type { RouteCatalog } from './route-catalog.js';

/**
 * Retry-After (seconds) while the database cannot be reached: about when a replica tries it again on
 * its own (each request opens a fresh connection; the heartbeat and the listening connection retry
 * within a few seconds), so a client neither hammers nor waits long past its return.
 */
export const UNAVAILABLE_RETRY_AFTER_S = 2;

interface Envelope {
  error: { code: ErrorCode; message: string; details?: unknown };
}

/**
 * A list of details is cut at MAX_ERROR_DETAILS, its last entry counting the rest (30,000
 * bad addresses answered 2.56 MB). The one place: every envelope the API writes comes through here.
 */
export function capDetails(details: unknown): unknown {
  if (!Array.isArray(details) || details.length <= MAX_ERROR_DETAILS) return details;
  // Cut where it was built (json-body.ts names at most MAX_ERROR_DETAILS unknown fields, then counts).
  if (details.length === MAX_ERROR_DETAILS + 1 && (details[MAX_ERROR_DETAILS] as Partial<OmittedDetails>).omitted !== undefined) return details;
  return [...details.slice(0, MAX_ERROR_DETAILS), omittedDetail(details.length - MAX_ERROR_DETAILS)];
}

export function sendError(reply: FastifyReply, code: ErrorCode, message: string, details?: unknown): FastifyReply {
  const body: Envelope = { error: { code, message } };
  if (details !== undefined) body.error.details = capDetails(details);
  return reply.status(ERROR_STATUS[code]).type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
}

/**
 * Maps every failure to the one error envelope (spec: Errors). No Fastify, zod or SQLite message
 * reaches a client: unknown failures become `internal_error` and are logged with the request id.
 */
export function installErrorHandling(app: FastifyInstance, catalog: RouteCatalog): void {
  app.setErrorHandler((err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) => {
    // contract §2: cursors are opaque; one a list never produced is the client's mistake.
    // contract §2: a key answered already (checked inside a COMMITS_ONCE route's write).
    if (err instanceof IdempotentReplay) return sendReplay(req, reply, err.record);
    if (err instanceof MalformedCursorError) err = validationError(['query', 'cursor'], 'malformed cursor; pass back a nextCursor unchanged');
    // Decision (PostgreSQL): a write that lost every retry to concurrent writes on the same
    // rows (one wallet, one conversation) changed nothing; the client is told to back off and retry.
    if (err instanceof ContentionError) {
      reply.header('Retry-After', '1');
      return sendError(reply, 'rate_limited', 'too many concurrent changes to the same records; retry after 1s (nothing was changed)');
    }
    // The database cannot be reached (stopped, restarting, cut off): the process stays up and says
    // so, and the client retries; the driver's words (hosts, server messages) stay in the log.
    if (err instanceof DatabaseUnavailableError) {
      req.log.warn({ cause: (err.cause as Error | undefined)?.message }, 'the database cannot be reached');
      reply.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
      return sendError(reply, 'service_unavailable', `the service cannot reach its database; retry after ${UNAVAILABLE_RETRY_AFTER_S}s`);
    }
    if (err instanceof ServiceError) {
      if (err.headers) reply.headers(err.headers);
      return sendError(reply, err.code, err.message, err.details);
    }
    const fe = err as FastifyError & { validation?: unknown[]; validationContext?: string };
    if (fe.validation && fe.validation.length) {
      const first = fe.validation[0] as unknown;
      const details =
        first instanceof RequestValidationError
          ? first.details
          : (fe.validation as Array<{ instancePath?: string; message?: string }>).map((v) => ({
              path: [fe.validationContext ?? 'body', ...(v.instancePath ?? '').split('/').filter(Boolean)],
              message: v.message ?? 'invalid',
            }));
      return sendError(reply, 'validation_error', 'the request failed validation', details);
    }
    if (err instanceof RequestValidationError) {
      return sendError(reply, 'validation_error', 'the request failed validation', err.details);
    }
    switch (fe.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE': {
        // contract §2: over the body limit (3 MB; 5 MB for a greeting upload, §5) is a validation_error, not 413.
        readRefusedBodyToItsEnd(req, reply);
        const mb = `${Math.round((req.routeOptions.bodyLimit ?? 0) / (1024 * 1024))} MB`;
        return sendError(reply, 'validation_error', `request body is larger than ${mb}`, [{ path: ['body'], message: `too large (limit ${mb})` }]);
      }
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return sendError(reply, 'validation_error', 'request body is not valid JSON', [{ path: ['body'], message: 'malformed JSON' }]);
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      case 'FST_ERR_CTP_INVALID_TYPE':
        return sendError(reply, 'validation_error', 'unsupported request content type; send application/json', [
          { path: ['headers', 'content-type'], message: 'unsupported content type' },
        ]);
    }
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return sendError(reply, 'validation_error', 'the request could not be read', [{ path: ['body'], message: 'unreadable request' }]);
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(reply, 'internal_error', `internal error; quote request id ${req.id}`);
  });

  // A route with `/:id` also matches its collection path with a trailing slash
  // (`GET /v1/messages/`, id ''). An empty segment names no resource: the answer is the 404 of an
  // unknown path, not a validation error on `params.id`. (Repeated slashes, `/v1//messages`, match
  // no route at all and reach the not-found handler below; an empty segment inside a path,
  // `/v1/numbers//route`, is caught here too.) Runs after auth and before the body is read (a route's
  // own content-type parser) or params are validated.
  app.addHook('preParsing', async (req, _reply, payload) => {
    const params = req.params as Record<string, unknown> | undefined;
    if (params && typeof params === 'object' && Object.values(params).some((v) => v === '')) {
      throw new ServiceError('not_found', noRouteMessage(req.method, urlPath(req.url)));
    }
    return payload;
  });

  app.setNotFoundHandler((req, reply) => {
    const path = urlPath(req.url);
    // The error table has no 405: a known path with another method is still `not_found`, and the
    // Allow header says which methods exist.
    const allowed = catalog.methodsFor(path);
    if (allowed.length) reply.header('Allow', allowed.join(', '));
    return sendError(
      reply,
      'not_found',
      allowed.length ? `${req.method} is not supported on ${path}; use ${allowed.join(' or ')}` : noRouteMessage(req.method, path),
    );
  });
}

const urlPath = (url: string): string => url.split('?')[0] ?? url;
const noRouteMessage = (method: string, path: string): string => `no route ${method} ${path}`;
