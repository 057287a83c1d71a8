import type { ApiClient } from '../client/client.js';
import type { Billing, Usage } from '../schemas/billing.js';
import type { Plan } from '../values/billing.js';
import { responseParser } from '../parsers.js';
import type { EndpointRef } from './endpoint.js';

// conventions 7: one function per endpoint. contract §11 (usage and billing): each write answers
// with the account's billing as it now stands.
const billingParser = responseParser('BillingSchema');
const usageParser = responseParser('UsageSchema');

export const billingEndpoints = {
  get: { method: 'GET', path: '/v1/billing' },
  topUp: { method: 'POST', path: '/v1/billing/wallet/top-up' },
  autoRecharge: { method: 'PATCH', path: '/v1/billing/wallet' },
  limit: { method: 'PATCH', path: '/v1/billing' },
  subscribe: { method: 'PUT', path: '/v1/billing/subscription' },
  cancel: { method: 'DELETE', path: '/v1/billing/subscription' },
  card: { method: 'PUT', path: '/v1/billing/card' },
  usage: { method: 'GET', path: '/v1/usage' },
} as const satisfies Record<string, EndpointRef>;

export async function getBilling(client: ApiClient): Promise<Billing> {
  return (await client.request({ method: 'GET', path: billingEndpoints.get.path, schema: billingParser })).data;
}

/** Charges the saved card and credits the wallet (`billing.wallet.credited`, kind top_up). */
export async function topUp(client: ApiClient, amountCents: number, opts: { idempotencyKey?: string } = {}): Promise<Billing> {
  return (await client.request({ method: 'POST', path: billingEndpoints.topUp.path, body: { amountCents }, schema: billingParser, idempotencyKey: opts.idempotencyKey })).data;
}

export interface AutoRechargePatch {
  enabled?: boolean;
  thresholdCents?: number;
  amountCents?: number;
}

export async function updateAutoRecharge(client: ApiClient, autoRecharge: AutoRechargePatch): Promise<Billing> {
  return (await client.request({ method: 'PATCH', path: billingEndpoints.autoRecharge.path, body: { autoRecharge }, schema: billingParser })).data;
}

export async function setSpendLimit(client: ApiClient, spendLimitCents: number): Promise<Billing> {
  return (await client.request({ method: 'PATCH', path: billingEndpoints.limit.path, body: { spendLimitCents }, schema: billingParser })).data;
}

export async function subscribe(client: ApiClient, plan: Plan): Promise<Billing> {
  return (await client.request({ method: 'PUT', path: billingEndpoints.subscribe.path, body: { plan }, schema: billingParser })).data;
}

export async function cancelSubscription(client: ApiClient): Promise<Billing> {
  return (await client.request({ method: 'DELETE', path: billingEndpoints.cancel.path, schema: billingParser })).data;
}

export async function saveCard(client: ApiClient, token: string): Promise<Billing> {
  return (await client.request({ method: 'PUT', path: billingEndpoints.card.path, body: { token }, schema: billingParser })).data;
}

/** GET /v1/usage: spend per category in [from, to) (defaults: the start of the month, now). */
export async function getUsage(client: ApiClient, query: { from?: string; to?: string } = {}): Promise<Usage> {
  return (await client.request({ method: 'GET', path: billingEndpoints.usage.path, query, schema: usageParser })).data;
}
