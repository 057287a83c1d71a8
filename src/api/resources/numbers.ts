import type { ApiClient } from '../client/client.js';
import type { AvailableNumber, BuyNumberBody, NumberStatus, NumberType, PhoneNumber, SearchNumbersBody, UpdateNumberBody, VerifyTollfreeBody } from '../schemas/numbers.js';
import type { Page } from '../schemas/page.js';
import type { z } from 'zod';
import { listEndpoint } from './list.js';
import { pageParser, responseParser } from '../parsers.js';
import { pathOf, type EndpointRef } from './endpoint.js';

// conventions 7: one function per endpoint. spec: Numbers; contract §5.
// `idOrPhone` is a number id (`num_…`) or its E.164 form: the service resolves either (contract §5);
// the `+` is percent-encoded.
const availableNumberPageParser = pageParser('AvailableNumberSchema');
const phoneNumberParser = responseParser('PhoneNumberSchema');


/** The search body as sent (defaults filled by the service). */
export const numberEndpoints = {
  buy: { method: 'POST', path: '/v1/numbers/buy' },
  search: { method: 'POST', path: '/v1/numbers/search' },
  get: { method: 'GET', path: '/v1/numbers/{id}' },
  update: { method: 'PATCH', path: '/v1/numbers/{id}' },
  release: { method: 'POST', path: '/v1/numbers/{id}/release' },
  assign: { method: 'POST', path: '/v1/numbers/{id}/assign' },
  verifyTollfree: { method: 'POST', path: '/v1/numbers/{id}/verify-tollfree' },
} as const satisfies Record<string, EndpointRef>;

export type SearchNumbersInput = z.input<typeof SearchNumbersBody>;

export async function searchNumbers(client: ApiClient, body: SearchNumbersInput): Promise<Page<AvailableNumber>> {
  return (await client.request({ method: 'POST', path: numberEndpoints.search.path, body, schema: availableNumberPageParser })).data;
}

export async function buyNumber(client: ApiClient, body: BuyNumberBody, opts: { idempotencyKey?: string } = {}): Promise<PhoneNumber> {
  return (await client.request({ method: 'POST', path: numberEndpoints.buy.path, body, schema: phoneNumberParser, idempotencyKey: opts.idempotencyKey })).data;
}

/** GET /v1/numbers, newest first; released numbers only with `status: 'released'`. */
export const numberList = listEndpoint<PhoneNumber, NumberListFilter>({ path: '/v1/numbers', row: 'PhoneNumberSchema' });
export type NumberListFilter = { status?: NumberStatus; type?: NumberType; campaignId?: string };

export async function getNumber(client: ApiClient, idOrPhone: string): Promise<PhoneNumber> {
  return (await client.request({ method: 'GET', path: pathOf(numberEndpoints.get, { id: idOrPhone }), schema: phoneNumberParser })).data;
}

export async function updateNumber(client: ApiClient, idOrPhone: string, body: UpdateNumberBody): Promise<PhoneNumber> {
  return (await client.request({ method: 'PATCH', path: pathOf(numberEndpoints.update, { id: idOrPhone }), body, schema: phoneNumberParser })).data;
}

export async function releaseNumber(client: ApiClient, idOrPhone: string): Promise<PhoneNumber> {
  return (await client.request({ method: 'POST', path: pathOf(numberEndpoints.release, { id: idOrPhone }), schema: phoneNumberParser })).data;
}

/** Attaches the number to a campaign, or detaches it with `null`. */
export async function assignNumber(client: ApiClient, idOrPhone: string, campaignId: string | null): Promise<PhoneNumber> {
  return (await client.request({ method: 'POST', path: pathOf(numberEndpoints.assign, { id: idOrPhone }), body: { campaignId }, schema: phoneNumberParser })).data;
}

export async function verifyTollfree(client: ApiClient, idOrPhone: string, body: VerifyTollfreeBody): Promise<PhoneNumber> {
  return (await client.request({ method: 'POST', path: pathOf(numberEndpoints.verifyTollfree, { id: idOrPhone }), body, schema: phoneNumberParser })).data;
}
