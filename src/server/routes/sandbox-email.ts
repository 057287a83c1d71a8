import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EmailSchema, MailboxQuery, MailboxSchema, SandboxEmailEventBody } from '../../api/schemas/email.js';
import { FEED_WAIT_MAX_SECS } from '../../api/schemas/events.js';
import { SIMULATOR_DOMAIN } from '../../api/values/email.js';
import type { ServiceDeps } from '../deps.js';
import { MailboxFeed } from '../domain/email/mailbox.js';
import { reportEmailEvent } from '../domain/email/email-events.js';
import { commitOnce } from '../http/idempotency.js';
import { mailboxView } from '../views/mailbox.js';
import { emailView } from '../views/emails.js';
import { whileClientWaits } from '../http/held-request.js';

// contract §8 (the mail sandbox, an extension) and §9 (`POST /v1/sandbox/email-events`).
export function sandboxEmailRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const feed = new MailboxFeed(deps);
  // Held long-polls answer (with no messages) before the server waits for open requests to finish.
  app.addHook('preClose', async () => feed.close());

  r.get(
    '/v1/sandbox/mailbox',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'The mail sandbox: every message the simulated mail server delivered, oldest first',
        description: [
          'One message per delivered recipient of a live email (bcc included; a test-key email sends nothing, so it',
          'has none): `text` as sent, or derived from the html (tags stripped, entities decoded) when only html was',
          'sent; `html` as sent or null. The acting account only. `to` filters by recipient, case-insensitively.',
          '`cursor` is the position after the last message: pass it as `after` to read on; with no messages, the',
          'position given (`after=now`: the newest, to follow new messages only). Cursors are opaque; a malformed one',
          'is `validation_error` on `["query","after"]`.',
          `\`wait\` (0-${FEED_WAIT_MAX_SECS} s): a request that finds no message is held until one arrives (answered at once)`,
          'or the time runs out (answered with no messages and the same `cursor`).',
        ].join('\n'),
        querystring: MailboxQuery,
        response: { 200: MailboxSchema },
      },
    },
    async (req, reply) => mailboxView(await whileClientWaits(req, reply, req.query.wait, (signal) => feed.read(req.auth, req.query, signal))),
  );

  r.post(
    '/v1/sandbox/email-events',
    {
      schema: {
        tags: ['sandbox'],
        summary: "A mail server's report, an open, a click, a complaint or an unsubscribe, now",
        description: [
          'About one recipient (`recipient`: its address, case-insensitive), with the same effects and events as the',
          `simulated mail server's own (the addresses on \`${SIMULATOR_DOMAIN}\`):`,
          '`bounce`: a hard bounce (`email.bounced`, class `hard`, 550; the address is suppressed `hard_bounce`); the',
          'recipient must be on its way (`sent` or `deferred`): queued, delivered or final → 409.',
          '`complaint` (`email.complained`; suppressed `complaint`), `open` (`email.opened`), `click` (`email.clicked`,',
          '`url`: the first http(s) link of the html), `unsubscribe` (`email.unsubscribed`, method `one_click`;',
          'suppressed `unsubscribe`) need a `delivered` recipient, else 409 saying why; a complaint or an unsubscribe',
          'happens once per recipient. Opens and clicks may repeat (the timestamps keep the first).',
          'Unknown email → 404; an address that is not a recipient → `validation_error` on `recipient`. Returns the email.',
        ].join('\n'),
        body: SandboxEmailEventBody,
        response: { 200: EmailSchema },
      },
    },
    // Each report emits an event: an Idempotency-Key retry must not report twice, even after a crash.
    async (req) => commitOnce(deps, req, 200, async (tx) => emailView(await reportEmailEvent(tx, req.auth, req.body))),
  );
}
