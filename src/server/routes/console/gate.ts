import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { CONSOLE_PATH, CONSOLE_SESSION_TTL_SECS } from '../../../api/values/console.js';
import type { ServiceDeps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { consoleSession, csrfMatches, type ConsoleStanding } from '../../domain/console/sessions.js';
import { ServiceError } from '../../errors.js';
import { requestOrigin } from '../../http/origin.js';
import { badTextDetails, fieldMessage, issuesToDetails } from '../../http/validation.js';
import { CONSOLE_HEADERS, consoleErrorPage } from '../../views/console/layout.js';

// What stands before every console page: the session cookie read and checked (the key, its
// account, the sub-account: as an API request is), and for a state-changing request the same origin
// and the session's form token. Errors are HTML pages, never the API's JSON envelope.

export interface ConsoleRequestContext {
  standing: ConsoleStanding;
  /** The domain's caller: the session's account and key mode, re-checked by a request that waits. */
  actor: Actor;
}

declare module 'fastify' {
  interface FastifyRequest {
    console: ConsoleRequestContext;
  }
  interface FastifyContextConfig {
    /** A console route that needs no session (the login link, the assets). */
    consoleOpen?: boolean;
  }
}

export const FORM_TYPE = 'application/x-www-form-urlencoded';
/** A console form is small (a message body is at most 1,600 characters). */
export const FORM_BODY_LIMIT = 16 * 1024;

/**
 * The cookie's name carries the port: cookies are shared by every port of a host, and two local
 * services (or profiles) on 127.0.0.1 must not overwrite each other's session. The port the browser
 * addressed (the Host header's), else the socket's: replicas behind one address each
 * listen on a port of their own, and must all read the cookie one of them set.
 */
export const cookieName = (req: FastifyRequest): string => `svc_console_${req.port ?? req.socket.localPort ?? 0}`;

export function sessionCookie(req: FastifyRequest, secret: string): string {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  return `${cookieName(req)}=${secret}; Path=${CONSOLE_PATH}; HttpOnly; SameSite=Strict; Max-Age=${CONSOLE_SESSION_TTL_SECS}${secure}`;
}

export const clearedCookie = (req: FastifyRequest): string => `${cookieName(req)}=; Path=${CONSOLE_PATH}; HttpOnly; SameSite=Strict; Max-Age=0`;

function readCookie(req: FastifyRequest): string | undefined {
  const name = cookieName(req);
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** A form body as fields (no prototype: `__proto__` is a field like any other); the first value of each. */
export const parseForm = (body: string): Record<string, string> => {
  const fields: Record<string, string> = Object.create(null);
  for (const [k, v] of new URLSearchParams(body)) if (!(k in fields)) fields[k] = v;
  return fields;
};

/** Parses a request part with an API schema, in the API's words; a failure is the API's validation error. */
export function parseWith<S extends z.ZodType>(schema: S, location: string, data: unknown): z.infer<S> {
  const bad = badTextDetails(location, data);
  if (bad.length) throw new ServiceError('validation_error', 'the request is not valid', bad);
  const r = schema.safeParse(data, { error: fieldMessage });
  if (r.success) return r.data;
  const details = issuesToDetails(location, r.error.issues);
  throw new ServiceError('validation_error', details.map((d) => `${d.path.join('.')}: ${d.message}`).join('; '), details);
}

export const sendPage = (reply: FastifyReply, page: string, status = 200): FastifyReply => reply.code(status).headers(CONSOLE_HEADERS).send(page);

const REOPEN = 'svc console';

function renderError(err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (err instanceof ServiceError) {
    switch (err.code) {
      case 'unauthorized':
        reply.header('Set-Cookie', clearedCookie(req));
        return sendPage(reply, consoleErrorPage('Console session ended', err.message, REOPEN), 401);
      case 'not_found':
        return sendPage(reply, consoleErrorPage('Not found', err.message), 404);
      case 'forbidden':
        return sendPage(reply, consoleErrorPage('Not allowed', err.message), 403);
      default:
        // A 429 says when to come back (Retry-After), as the API's does.
        if (err.headers) reply.headers(err.headers);
        return sendPage(reply, consoleErrorPage('That did not work', err.message), err.status);
    }
  }
  const fe = err as FastifyError;
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return sendPage(reply, consoleErrorPage('That request could not be read', 'Go back and try again.'), 400);
  req.log.error({ err }, 'unhandled console error');
  return sendPage(reply, consoleErrorPage('Something went wrong', `Try again later (request ${req.id}).`), 500);
}

/** Installs the gate on the console's context: body parser, error pages, session, origin and token. */
export function installConsoleGate(c: FastifyInstance, deps: ServiceDeps): void {
  c.removeAllContentTypeParsers();
  c.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => done(null, parseForm(body as string)));
  c.addContentTypeParser('*', (_req, _payload, done) => done(new ServiceError('validation_error', `send the form as ${FORM_TYPE}`)));
  c.setErrorHandler(renderError);
  c.decorateRequest('console', null as unknown as ConsoleRequestContext);

  c.addHook('onRequest', async (req, reply) => {
    if (req.routeOptions.config?.consoleOpen) return;
    // A state-changing request from another origin is refused before its session is even read: a
    // browser says where a POST comes from in Origin and Sec-Fetch-Site.
    if (req.method !== 'GET' && req.method !== 'HEAD') assertSameOrigin(req);
    const secret = readCookie(req);
    const standing = await deps.uow.read((tx) => consoleSession(tx, secret));
    // contract §2: the console's requests are its key's, counted in the key's bucket as its API calls are.
    c.takeKeyRequest(standing.key.id, reply);
    const recheck = async () => void (await deps.uow.read((tx) => consoleSession(tx, secret)));
    req.console = { standing, actor: { account: standing.account, mode: standing.key.mode, recheck } };
  });

  c.addHook('preHandler', async (req) => {
    if (req.routeOptions.config?.consoleOpen || req.method === 'GET' || req.method === 'HEAD') return;
    // The session AND the per-session token: a page of another site cannot read the token, so it
    // cannot make the browser post a form that carries it.
    const fields = (req.body ?? {}) as Record<string, string>;
    if (!csrfMatches(req.console.standing, fields.csrf)) throw new ServiceError('forbidden', 'this form is stale or did not come from the console; reload the page and try again');
  });
}

/** A state-changing request must come from the console itself: refused when another origin or site sent it. */
export function assertSameOrigin(req: FastifyRequest): void {
  const site = req.headers['sec-fetch-site'];
  const origin = req.headers.origin;
  const refused = new ServiceError('forbidden', 'a console form must be sent from the console itself');
  if (site !== undefined && site !== 'same-origin') throw refused;
  if (origin !== undefined && origin !== requestOrigin(req)) throw refused;
  // Browsers send at least one of the two with every POST; a request with neither is not a console form.
  if (site === undefined && origin === undefined) throw refused;
}
