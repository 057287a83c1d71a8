import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EventFeedQuery, EventFeedSchema, FEED_WAIT_MAX_SECS } from '../../api/schemas/events.js';
import type { ServiceDeps } from '../deps.js';
import { EventsFeed } from '../domain/events/feed.js';
import { eventFeedView } from '../views/events.js';
import { whileClientWaits } from '../http/held-request.js';
import { writeViewsAsIs } from '../http/lists.js';

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
}
