import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ServiceDeps } from '../../deps.js';
import type { MailboxFeed } from '../../domain/email/mailbox.js';
import type { ConsoleFrame, SectionId } from '../../views/console/layout.js';
import { FORM_BODY_LIMIT, FORM_TYPE } from './gate.js';

// What the console's page families share: the route options, the common parameters, and
// the page function that frames a page for the session.

export const PAGE_LIMIT = 25;
export const CursorQuery = z.object({ cursor: z.string().min(1).max(500).optional() });
export const IdParam = z.object({ id: z.string().min(1).max(200) });

const hidden = { hide: true } as never;
/** No session needed (the login link, the assets, the 404 page). */
export const open = { config: { public: true, consoleOpen: true }, schema: hidden };
/** A page: the session is read and checked first (gate.ts). `public`: not the API's bearer auth. */
export const gated = { config: { public: true }, schema: hidden };
/** A form that opens a session (the login's confirmation): no session yet, but the same origin (gate.ts) all the same. */
export const openForm = { config: { public: true, consoleOpen: true }, schema: { hide: true, consumes: [FORM_TYPE] } as never, bodyLimit: FORM_BODY_LIMIT };
/** A form: a page's session, its origin and its token. The body type is declared: the service's rule for POSTs without one refuses any body (http/bodyless.ts). */
export const form = { config: { public: true }, schema: { hide: true, consumes: [FORM_TYPE] } as never, bodyLimit: FORM_BODY_LIMIT };

export interface ConsoleKit {
  c: FastifyInstance;
  deps: ServiceDeps;
  page: (req: FastifyRequest, reply: FastifyReply, f: Omit<ConsoleFrame, 'who' | 'csrf'> & { section: SectionId }, status?: number) => FastifyReply;
  mailbox: MailboxFeed;
}
