import type { ApiClient } from '../client/client.js';
import type { ApiKey, CreateKeyBody, CreatedApiKey } from '../schemas/keys.js';
import { listEndpoint } from './list.js';
import { callBare, endpoint, type EndpointRef } from './endpoint.js';
import { responseParser } from '../parsers.js';

// conventions 7: one function per endpoint; commands never build URLs.
const createdApiKeyParser = responseParser('CreatedApiKeySchema');

export const keyEndpoints = {
  create: { method: 'POST', path: '/v1/keys' },
  revoke: { method: 'DELETE', path: '/v1/keys/{id}' },
} as const satisfies Record<string, EndpointRef>;

/** GET /v1/keys/{id}: one key's public fields (never the key itself). */
export const apiKeyGet = endpoint({ method: 'GET', path: '/v1/keys/{id}', schema: 'ApiKeySchema' });

export async function createApiKey(client: ApiClient, body: CreateKeyBody): Promise<CreatedApiKey> {
  return (await client.request({ method: 'POST', path: keyEndpoints.create.path, body, schema: createdApiKeyParser })).data;
}

/** GET /v1/keys: the account's keys (prefixes only), newest first. */
export const apiKeyList = listEndpoint<ApiKey>({ path: '/v1/keys', row: 'ApiKeySchema' });

export async function revokeApiKey(client: ApiClient, id: string): Promise<void> {
  await callBare(client, keyEndpoints.revoke, { id });
}
