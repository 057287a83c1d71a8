import type { ApiClient } from '../client/client.js';
import type { AgencySummary, Subaccount, UpdateSubaccountBody } from '../schemas/subaccounts.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';
import type { EndpointRef } from './endpoint.js';

// contract §3. Agency-level routes never carry the sub-account context header.
const subaccountParser = responseParser('SubaccountSchema');
const agencySummaryParser = responseParser('AgencySummarySchema');

const enc = encodeURIComponent;

export const subaccountEndpoints = {
  create: { method: 'POST', path: '/v1/subaccounts', agencyLevel: true },
  get: { method: 'GET', path: '/v1/subaccounts/{id}', agencyLevel: true },
  update: { method: 'PATCH', path: '/v1/subaccounts/{id}', agencyLevel: true },
} as const satisfies Record<string, EndpointRef>;

export async function createSubaccount(client: ApiClient, body: { name: string }): Promise<Subaccount> {
  return (await client.request({ method: 'POST', path: subaccountEndpoints.create.path, body, schema: subaccountParser, agencyLevel: true })).data;
}

/** GET /v1/subaccounts: the agency's direct sub-accounts. */
export const subaccountList = listEndpoint<Subaccount>({ path: '/v1/subaccounts', row: 'SubaccountSchema', agencyLevel: true });

export async function getSubaccount(client: ApiClient, id: string): Promise<Subaccount> {
  return (await client.request({ method: 'GET', path: `/v1/subaccounts/${enc(id)}`, schema: subaccountParser, agencyLevel: true })).data;
}

export async function updateSubaccount(client: ApiClient, id: string, body: UpdateSubaccountBody): Promise<Subaccount> {
  return (await client.request({ method: 'PATCH', path: `/v1/subaccounts/${enc(id)}`, body, schema: subaccountParser, agencyLevel: true })).data;
}

export async function agencySummary(client: ApiClient): Promise<AgencySummary> {
  return (await client.request({ method: 'GET', path: '/v1/agency/summary', schema: agencySummaryParser, agencyLevel: true })).data;
}
