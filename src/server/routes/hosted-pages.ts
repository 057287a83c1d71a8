import { z } from 'zod';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceDeps } from '../deps.js';
import { HOSTED_PAGE_PATHS } from '../../api/values/registration.js';
import { HOSTED_CONFIRMATION_PATH, LEAD_FORM_LIMITS, LEAD_FORM_RATE } from '../../api/values/hosted-pages.js';
import { captureLead, hostedPage } from '../domain/registration/leads.js';
import { ServiceError, validationError } from '../errors.js';
import { limitShare, TokenBuckets } from '../http/rate-limit.js';
import type { RenderedPage } from '../views/hosted-pages/html.js';
import { confirmationPageView, errorPageView, legalPageView, optInPageView } from '../views/hosted-pages/pages.js';

// contract §7: the hosted compliance pages, public HTML without auth (a brand's `complianceUrls`
// point here). Documented in OpenAPI as HTML pages, not JSON resources.

const BrandParams = z.object({ brandId: z.string() });
type BrandReq = FastifyRequest<{ Params: { brandId: string } }>;
const FORM_TYPE = 'application/x-www-form-urlencoded';

const send = (reply: FastifyReply, page: RenderedPage, status = 200): FastifyReply => reply.code(status).headers(page.headers).send(page.html);

/** A urlencoded body as fields; a repeated field keeps every value (the domain takes the first). */
const parseForm = (body: string): Record<string, string[]> => {
  // No prototype: a field named `__proto__` or `constructor` is a field like any other, not
  // Object.prototype's (the OpenAPI fuzz found a `__proto__` field answered 500).
  const fields: Record<string, string[]> = Object.create(null);
  for (const [k, v] of new URLSearchParams(body)) (fields[k] ??= []).push(v);
  return fields;
};

export function hostedPagesRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  // A context of its own: the only place a form body is read, and errors answer as HTML pages
  // (a visitor's browser shows them), never the API's JSON envelope.
  app.register(async (pages) => {
    pages.removeAllContentTypeParsers();
    pages.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: LEAD_FORM_LIMITS.bodyBytes }, (_req, body, done) => done(null, parseForm(body as string)));
    pages.addContentTypeParser('*', (_req, _payload, done) => done(validationError(['headers', 'content-type'], `send the form as ${FORM_TYPE}`)));

    pages.setErrorHandler((err: FastifyError | Error, req, reply) => {
      if (err instanceof ServiceError) {
        if (err.headers) reply.headers(err.headers);
        if (err.code === 'not_found') return send(reply, errorPageView('Page not found', 'There is no sign-up page at this address. Check the link you followed.'), 404);
        if (err.code === 'rate_limited') return send(reply, errorPageView('Too many submissions', 'Please wait a moment and try again.'), err.status);
        return send(reply, errorPageView('This form could not be read', 'Please go back and submit the sign-up form again.'), err.status);
      }
      const fe = err as FastifyError;
      // contract §2: an oversized body is a 400, not a 413.
      if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
        return send(reply, errorPageView('This form could not be read', 'Please go back and submit the sign-up form again.'), 400);
      }
      req.log.error({ err }, 'unhandled error');
      return send(reply, errorPageView('Something went wrong', `Please try again later (request ${req.id}).`), 500);
    });

    // Public: no key to count by, so the form is limited per client address (wall clock, in memory).
    // Replicas each take their share, so a client alternating between them is held to the
    // limit in all (http/rate-limit.ts, limitShare).
    const buckets = new TokenBuckets(LEAD_FORM_RATE, Date.now, limitShare(deps.store));
    const page = (summary: string, description: string, extra: Record<string, unknown> = {}) => ({
      config: { public: true },
      schema: { tags: ['hosted pages'], summary, description, security: [], params: BrandParams, produces: ['text/html'], ...extra } as never,
    });
    const NOT_FOUND = 'An unknown brand id answers a 404 HTML page. Served for a brand in every status (reviewers must reach a page under review).';

    pages.get(HOSTED_PAGE_PATHS.optIn(':brandId'), page('A brand\'s hosted SMS opt-in page (HTML)', `The form (first and last name, optional email, mobile number) and an unchecked SMS-consent box with the carriers\' disclosures. ${NOT_FOUND}`), async (req: BrandReq, reply) => send(reply, optInPageView(await deps.uow.write((tx) => hostedPage(tx, req.params.brandId)))));
    pages.get(HOSTED_PAGE_PATHS.privacy(':brandId'), page('A brand\'s hosted privacy policy (HTML)', `compliancePages.privacy, or a default naming the brand. ${NOT_FOUND}`), async (req: BrandReq, reply) => send(reply, legalPageView(await deps.uow.write((tx) => hostedPage(tx, req.params.brandId)), 'privacy')));
    pages.get(HOSTED_PAGE_PATHS.messagingTerms(':brandId'), page('A brand\'s hosted messaging terms (HTML)', `compliancePages.messagingTerms, or a default naming the brand. ${NOT_FOUND}`), async (req: BrandReq, reply) => send(reply, legalPageView(await deps.uow.write((tx) => hostedPage(tx, req.params.brandId)), 'messagingTerms')));
    pages.get(HOSTED_CONFIRMATION_PATH(':brandId'), page('The opt-in confirmation page (HTML)', `Where a valid submission is redirected (Post/Redirect/Get); shows none of the visitor\'s details. ${NOT_FOUND}`), async (req: BrandReq, reply) => send(reply, confirmationPageView(await deps.uow.write((tx) => hostedPage(tx, req.params.brandId)))));

    pages.post(HOSTED_PAGE_PATHS.optIn(':brandId'), {
        ...page(
          'Submit the hosted opt-in form',
          [
            `An \`${FORM_TYPE}\` body of at most ${LEAD_FORM_LIMITS.bodyBytes / 1024} KB: \`firstName\`, \`lastName\`, \`email\` (optional), \`phone\` (E.164, or a US number of 10 digits),`,
            '`consent=yes` when the SMS-consent box is ticked. Valid: the lead is stored, `lead.captured` is emitted to the brand\'s account once, and the answer is',
            '303 to the confirmation page. Invalid: 400 with the form again, the values kept and each error beside its field. An unticked box is still a lead',
            `(\`consent: false\`). Limited to ${LEAD_FORM_RATE.burst} submissions per client address, refilled at ${LEAD_FORM_RATE.ratePerSec} a second (429 page; replicas each take their share). ${NOT_FOUND}`,
          ].join('\n'),
          { consumes: [FORM_TYPE] },
        ),
        bodyLimit: LEAD_FORM_LIMITS.bodyBytes,
      }, async (req: BrandReq, reply) => {
      const r = buckets.take(`ip:${req.ip}`);
      if (!r.allowed) throw new ServiceError('rate_limited', 'too many submissions', undefined, { 'Retry-After': String(r.retryAfterSecs) });
      const result = await deps.uow.write((tx) => captureLead(tx, req.params.brandId, (req.body ?? {}) as Record<string, string[]>));
      if (result.kind === 'invalid') return send(reply, optInPageView(result.page, result), 400);
      // Post/Redirect/Get: a refresh of the confirmation does not submit again.
      return reply.code(303).header('Location', HOSTED_CONFIRMATION_PATH(result.page.brand.id)).header('Cache-Control', 'no-store').send();
    });
  });
}

