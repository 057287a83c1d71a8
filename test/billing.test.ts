import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { expectError } from './messages-fixtures.js';
import { billing, events, freshAccount, ledgerSum, saveCard } from './billing-fixtures.js';
import { ledgerOf } from './helpers/inspect.js';
import {
  AUTO_RECHARGE_DEFAULTS,
  MONEY_LIMITS,
  NEW_ACCOUNT_SPEND_LIMIT_CENTS,
  NEW_ACCOUNT_WALLET_CENTS,
  SANDBOX_CARD_TOKEN,
  SANDBOX_DECLINED_CARD_TOKEN,
} from '../src/api/values/billing.js';

// contract §11 (billing), §9 (sandbox payments/fail-next and wallet), spec: Errors (payment_required,
// provider_error), Event catalog (billing.wallet.credited), Authentication (test keys).

let svc: TestService;
let testKey: string;
beforeAll(async () => {
  svc = await startTestService();
  const k = await svc.call('POST', '/v1/keys', { body: { name: 'billing test key', mode: 'test' } });
  expect(k.status).toBe(201);
  testKey = k.body.key;
});
afterAll(async () => {
  await svc?.stop();
});

describe('GET /v1/billing', () => {
  it('shows a new account: 2000 cents, a 10000-cent limit, free plan, no card, auto-recharge off', async () => {
    const { id, headers } = await freshAccount(svc);
    const b = await billing(svc, headers);
    expect(b).toEqual({
      plan: 'free',
      subscription: { status: 'active', currentPeriodEnd: null },
      wallet: { balanceCents: NEW_ACCOUNT_WALLET_CENTS, autoRecharge: { enabled: false, ...AUTO_RECHARGE_DEFAULTS }, hasCard: false, card: null },
      spendLimitCents: NEW_ACCOUNT_SPEND_LIMIT_CENTS,
      monthToDateCents: 0,
    });
    expect(await ledgerSum(svc, id)).toBe(NEW_ACCOUNT_WALLET_CENTS);
  });

  it('answers a test key too', async () => {
    const res = await svc.call('GET', '/v1/billing', { key: testKey });
    expect(res.status).toBe(200);
    expect(res.body.wallet.balanceCents).toBeTypeOf('number');
  });
});

describe('PUT /v1/billing/card', () => {
  it('saves a sandbox card (hasCard, its last four digits), never showing the token', async () => {
    const { headers } = await freshAccount(svc);
    const b = await saveCard(svc, headers, SANDBOX_CARD_TOKEN);
    expect(b.wallet.hasCard).toBe(true);
    expect(b.wallet.card).toEqual({ last4: '4242' });
    expect(JSON.stringify(b)).not.toContain(SANDBOX_CARD_TOKEN);
  });

  it('refuses a token the provider does not know, on ["body","token"]', async () => {
    const { headers } = await freshAccount(svc);
    expectError(await svc.call('PUT', '/v1/billing/card', { headers, body: { token: 'tok_madeup' } }), 400, 'validation_error', ['body', 'token']);
    expect((await billing(svc, headers)).wallet.hasCard).toBe(false);
  });
});

