// Shared setup for the messaging and numbers end-to-end tests: buying numbers over HTTP and attaching
// them to campaigns registered through the API (registration-fixtures.ts).
import { expect } from 'vitest';
import type { TestService } from './helpers/service.js';
import { approvedCampaign } from './registration-fixtures.js';

export interface Caps {
  sms: boolean;
  mms: boolean;
  voice: boolean;
}

export interface BuyOptions {
  areaCode?: string;
  type?: 'local' | 'tollfree';
  key?: string;
  headers?: Record<string, string>;
  /** Pick the first search result whose capabilities pass (default: full sms+mms+voice). */
  want?: (caps: Caps) => boolean;
}

const full = (c: Caps) => c.sms && c.mms && c.voice;

/** Searches and buys one number; answers the bought Phone number. */
export async function buy(svc: TestService, o: BuyOptions = {}): Promise<any> {
  const search = await svc.call('POST', '/v1/numbers/search', {
    key: o.key,
    headers: o.headers,
    body: o.type === 'tollfree' ? { type: 'tollfree', limit: 100 } : { areaCode: o.areaCode ?? '415', limit: 100 },
  });
  expect(search.status).toBe(200);
  const pick = (search.body.data as Array<{ phoneNumber: string; capabilities: Caps }>).find((n) => (o.want ?? full)(n.capabilities));
  expect(pick, 'a number with the wanted capabilities').toBeDefined();
  const bought = await svc.call('POST', '/v1/numbers/buy', { key: o.key, headers: o.headers, body: { phoneNumber: pick!.phoneNumber } });
  expect(bought.status).toBe(201);
  return bought.body;
}

/** A local number attached to an approved campaign: it can send with a live key. */
export async function liveNumber(svc: TestService, o: BuyOptions = {}): Promise<any> {
  const n = await buy(svc, o);
  const campaign = await approvedCampaign(svc, { key: o.key, headers: o.headers });
  const assigned = await svc.call('POST', `/v1/numbers/${n.id}/assign`, { key: o.key, headers: o.headers, body: { campaignId: campaign.id } });
  expect(assigned.status).toBe(200);
  expect(assigned.body.status).toBe('live');
  return assigned.body;
}

export async function advance(svc: TestService, seconds: number): Promise<void> {
  const r = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds } });
  expect(r.status).toBe(200);
}

export async function messageCount(svc: TestService, headers?: Record<string, string>): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  for (;;) {
    const r = await svc.call('GET', `/v1/messages?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers });
    expect(r.status).toBe(200);
    count += r.body.data.length;
    if (!r.body.hasMore) return count;
    cursor = r.body.nextCursor;
  }
}

export async function numberCount(svc: TestService, query = '', headers?: Record<string, string>): Promise<number> {
  const r = await svc.call('GET', `/v1/numbers?limit=100${query}`, { headers });
  expect(r.status).toBe(200);
  return r.body.data.length;
}

export const enc = (e164: string): string => encodeURIComponent(e164);

/** Asserts the error envelope: status, code and (when given) that some detail names `path`. */
export function expectError(res: { status: number; body: any }, status: number, code: string, path?: Array<string | number>): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  if (path) expect(res.body.error.details.map((d: { path: unknown }) => d.path)).toContainEqual(path);
}
