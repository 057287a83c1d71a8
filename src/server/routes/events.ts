import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EventFeedQuery, EventFeedSchema, FEED_WAIT_MAX_SECS } from '../../api/schemas/events.js';
import type { ServiceDeps } from '../deps.js';
import { EventsFeed } from '../domain/events/feed.js';
import { eventFeedView } from '../views/events.js';
import { whileClientWaits } from '../http/held-request.js';
import { writeViewsAsIs } from '../http/lists.js';
import { IdParams } from '../../api/schemas/common.js';
import { ResendEventBody, ResendEventSchema } from '../../api/schemas/webhooks.js';
import { resendEvent } from '../domain/webhooks/redelivery.js';
import { deliveryView } from '../views/webhooks.js';
import { commitOnce } from '../http/idempotency.js';

// spec: Events feed; contract §10.
export function eventsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const feed = new EventsFeed(deps);
  // Held long-polls answer (with no events) before the server waits for open requests to finish.
  app.addHook('preClose', async () => feed.close());

  r.get(
    '/v1/events',
    {
      schema: {
        tags: ['events'],
        summary: 'The durable events feed: the same events, with the same bodies, as the webhooks',
        description: [
          'An item is the webhook body (event fields at the top level plus `id`, `type`, `createdAt`) plus `eventId`',
          '(= `id`). Events of the acting account only (the sub-account when `Service-Subaccount` is sent).',
          '`order=asc` (default) reads oldest first, forward from `after`; `order=desc` reads newest first, back from',
          '`before`. Both bounds may be given (a range). `cursor` is the position after the last item in reading',
          'order: pass it as `after` (asc) or `before` (desc). With no items, `cursor` is the position given',
          '(asc without `after`: the start; desc without bounds: the head). `after=now` answers no events and the',
          'head as `cursor`: a starting point for following new events only.',
          '`types`: comma-separated catalog types or `<family>.*` patterns (`*` for all).',
          `Extension \`wait\` (0-${FEED_WAIT_MAX_SECS} s): when a request without \`before\` finds no events, it is held until one`,
          'arrives (answered at once) or the time runs out (answered with no events and the same `cursor`).',
          'Never in the feed: `call.transcript.delta` (non-durable) and the `webhook_endpoint.test` samples.',
          'Cursors are opaque; a malformed one is `validation_error` on `["query","after"]` or `["query","before"]`.',
          'Events are kept for as long as the local service keeps its data.',
        ].join('\n'),
        querystring: EventFeedQuery,
        response: { 200: EventFeedSchema },
      },
    },
    async (req, reply) => eventFeedView(await whileClientWaits(req, writeViewsAsIs(reply), req.query.wait, (signal) => feed.read(req.auth, req.query, signal))),
  );

  r.post(
    '/v1/events/:id/resend',
    {
      schema: {
        tags: ['events'],
        summary: 'Deliver a past event again: a new delivery per endpoint, freshly signed, same event id and body',
        description: [
          'Extension (contract §10). `{endpointId?}` (the body may be left out): to that endpoint, whatever its filter; without',
          'it, to every enabled endpoint subscribed to the event\'s type (a `webhook_endpoint.disabled` event: not the endpoint it',
          'is about). Answers `202 {deliveries}`: each a new delivery (`pending`, attempt 0, `createdAt` now) with its own id in the',
          "endpoint's delivery log, sent at once by the delivery worker like an event's first attempt: the event's stored body, with",
          '`Service-Event-Id` the event\'s id (receivers dedupe on it) and `X-Service-Signature` made at each attempt with the',
          "endpoint's current secret. Retried on the usual schedule if it fails. Not the same as retrying a delivery",
          '(`POST /v1/webhooks/{id}/deliveries/{deliveryId}/retry`), which adds an attempt to one that exists.',
          'An event not in the feed (another account\'s, unknown) → 404; a named endpoint disabled → 409.',
          'A test key resends only test events (what it reports was done in test mode: a test send, a test key\'s call, email,',
          'domain, port or endpoint; inbound messages, money and leads are live): a live event → 403 `forbidden`. It signs only',
          "with endpoints a test key created: naming a live key's endpoint → 403; without a name, live keys' endpoints are skipped.",
        ].join('\n'),
        params: IdParams,
        body: ResendEventBody.optional(),
        response: { 202: ResendEventSchema },
      },
    },
    async (req, reply) => {
      const answer = await commitOnce(deps, req, 202, async (tx) => {
        const { deliveries, due } = await resendEvent(tx, req.auth, req.params.id, req.body?.endpointId);
        // The worker sends them once they are committed (as the outbox's): nothing is attempted that could roll back.
        tx.afterCommit(() => deps.webhooks.onCommitted(due));
        return { deliveries: deliveries.map(deliveryView) };
      });
      return reply.status(202).send(answer);
    },
  );
}