describe('POST /v1/billing/wallet/top-up', () => {
  it('charges the card and credits the wallet, with billing.wallet.credited; the ledger sums to the balance', async () => {
    const { id, headers } = await freshAccount(svc);
    await saveCard(svc, headers, SANDBOX_CARD_TOKEN);
    const res = await svc.call('POST', '/v1/billing/wallet/top-up', { headers, body: { amountCents: 1500 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.wallet.balanceCents).toBe(NEW_ACCOUNT_WALLET_CENTS + 1500);
    expect(await ledgerSum(svc, id)).toBe(NEW_ACCOUNT_WALLET_CENTS + 1500);
    const credited = await events(svc, headers, 'billing.wallet.credited');
    expect(credited).toHaveLength(1);
    expect(credited[0]).toMatchObject({ kind: 'top_up', amountCents: 1500, balanceCents: NEW_ACCOUNT_WALLET_CENTS + 1500 });
    expect(typeof credited[0].at).toBe('string');
    // A top-up is money in, not spend.
    expect(res.body.monthToDateCents).toBe(0);
  });

  it('without a saved card → 409 naming the card call, nothing credited', async () => {
    const { headers } = await freshAccount(svc);
    const res = await svc.call('POST', '/v1/billing/wallet/top-up', { headers, body: { amountCents: 500 } });
    expectError(res, 409, 'conflict');
    expect(res.body.error.message).toContain('PUT /v1/billing/card');
    expect((await billing(svc, headers)).wallet.balanceCents).toBe(NEW_ACCOUNT_WALLET_CENTS);
  });

  it('a declined card → 402 payment_required, nothing credited, no event', async () => {
    const { id, headers } = await freshAccount(svc);
    await saveCard(svc, headers, SANDBOX_DECLINED_CARD_TOKEN);
    expectError(await svc.call('POST', '/v1/billing/wallet/top-up', { headers, body: { amountCents: 500 } }), 402, 'payment_required');
    expect((await billing(svc, headers)).wallet.balanceCents).toBe(NEW_ACCOUNT_WALLET_CENTS);
    expect(await ledgerSum(svc, id)).toBe(NEW_ACCOUNT_WALLET_CENTS);
    expect(await events(svc, headers, 'billing.wallet.credited')).toEqual([]);
  });

  it('fail-next → 502 provider_error with no credit, once; the retry succeeds', async () => {
    const { id, headers } = await freshAccount(svc);
    await saveCard(svc, headers, SANDBOX_CARD_TOKEN);
    const armed = await svc.call('POST', '/v1/sandbox/payments/fail-next');
    expect(armed.status).toBe(204);
    expectError(await svc.call('POST', '/v1/billing/wallet/top-up', { headers, body: { amountCents: 700 } }), 502, 'provider_error');
    expect((await billing(svc, headers)).wallet.balanceCents).toBe(NEW_ACCOUNT_WALLET_CENTS);
    expect(await ledgerSum(svc, id)).toBe(NEW_ACCOUNT_WALLET_CENTS);
    const retry = await svc.call('POST', '/v1/billing/wallet/top-up', { headers, body: { amountCents: 700 } });
    expect(retry.status).toBe(200);
    expect(retry.body.wallet.balanceCents).toBe(NEW_ACCOUNT_WALLET_CENTS + 700);
  });

  it('a retry with the same Idempotency-Key does not charge again', async () => {
    const { id, headers } = await freshAccount(svc);
    await saveCard(svc, headers, SANDBOX_CARD_TOKEN);
    const h = { ...headers, 'idempotency-key': `topup-${id}` };
    const first = await svc.call('POST', '/v1/billing/wallet/top-up', { headers: h, body: { amountCents: 300 } });
    const again = await svc.call('POST', '/v1/billing/wallet/top-up', { headers: h, body: { amountCents: 300 } });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await ledgerSum(svc, id)).toBe(NEW_ACCOUNT_WALLET_CENTS + 300);
  });

  it('refuses amounts out of bounds on ["body","amountCents"]', async () => {
    const { headers } = await freshAccount(svc);
    await saveCard(svc, headers, SANDBOX_CARD_TOKEN);
    for (const amountCents of [MONEY_LIMITS.minTopUpCents - 1, MONEY_LIMITS.maxTopUpCents + 1, 10.5]) {
      expectError(await svc.call('POST', '/v1/billing/wallet/top-up', { headers, body: { amountCents } }), 400, 'validation_error', ['body', 'amountCents']);
    }
  });
});

describe('PATCH /v1/billing/wallet (auto-recharge)', () => {
  it('enabling needs a saved card (409); with one, the fields given change and the others stay', async () => {
    const { headers } = await freshAccount(svc);
    expectError(await svc.call('PATCH', '/v1/billing/wallet', { headers, body: { autoRecharge: { enabled: true } } }), 409, 'conflict');
    await saveCard(svc, headers, SANDBOX_CARD_TOKEN);
    const on = await svc.call('PATCH', '/v1/billing/wallet', { headers, body: { autoRecharge: { enabled: true, thresholdCents: 800 } } });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.wallet.autoRecharge).toEqual({ enabled: true, thresholdCents: 800, amountCents: AUTO_RECHARGE_DEFAULTS.amountCents });
    const amount = await svc.call('PATCH', '/v1/billing/wallet', { headers, body: { autoRecharge: { amountCents: 5000 } } });
    expect(amount.body.wallet.autoRecharge).toEqual({ enabled: true, thresholdCents: 800, amountCents: 5000 });
    const off = await svc.call('PATCH', '/v1/billing/wallet', { headers, body: { autoRecharge: { enabled: false } } });
    expect(off.body.wallet.autoRecharge).toEqual({ enabled: false, thresholdCents: 800, amountCents: 5000 });
    expect((await billing(svc, headers)).wallet.autoRecharge).toEqual(off.body.wallet.autoRecharge);
  });

  it('refuses a recharge amount below the minimum top-up', async () => {
    const { headers } = await freshAccount(svc);
    const res = await svc.call('PATCH', '/v1/billing/wallet', { headers, body: { autoRecharge: { amountCents: MONEY_LIMITS.minTopUpCents - 1 } } });
    expectError(res, 400, 'validation_error', ['body', 'autoRecharge', 'amountCents']);
  });
});

