import type { ApiClient } from '../client/client.js';
import type { ResponseOf } from '../parsers.js';
import type { SuppressionReason } from '../values/email.js';
import { listEndpoint } from './list.js';
import { callBare, type EndpointRef } from './endpoint.js';

// conventions 7: one function or list descriptor per endpoint. contract §8: email suppressions.
export type Suppression = ResponseOf<'SuppressionSchema'>;

export const suppressionEndpoints = {
  delete: { method: 'DELETE', path: '/v1/email-suppressions/{address}' },
} as const satisfies Record<string, EndpointRef>;

/** GET /v1/email-suppressions, newest first. */
export const suppressionList = listEndpoint<Suppression, SuppressionListFilter>({ path: '/v1/email-suppressions', row: 'SuppressionSchema' });
export type SuppressionListFilter = { reason?: SuppressionReason };

/** DELETE /v1/email-suppressions/{address}: `409 conflict` for a complaint (never removable). */
export async function removeSuppression(client: ApiClient, address: string): Promise<void> {
  await callBare(client, suppressionEndpoints.delete, { address });
}
