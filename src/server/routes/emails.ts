import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams } from '../../api/schemas/common.js';
import { EmailSchema, ListEmailsQuery, SendEmailBody } from '../../api/schemas/email.js';
import { COMPLAINT_PAUSE, EMAIL_LIMITS } from '../../api/values/email.js';
import { PRICES } from '../../api/values/prices.js';
import type { ServiceDeps } from '../deps.js';
import { getEmail, listEmails, sendEmail } from '../domain/email/send.js';
import { emailView } from '../views/emails.js';
import { listResponse, sendList } from '../http/lists.js';
import { COMMITS_ONCE, commitOnce } from '../http/idempotency.js';

// spec: Email domains, email, suppressions; Send email body; Limits. contract §8. Decisions are in the
// descriptions, so they land in /openapi.json.

/**
 * The route's own body limit. Each of html and text may hold EMAIL_LIMITS.bodyBytes of UTF-8; JSON may
 * escape a character into up to twice its bytes (`"` → `\"`, common in HTML attributes), so two bodies
 * at their limit plus the other fields fit in this. Over it the request gets the validation_error
 * envelope on `["body"]` (http/error-handler.ts), never Fastify's own 413.
 */
export const SEND_EMAIL_BODY_LIMIT = 2 * 2 * EMAIL_LIMITS.bodyBytes + 1024 * 1024;

const pct = (r: number) => `${r * 100} %`;

const SEND_DESCRIPTION = [
  'Accepts an email and answers 201 with it, status `queued` (or `failed` when every recipient is suppressed).',
  '',
  'Body rules (every failure of a body is reported at once, each detail naming its field, 400 `validation_error`):',
  '- `from`: `address@domain` or `Display Name <address@domain>` (a display name with specials in double quotes;',
  '  one address, no line breaks).',
  `- \`to\`, \`cc\`, \`bcc\`: a string (one address) or an array; display names allowed; at least one recipient and at most ${EMAIL_LIMITS.recipients}`,
  '  across the three; each address once across the three (compared case-insensitively). Recipients are recorded by their bare address.',
  `- \`html\`, \`text\`: at least one (an empty string is none); each at most ${EMAIL_LIMITS.bodyBytes} bytes of UTF-8.`,
  `- \`tags\`: at most ${EMAIL_LIMITS.tags}; \`metadata\`: at most ${EMAIL_LIMITS.metadataPairs} string pairs; \`externalRef\` is returned as given.`,
  '',
  "The address's domain must be one of the account's sending domains with status `verified`; otherwise 409 `conflict`",
  '(not added, pending, failed or degraded; the message says which and what to do). Sending is paused with 403 `forbidden`',
  `while the complaint rate of the last 30 days is above ${pct(COMPLAINT_PAUSE.rate)} of the recipients delivered in that window, once at least`,
  `${COMPLAINT_PAUSE.minDelivered} were delivered (only live-key email counts: test-key email is never really sent).`,
  '',
  "Recipients on the account's suppression list are recorded `suppressed`, are not sent to and are not billed. A live key is",
  `charged ${PRICES.emailPerRecipientBlock} cent per started block of ${PRICES.emailRecipientBlock} non-suppressed recipients at the accept; a test key is never charged`,
  'and its email is not delivered into the mail sandbox, but the simulated mail server still reports each recipient\'s outcome.',
  'Open and click tracking are on for every account on the local service.',
  '',
  'Accepts `Idempotency-Key`: the same key and body replay the original 201 with `Idempotent-Replayed: true`; the same key',
  'with another body → 409.',
].join('\n');

export function emailsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['emails'];

  r.post(
    '/v1/emails',
    {
      bodyLimit: SEND_EMAIL_BODY_LIMIT,
      config: COMMITS_ONCE,
      schema: { tags, summary: 'Send an email', description: SEND_DESCRIPTION, body: SendEmailBody, response: { 201: EmailSchema } },
    },
    async (req, reply) => {
      const sent = await commitOnce(deps, req, 201, async (tx) => emailView(await sendEmail(tx, req.auth, req.body)));
      return reply.status(201).send(sent);
    },
  );

  r.get(
    '/v1/emails',
    {
      schema: {
        tags,
        summary: 'List emails, newest first (extension)',
        description:
          'An extension: the spec has no list of emails. Newest first, keyset-paged with `limit` and `cursor`; `status` narrows to one email status; `?format=array` answers a bare array.',
        querystring: ListEmailsQuery,
        response: { 200: listResponse(EmailSchema) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, status } = req.query;
      const page = await deps.uow.read((tx) => listEmails(tx, req.auth, limit, cursor, status));
      return sendList(req, reply, { ...page, data: page.data.map(emailView) });
    },
  );

  r.get(
    '/v1/emails/:id',
    {
      schema: {
        tags,
        summary: 'Get an email',
        description: "The email with each recipient's delivery status and engagement times. Another account's email is `not_found`.",
        params: IdParams,
        response: { 200: EmailSchema },
      },
    },
    async (req) => emailView(await deps.uow.read((tx) => getEmail(tx, req.auth, req.params.id))),
  );
}
