import type { ApiClient } from '../client/client.js';
import type { BlockedNumber, CreateBlockedNumberBody, UpdateBlockedNumberBody } from '../schemas/blocked-numbers.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';
import { pathOf, type EndpointRef } from './endpoint.js';

// conventions 7: one function or list descriptor per endpoint. spec: Blocked number; contract §6.
const blockedNumberParser = responseParser('BlockedNumberSchema');

export const blockedNumberEndpoints = {
  add: { method: 'POST', path: '/v1/blocked-numbers' },
  get: { method: 'GET', path: '/v1/blocked-numbers/{id}' },
  update: { method: 'PATCH', path: '/v1/blocked-numbers/{id}' },
  delete: { method: 'DELETE', path: '/v1/blocked-numbers/{id}' },
} as const satisfies Record<string, EndpointRef>;

const entryPath = (id: string): string => pathOf(blockedNumberEndpoints.get, { id });

/** GET /v1/blocked-numbers; `autoSuggested: true` only suggestions, `false` only confirmed entries. */
export const blockedNumberList = listEndpoint<BlockedNumber, BlockedNumberListFilter>({ path: '/v1/blocked-numbers', row: 'BlockedNumberSchema' });
export type BlockedNumberListFilter = { autoSuggested?: boolean };

/** POST /v1/blocked-numbers `{phoneNumber, reason?}`: `409 conflict` when the number is already listed. */
export async function addBlockedNumber(client: ApiClient, body: CreateBlockedNumberBody): Promise<BlockedNumber> {
  return (await client.request({ method: 'POST', path: blockedNumberEndpoints.add.path, body, schema: blockedNumberParser })).data;
}

export async function getBlockedNumber(client: ApiClient, id: string): Promise<BlockedNumber> {
  return (await client.request({ method: 'GET', path: entryPath(id), schema: blockedNumberParser })).data;
}

/** PATCH: `reason`, and `autoSuggested: false` confirms a suggestion. */
export async function updateBlockedNumber(client: ApiClient, id: string, body: UpdateBlockedNumberBody): Promise<BlockedNumber> {
  return (await client.request({ method: 'PATCH', path: entryPath(id), body, schema: blockedNumberParser })).data;
}

export async function removeBlockedNumber(client: ApiClient, id: string): Promise<void> {
  await client.request({ method: 'DELETE', path: entryPath(id) });
}
