import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams } from '../../api/schemas/common.js';
import { EmailEventsSchema } from '../../api/schemas/email.js';
import type { ServiceDeps } from '../deps.js';
import { emailTimeline } from '../domain/email/email-events.js';
import { emailEventsView } from '../views/email-events.js';

// contract §8: an email's per-recipient timeline.
export function emailEventsRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/emails/:id/events',
    {
      schema: {
        tags: ['emails'],
        summary: "An email's per-recipient timeline, oldest first",
        description: [
          'One entry per `email.*` event about one recipient, with the event\'s `status`; `bounce` on `email.bounced`',
          'and `email.failed`, `url` on `email.clicked`, `method` on `email.unsubscribed`. A bcc recipient that cannot',
          'be told apart from another bcc recipient on the same domain omits `recipient` (as in the events).',
          "Another account's email → 404.",
        ].join('\n'),
        params: IdParams,
        response: { 200: EmailEventsSchema },
      },
    },
    async (req) => emailEventsView(await deps.uow.read((tx) => emailTimeline(tx, req.auth, req.params.id))),
  );
}
