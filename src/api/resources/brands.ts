import type { ApiClient } from '../client/client.js';
import type { Brand, UpdateBrandBody, VettingBody } from '../schemas/brands.js';
import type { BrandStatus } from '../values/registration.js';
import { listEndpoint } from './list.js';
import { responseParser } from '../parsers.js';

// conventions 7: one function per endpoint. spec: Brand (10DLC); contract §7.
const brandParser = responseParser('BrandSchema');
const brandPath = (id: string, action = ''): string => `/v1/brands/${encodeURIComponent(id)}${action}`;

/** GET /v1/brands, newest first. */
export const brandList = listEndpoint<Brand, BrandListFilter>({ path: '/v1/brands', row: 'BrandSchema' });
export type BrandListFilter = { status?: BrandStatus };

export async function getBrand(client: ApiClient, id: string): Promise<Brand> {
  return (await client.request({ method: 'GET', path: brandPath(id), schema: brandParser })).data;
}

export async function updateBrand(client: ApiClient, id: string, body: UpdateBrandBody): Promise<Brand> {
  return (await client.request({ method: 'PATCH', path: brandPath(id), body, schema: brandParser })).data;
}

export async function resubmitBrand(client: ApiClient, id: string): Promise<Brand> {
  return (await client.request({ method: 'POST', path: brandPath(id, '/resubmit'), schema: brandParser })).data;
}

export async function vetBrand(client: ApiClient, id: string, body: VettingBody): Promise<Brand> {
  return (await client.request({ method: 'POST', path: brandPath(id, '/vetting'), body, schema: brandParser })).data;
}
