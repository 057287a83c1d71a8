import type { ApiClient } from '../client/client.js';
import type { WebhookEndpoint } from '../schemas/webhooks.js';
import { responseParser } from '../parsers.js';
import { pathOf, type EndpointRef } from './endpoint.js';

// contract §9: the outside world for webhooks (local service only).
const webhookEndpointParser = responseParser('WebhookEndpointSchema');

export const sandboxWebhookEndpoints = {
  disable: { method: 'POST', path: '/v1/sandbox/webhooks/{id}/disable' },
} as const satisfies Record<string, EndpointRef>;

/**
 * POST /v1/sandbox/webhooks/{id}/disable: the endpoint is disabled as the automatic rule would
 * (spec: Webhook endpoint states), emitting `webhook_endpoint.disabled`.
 */
export async function disableWebhookAsIfFailing(client: ApiClient, id: string): Promise<WebhookEndpoint> {
  return (await client.request({ method: 'POST', path: pathOf(sandboxWebhookEndpoints.disable, { id }), schema: webhookEndpointParser })).data;
}
