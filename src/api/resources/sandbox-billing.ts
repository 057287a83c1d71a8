import type { ApiClient } from '../client/client.js';
import type { Billing } from '../schemas/billing.js';
import { responseParser } from '../parsers.js';
import type { EndpointRef } from './endpoint.js';

// contract §9: the outside world for money (local service only): the wallet set to a balance, and
// the payment provider failing once.
const billingParser = responseParser('BillingSchema');

export const sandboxBillingEndpoints = {
  wallet: { method: 'PUT', path: '/v1/sandbox/wallet' },
  failNext: { method: 'POST', path: '/v1/sandbox/payments/fail-next', agencyLevel: true },
} as const satisfies Record<string, EndpointRef>;

/** PUT /v1/sandbox/wallet: the wallet at exactly this balance (to watch sends refused, or a low-balance crossing). */
export async function setSandboxWallet(client: ApiClient, balanceCents: number): Promise<Billing> {
  return (await client.request({ method: 'PUT', path: sandboxBillingEndpoints.wallet.path, body: { balanceCents }, schema: billingParser })).data;
}

/** POST /v1/sandbox/payments/fail-next: the next card charge fails (a top-up, an auto-recharge, a renewal). */
export async function failNextPayment(client: ApiClient): Promise<void> {
  // The payment provider is the whole service's: sent without Service-Subaccount, as the key's own
  // account (only the root account may arm it).
  await client.request({ method: 'POST', path: sandboxBillingEndpoints.failNext.path, agencyLevel: true });
}
