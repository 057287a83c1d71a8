import type { ApiClient } from '../client/client.js';
import type { WebhookEndpoint } from '../schemas/webhooks.js';
import { responseParser } from '../parsers.js';

// contract §9: the outside world for webhooks (local service only).
const webhookEndpointParser = responseParser('WebhookEndpointSchema');

/**
 * POST /v1/sandbox/webhooks/{id}/disable: the endpoint is disabled as the automatic rule would
 * (spec: Webhook endpoint states), emitting `webhook_endpoint.disabled`.
 */
export async function disableWebhookAsIfFailing(client: ApiClient, id: string): Promise<WebhookEndpoint> {
  return (await client.request({ method: 'POST', path: `/v1/sandbox/webhooks/${encodeURIComponent(id)}/disable`, schema: webhookEndpointParser })).data;
}
