import type { ApiClient } from '../client/client.js';
import type { ApiKey, CreateKeyBody, CreatedApiKey } from '../schemas/keys.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';

// conventions 7: one function per endpoint; commands never build URLs.
const createdApiKeyParser = responseParser('CreatedApiKeySchema');

export async function createApiKey(client: ApiClient, body: CreateKeyBody): Promise<CreatedApiKey> {
  return (await client.request({ method: 'POST', path: '/v1/keys', body, schema: createdApiKeyParser })).data;
}

/** GET /v1/keys: the account's keys (prefixes only), newest first. */
export const apiKeyList = listEndpoint<ApiKey>({ path: '/v1/keys', row: 'ApiKeySchema' });

export async function revokeApiKey(client: ApiClient, id: string): Promise<void> {
  await client.request({ method: 'DELETE', path: `/v1/keys/${encodeURIComponent(id)}` });
}
