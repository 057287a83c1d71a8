import type { ApiClient } from '../client/client.js';
import { ApiKeySchema, CreatedApiKeySchema, type ApiKey, type CreateKeyBody, type CreatedApiKey } from '../schemas/keys.js';
import { listEndpoint } from './list.js';

// conventions 7: one function per endpoint; commands never build URLs.
export async function createApiKey(client: ApiClient, body: CreateKeyBody): Promise<CreatedApiKey> {
  return (await client.request({ method: 'POST', path: '/v1/keys', body, schema: CreatedApiKeySchema })).data;
}

/** GET /v1/keys: the account's keys (prefixes only), newest first. */
export const apiKeyList = listEndpoint<ApiKey>({ path: '/v1/keys', itemSchema: ApiKeySchema });

export async function revokeApiKey(client: ApiClient, id: string): Promise<void> {
  await client.request({ method: 'DELETE', path: `/v1/keys/${encodeURIComponent(id)}` });
}
