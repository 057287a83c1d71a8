import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { InboundMessageBody, MessageSchema } from '../../api/schemas/messages.js';
import { NumberIdParams, PhoneNumberSchema, TollfreeDecisionBody } from '../../api/schemas/numbers.js';
import type { ServiceDeps } from '../deps.js';
import { receiveInbound } from '../domain/messages.js';
import { sandboxTollfreeDecision } from '../domain/numbers.js';
import { messageView } from '../views/messages.js';
import { COMMITS_ONCE, commitOnce } from '../http/idempotency.js';
import { renderNumber } from './numbers.js';

// contract §9: the outside world for messaging and numbers.
export function sandboxMessagingRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/v1/sandbox/inbound-messages',
    {
      config: COMMITS_ONCE,
      schema: {
        tags: ['sandbox'],
        summary: "A consumer's text to one of the account's numbers",
        description:
          '201 with the inbound Message, status `received`, and a `message.received` event `{messageId, from, to, body, receivedAt, providerMessageId}`. `to` must be a number the account owns (else 400 on `["body","to"]`) with the `sms` capability (`mms` with media; else 422 `channel_unsupported`), or the test sender `+15005550006`. `body` is optional only with `mediaUrls`, as for a send. Opt-out keywords (contract §4): a body that is, trimmed and without case, a stop word opts `from` out of `to` (`GET /v1/opt-outs`), a start word lifts it, a help word is answered; each is answered once from `to` with an outbound message (the campaign\'s `optoutMessage`, `optinMessage`, `helpMessage`, or a default naming the account), never billed.',
        body: InboundMessageBody,
        response: { 201: MessageSchema },
      },
    },
    async (req, reply) => {
      const received = await commitOnce(deps, req, 201, async (tx) => messageView(await receiveInbound(tx, req.auth, req.body)));
      return reply.status(201).send(received);
    },
  );

  r.post(
    '/v1/sandbox/numbers/:id/tollfree-decision',
    {
      schema: {
        tags: ['sandbox'],
        summary: "The carrier's toll-free verification verdict, at once",
        description:
          '`{decision: verified|rejected|action_required, reason?}` decides a `pending` verification now (the 72 h review then does nothing). `reason` becomes `tfvRejectionReason` for `rejected` and `action_required` (a default text when omitted); `verified` clears it. A local number, or no verification pending → 409. `{id}` may be the E.164 form.',
        params: NumberIdParams,
        body: TollfreeDecisionBody,
        response: { 200: PhoneNumberSchema },
      },
    },
    async (req) => renderNumber(deps, (await deps.uow.write(async (tx) => await sandboxTollfreeDecision(tx, req.auth, req.params.id, req.body)))),
  );
}
