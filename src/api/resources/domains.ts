import type { ApiClient } from '../client/client.js';
import type { Domain } from '../schemas/email.js';
import type { DomainStatus } from '../values/email.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';
import { pathOf, type EndpointRef } from './endpoint.js';

// conventions 7: one function or list descriptor per endpoint. spec: Email domains endpoints; contract §8.
const domainParser = responseParser('DomainSchema');

/** POST /v1/domains `{domain}` → 201 with the records to publish; 400 on `domain` for a rejected name, 409 when another account has it. */
export const domainEndpoints = {
  create: { method: 'POST', path: '/v1/domains' },
  get: { method: 'GET', path: '/v1/domains/{id}' },
  verify: { method: 'POST', path: '/v1/domains/{id}/verify' },
  delete: { method: 'DELETE', path: '/v1/domains/{id}' },
} as const satisfies Record<string, EndpointRef>;

export async function addDomain(client: ApiClient, domain: string): Promise<Domain> {
  return (await client.request({ method: 'POST', path: domainEndpoints.create.path, body: { domain }, schema: domainParser })).data;
}

/** GET /v1/domains, newest first. */
export const domainList = listEndpoint<Domain, DomainListFilter>({ path: '/v1/domains', row: 'DomainSchema' });
export type DomainListFilter = { status?: DomainStatus };

export async function getDomain(client: ApiClient, id: string): Promise<Domain> {
  return (await client.request({ method: 'GET', path: pathOf(domainEndpoints.get, { id }), schema: domainParser })).data;
}

/** POST /v1/domains/{id}/verify: checks the records now; the domain with each record's status. */
export async function verifyDomain(client: ApiClient, id: string): Promise<Domain> {
  return (await client.request({ method: 'POST', path: pathOf(domainEndpoints.verify, { id }), schema: domainParser })).data;
}

export async function removeDomain(client: ApiClient, id: string): Promise<void> {
  await client.request({ method: 'DELETE', path: pathOf(domainEndpoints.delete, { id }) });
}
