import type { ApiClient } from '../client/client.js';
import type { CreateWebhookBody, Delivery, DeliveryStatus, ReplayWebhook, ReplayWebhookBody, UpdateWebhookBody, WebhookEndpoint, WebhookEndpointWithSecret } from '../schemas/webhooks.js';
import { listEndpoint } from './list.js';
import { pageParser, responseParser } from '../parsers.js';
import { pathOf, type EndpointRef } from './endpoint.js';

// conventions 7: one function per endpoint; commands never build URLs. contract §10.
const webhookEndpointWithSecretParser = responseParser('WebhookEndpointWithSecretSchema');
const webhookEndpointPageParser = pageParser('WebhookEndpointSchema');
const webhookEndpointParser = responseParser('WebhookEndpointSchema');
const deliveryParser = responseParser('DeliverySchema');
const replayParser = responseParser('ReplayWebhookSchema');

/** GET /v1/webhooks: a bounded list, returned whole (it takes no limit). */
export const webhookEndpoints = {
  create: { method: 'POST', path: '/v1/webhooks' },
  get: { method: 'GET', path: '/v1/webhooks/{id}' },
  update: { method: 'PATCH', path: '/v1/webhooks/{id}' },
  delete: { method: 'DELETE', path: '/v1/webhooks/{id}' },
  test: { method: 'POST', path: '/v1/webhooks/{id}/test' },
  rotateSecret: { method: 'POST', path: '/v1/webhooks/{id}/rotate-secret' },
  deliveries: { method: 'GET', path: '/v1/webhooks/{id}/deliveries' },
  delivery: { method: 'GET', path: '/v1/webhooks/{id}/deliveries/{deliveryId}' },
  retry: { method: 'POST', path: '/v1/webhooks/{id}/deliveries/{deliveryId}/retry' },
  replay: { method: 'POST', path: '/v1/webhooks/{id}/replay' },
} as const satisfies Record<string, EndpointRef>;

export const webhookListPath = '/v1/webhooks';


/** POST /v1/webhooks: the response is the only time the signing secret is shown. */
export async function createWebhook(client: ApiClient, body: CreateWebhookBody): Promise<WebhookEndpointWithSecret> {
  return (await client.request({ method: 'POST', path: webhookEndpoints.create.path, body, schema: webhookEndpointWithSecretParser })).data;
}

/** GET /v1/webhooks: a bounded list (every endpoint of the account, newest first). */
export async function listWebhooks(client: ApiClient): Promise<WebhookEndpoint[]> {
  return (await client.request({ method: 'GET', path: webhookListPath, schema: webhookEndpointPageParser })).data.data;
}

export async function getWebhook(client: ApiClient, id: string): Promise<WebhookEndpoint> {
  return (await client.request({ method: 'GET', path: pathOf(webhookEndpoints.get, { id }), schema: webhookEndpointParser })).data;
}

export async function updateWebhook(client: ApiClient, id: string, body: UpdateWebhookBody): Promise<WebhookEndpoint> {
  return (await client.request({ method: 'PATCH', path: pathOf(webhookEndpoints.update, { id }), body, schema: webhookEndpointParser })).data;
}

export async function deleteWebhook(client: ApiClient, id: string): Promise<void> {
  await client.request({ method: 'DELETE', path: pathOf(webhookEndpoints.delete, { id }) });
}

/** POST /v1/webhooks/{id}/test: one signed sample attempt, made now; the delivery after it. */
export async function testWebhook(client: ApiClient, id: string): Promise<Delivery> {
  return (await client.request({ method: 'POST', path: pathOf(webhookEndpoints.test, { id }), schema: deliveryParser })).data;
}

/** POST /v1/webhooks/{id}/rotate-secret: the new secret, shown only in this response. */
export async function rotateWebhookSecret(client: ApiClient, id: string): Promise<WebhookEndpointWithSecret> {
  return (await client.request({ method: 'POST', path: pathOf(webhookEndpoints.rotateSecret, { id }), schema: webhookEndpointWithSecretParser })).data;
}

/** GET /v1/webhooks/{id}/deliveries: the delivery log, last 7 days, newest first. */
export const deliveryList = (id: string) => listEndpoint<Delivery, DeliveryListFilter>({ path: pathOf(webhookEndpoints.deliveries, { id }), row: 'DeliverySchema' });
export type DeliveryListFilter = { status?: DeliveryStatus };

export async function getDelivery(client: ApiClient, id: string, deliveryId: string, opts: { signal?: AbortSignal; maxAttempts?: number } = {}): Promise<Delivery> {
  return (await client.request({ method: 'GET', path: pathOf(webhookEndpoints.delivery, { id, deliveryId }), schema: deliveryParser, ...opts })).data;
}

/** POST …/deliveries/{deliveryId}/retry: one more attempt, now; the delivery after it. */
export async function retryDelivery(client: ApiClient, id: string, deliveryId: string): Promise<Delivery> {
  return (await client.request({ method: 'POST', path: pathOf(webhookEndpoints.retry, { id, deliveryId }), schema: deliveryParser })).data;
}

/** POST /v1/webhooks/{id}/replay: a new delivery of each matching past event; how many. */
export async function replayWebhook(client: ApiClient, id: string, body: ReplayWebhookBody): Promise<ReplayWebhook> {
  return (await client.request({ method: 'POST', path: pathOf(webhookEndpoints.replay, { id }), body, schema: replayParser })).data;
}
