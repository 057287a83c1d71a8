import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { advance, buy, expectError } from './messages-fixtures.js';
import { billing, freshAccount, ledgerSum } from './billing-fixtures.js';
import { addCharge, ledgerOf } from './helpers/inspect.js';
import { NEW_ACCOUNT_WALLET_CENTS, USAGE_CATEGORIES } from '../src/api/values/billing.js';
import { PRICES, emailChargeCents } from '../src/api/values/prices.js';

// contract §11 `GET /v1/usage`, §3 agency summary `spendThisMonthCents` (from the ledger). Usage is
// seeded through the one charging path (inspect.ts `addCharge`, as every billable action charges)
// and a real action (buying a number).

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const chargeLive = async (accountId: string, item: Parameters<typeof addCharge>[2]) => await addCharge(svc, accountId, item);

/** Start of the UTC calendar month holding `ms` (contract §11: usage and spend are by these months). */
const monthStart = (ms: number): number => Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), 1);

async function usage(headers: Record<string, string>, query = ''): Promise<any> {
  const res = await svc.call('GET', `/v1/usage${query}`, { headers });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('GET /v1/usage', () => {
  it('sums each category, lists them in the fixed order, and totals the lines', async () => {
    const { id, headers } = await freshAccount(svc);
    await chargeLive(id, { category: 'sms', quantity: 3, amountCents: 3 * PRICES.smsSegment, ref: 'msg_a' });
    await chargeLive(id, { category: 'email', quantity: 25, amountCents: emailChargeCents(25), ref: 'eml_a' });
    await chargeLive(id, { category: 'sms', quantity: 2, amountCents: 2 * PRICES.smsSegment, ref: 'msg_b' });
    await chargeLive(id, { category: 'voice', quantity: 4, amountCents: 4 * PRICES.voiceMinute, ref: 'call_a' });
    const u = await usage(headers);
    expect(u.data.length).toBeGreaterThan(0);
    expect(u.data).toEqual([
      { category: 'sms', quantity: 5, amountCents: 5 * PRICES.smsSegment },
      { category: 'voice', quantity: 4, amountCents: 4 * PRICES.voiceMinute },
      { category: 'email', quantity: 25, amountCents: emailChargeCents(25) },
    ]);
    const order = u.data.map((l: any) => USAGE_CATEGORIES.indexOf(l.category));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(u.totalCents).toBe(u.data.reduce((s: number, l: any) => s + l.amountCents, 0));
    // The wallet paid it, the ledger still sums to the balance, and billing's month to date agrees.
    const b = await billing(svc, headers);
    expect(b.wallet.balanceCents).toBe(NEW_ACCOUNT_WALLET_CENTS - u.totalCents);
    expect(await ledgerSum(svc, id)).toBe(b.wallet.balanceCents);
    expect(b.monthToDateCents).toBe(u.totalCents);
  });

  it('defaults to the UTC calendar month of the service clock up to now', async () => {
    const { headers } = await freshAccount(svc);
    const u = await usage(headers);
    expect(u.from).toBe(new Date(monthStart(svc.now())).toISOString());
    expect(u.to).toBe(new Date(svc.now()).toISOString());
    expect(u.data).toEqual([]);
    expect(u.totalCents).toBe(0);
  });

  it('counts only charges in [from, to)', async () => {
    const { id, headers } = await freshAccount(svc);
    await chargeLive(id, { category: 'mms', quantity: 1, amountCents: PRICES.mmsMessage, ref: 'msg_early' });
    await advance(svc, 3600);
    const mid = new Date(svc.now()).toISOString();
    await chargeLive(id, { category: 'mms', quantity: 2, amountCents: 2 * PRICES.mmsMessage, ref: 'msg_late' });
    await advance(svc, 60);
    const later = await usage(headers, `?from=${encodeURIComponent(mid)}`);
    expect(later.data).toEqual([{ category: 'mms', quantity: 2, amountCents: 2 * PRICES.mmsMessage }]);
    const earlier = await usage(headers, `?from=${encodeURIComponent(new Date(svc.now() - 7200_000).toISOString())}&to=${encodeURIComponent(mid)}`);
    expect(earlier.data).toEqual([{ category: 'mms', quantity: 1, amountCents: PRICES.mmsMessage }]);
    expect(earlier.totalCents).toBe(PRICES.mmsMessage);
  });

  it('includes a real action: a bought number is a local_number line', async () => {
    const { headers } = await freshAccount(svc);
    await buy(svc, { headers });
    const u = await usage(headers);
    expect(u.data).toContainEqual({ category: 'local_number', quantity: 1, amountCents: PRICES.localNumberMonthly });
    expect(u.totalCents).toBe(u.data.reduce((s: number, l: any) => s + l.amountCents, 0));
  });

  it('refuses a range that ends before it starts, and a malformed time, on ["query","from"]', async () => {
    const { headers } = await freshAccount(svc);
    const now = svc.now();
    const q = `?from=${encodeURIComponent(new Date(now).toISOString())}&to=${encodeURIComponent(new Date(now - 1000).toISOString())}`;
    expectError(await svc.call('GET', `/v1/usage${q}`, { headers }), 400, 'validation_error', ['query', 'from']);
    expectError(await svc.call('GET', '/v1/usage?from=yesterday', { headers }), 400, 'validation_error', ['query', 'from']);
  });
});

describe('GET /v1/agency/summary spendThisMonthCents', () => {
  it("is each sub-account's own ledger spend; a sub-account pays from its own wallet, not the agency's", async () => {
    const agencyId = svc.bootstrap.accountId;
    const agencyBefore = (await billing(svc, {})).wallet.balanceCents;
    const a = await freshAccount(svc);
    const b = await freshAccount(svc);
    await chargeLive(a.id, { category: 'sms', quantity: 7, amountCents: 7 * PRICES.smsSegment, ref: 'msg_sub_a' });
    await chargeLive(b.id, { category: 'port', quantity: 2, amountCents: 2 * PRICES.portPerNumber, ref: 'port_sub_b' });
    const summary = await svc.call('GET', '/v1/agency/summary');
    expect(summary.status).toBe(200);
    const rows = summary.body.subaccounts as any[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.find((r) => r.id === a.id).spendThisMonthCents).toBe(7 * PRICES.smsSegment);
    expect(rows.find((r) => r.id === b.id).spendThisMonthCents).toBe(2 * PRICES.portPerNumber);
    expect((await billing(svc, a.headers)).wallet.balanceCents).toBe(NEW_ACCOUNT_WALLET_CENTS - 7 * PRICES.smsSegment);
    expect((await billing(svc, b.headers)).wallet.balanceCents).toBe(NEW_ACCOUNT_WALLET_CENTS - 2 * PRICES.portPerNumber);
    expect((await billing(svc, {})).wallet.balanceCents).toBe(agencyBefore);
    expect((await ledgerOf(svc, agencyId)).entries.some((e) => e.ref === 'msg_sub_a' || e.ref === 'port_sub_b')).toBe(false);
  });
});