describe('PATCH /v1/billing (spend limit)', () => {
  it('sets the monthly spend limit', async () => {
    const { headers } = await freshAccount(svc);
    const res = await svc.call('PATCH', '/v1/billing', { headers, body: { spendLimitCents: 2500 } });
    expect(res.status).toBe(200);
    expect(res.body.spendLimitCents).toBe(2500);
    expect((await billing(svc, headers)).spendLimitCents).toBe(2500);
    expectError(await svc.call('PATCH', '/v1/billing', { headers, body: { spendLimitCents: -1 } }), 400, 'validation_error', ['body', 'spendLimitCents']);
  });
});

describe('test keys', () => {
  it('move no money and change no billing setting: every billing write → 403', async () => {
    const before = await svc.call('GET', '/v1/billing', { key: testKey });
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/v1/billing/wallet/top-up', { amountCents: 500 }],
      ['PATCH', '/v1/billing/wallet', { autoRecharge: { enabled: false } }],
      ['PATCH', '/v1/billing', { spendLimitCents: 1 }],
      ['PUT', '/v1/billing/card', { token: SANDBOX_CARD_TOKEN }],
      ['PUT', '/v1/billing/subscription', { plan: 'starter' }],
      ['DELETE', '/v1/billing/subscription', undefined],
    ];
    for (const [method, path, body] of writes) {
      const res = await svc.call(method, path, { key: testKey, body });
      expectError(res, 403, 'forbidden');
      expect(res.body.error.message, `${method} ${path}`).toContain('test keys move no money');
    }
    expect((await svc.call('GET', '/v1/billing', { key: testKey })).body).toEqual(before.body);
  });
});

describe('PUT /v1/sandbox/wallet', () => {
  it('sets the balance down and up through ledger rows: the ledger still sums to it, and it is not usage', async () => {
    const { id, headers } = await freshAccount(svc);
    const down = await svc.call('PUT', '/v1/sandbox/wallet', { headers, body: { balanceCents: 35 } });
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    expect(down.body.wallet.balanceCents).toBe(35);
    expect(await ledgerSum(svc, id)).toBe(35);
    const up = await svc.call('PUT', '/v1/sandbox/wallet', { headers, body: { balanceCents: 12_345 } });
    expect(up.body.wallet.balanceCents).toBe(12_345);
    expect(await ledgerSum(svc, id)).toBe(12_345);
    const ledger = await ledgerOf(svc, id);
    expect((await billing(svc, headers)).wallet.balanceCents).toBe(ledger.sum);
    const rows = ledger.entries.filter((e) => e.cause.startsWith('sandbox'));
    expect(rows.map((r) => r.kind)).toEqual(['charge', 'credit']);
    const usage = await svc.call('GET', '/v1/usage', { headers });
    expect(usage.body.data).toEqual([]);
  });

  it('refuses a negative balance', async () => {
    const { headers } = await freshAccount(svc);
    expectError(await svc.call('PUT', '/v1/sandbox/wallet', { headers, body: { balanceCents: -1 } }), 400, 'validation_error', ['body', 'balanceCents']);
  });
});
