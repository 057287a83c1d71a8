import type { ApiClient } from '../client/client.js';
import { CreatedApiKeySchema, type CreateKeyBody, type CreatedApiKey } from '../schemas/keys.js';

// conventions 7: one function per endpoint; commands never build URLs.
export async function createApiKey(client: ApiClient, body: CreateKeyBody): Promise<CreatedApiKey> {
  return (await client.request({ method: 'POST', path: '/v1/keys', body, schema: CreatedApiKeySchema })).data;
}

export async function revokeApiKey(client: ApiClient, id: string): Promise<void> {
  await client.request({ method: 'DELETE', path: `/v1/keys/${encodeURIComponent(id)}` });
}
