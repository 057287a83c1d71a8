import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { WebhookEndpointSchema } from '../../api/schemas/webhooks.js';
import { IdParams } from '../../api/schemas/common.js';
import type { ServiceDeps } from '../deps.js';
import { sandboxAutoDisable } from '../domain/webhooks/endpoints.js';
import { webhookEndpointView } from '../views/webhooks.js';

// contract §9: the outside world for webhooks. Auto-disable needs 72 hours of failures; this makes
// it happen now, through the same domain path, so receivers of `webhook_endpoint.disabled` can be tested.
export function sandboxWebhooksRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/v1/sandbox/webhooks/:id/disable',
    {
      schema: {
        tags: ['sandbox'],
        summary: 'Auto-disable a webhook endpoint now, as 72 hours of failures would',
        description: [
          'The endpoint is disabled exactly as the automatic rule does it (spec: Webhook endpoint states):',
          '`disabledReason: "consecutive_failures"`, its scheduled deliveries abandoned, and a',
          '`webhook_endpoint.disabled` event `{endpointId, url, reason: "consecutive_failures", consecutiveFailures,',
          'disabledAt}` written to the feed and delivered to the account\'s OTHER enabled endpoints subscribed to it.',
          '`consecutiveFailures` is the endpoint\'s real failing streak (it may be below 50 here). Re-enable with',
          '`PATCH /v1/webhooks/{id} {"enabled": true}`. An endpoint already disabled → `409 conflict`.',
        ].join('\n'),
        params: IdParams,
        response: { 200: WebhookEndpointSchema },
      },
    },
    async (req) => webhookEndpointView((await deps.uow.write(async (tx) => await sandboxAutoDisable(tx, req.auth, req.params.id)))),
  );
}
