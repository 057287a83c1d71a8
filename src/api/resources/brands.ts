import type { ApiClient } from '../client/client.js';
import type { Brand, UpdateBrandBody, VettingBody } from '../schemas/brands.js';
import type { BrandStatus } from '../values/registration.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';
import { endpoint, pathOf, type EndpointRef } from './endpoint.js';

// conventions 7: one function per endpoint. spec: Brand (10DLC); contract §7.
const brandParser = responseParser('BrandSchema');

export const brandEndpoints = {
  get: endpoint({ method: 'GET', path: '/v1/brands/{id}', schema: 'BrandSchema' }),
  update: { method: 'PATCH', path: '/v1/brands/{id}' },
  resubmit: { method: 'POST', path: '/v1/brands/{id}/resubmit' },
  vet: { method: 'POST', path: '/v1/brands/{id}/vetting' },
} as const satisfies Record<string, EndpointRef>;

/** GET /v1/brands, newest first. */
export const brandList = listEndpoint<Brand, BrandListFilter>({ path: '/v1/brands', row: 'BrandSchema' });
export type BrandListFilter = { status?: BrandStatus };

export async function getBrand(client: ApiClient, id: string): Promise<Brand> {
  return (await client.request({ method: 'GET', path: pathOf(brandEndpoints.get, { id }), schema: brandParser })).data;
}

export async function updateBrand(client: ApiClient, id: string, body: UpdateBrandBody): Promise<Brand> {
  return (await client.request({ method: 'PATCH', path: pathOf(brandEndpoints.update, { id }), body, schema: brandParser })).data;
}

export async function resubmitBrand(client: ApiClient, id: string): Promise<Brand> {
  return (await client.request({ method: 'POST', path: pathOf(brandEndpoints.resubmit, { id }), schema: brandParser })).data;
}

export async function vetBrand(client: ApiClient, id: string, body: VettingBody): Promise<Brand> {
  return (await client.request({ method: 'POST', path: pathOf(brandEndpoints.vet, { id }), body, schema: brandParser })).data;
}
