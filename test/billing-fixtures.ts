import { expect } from 'vitest';
import type { TestService } from './helpers/service.js';
import { ledgerOf } from './helpers/inspect.js';

// Shared by the billing and usage tests: each test acts as a fresh sub-account of the bootstrap
// agency account (through `Service-Subaccount`), so it starts from a new wallet of its own.

let n = 0;
export async function freshAccount(svc: TestService): Promise<{ id: string; headers: Record<string, string> }> {
  const res = await svc.call('POST', '/v1/subaccounts', { body: { name: `billing ${++n}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, headers: { 'service-subaccount': res.body.id } };
}

export async function billing(svc: TestService, headers: Record<string, string>): Promise<any> {
  const res = await svc.call('GET', '/v1/billing', { headers });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export async function saveCard(svc: TestService, headers: Record<string, string>, token: string): Promise<any> {
  const res = await svc.call('PUT', '/v1/billing/card', { headers, body: { token } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

export async function events(svc: TestService, headers: Record<string, string>, type: string): Promise<any[]> {
  const res = await svc.call('GET', `/v1/events?types=${type}&limit=100`, { headers });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The ledger's sum for an account, read from storage: the invariant is wallet balance === ledger sum. */
export const ledgerSum = async (svc: TestService, accountId: string): Promise<number> => (await ledgerOf(svc, accountId)).sum;
