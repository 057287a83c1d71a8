import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { advance, expectError } from './messages-fixtures.js';
import { billing, events, freshAccount, saveCard } from './billing-fixtures.js';
import { PLANS, SANDBOX_CARD_TOKEN, SANDBOX_DECLINED_CARD_TOKEN, SUBSCRIPTION_PERIOD_SECS, SUBSCRIPTION_RETRY_SECS } from '../src/api/values/billing.js';

// contract §11 (subscriptions), spec: Event catalog (billing.subscription.updated), Errors
// (payment_required, provider_error). Renewals run on the service clock (sandbox clock advance).

// A service per test: renewals and fail-next are service-wide, so another test's subscriptions
// renewing in the same clock advance would take a failure armed for this one.
let svc: TestService;
beforeEach(async () => {
  svc = await startTestService();
});
afterEach(async () => {
  await svc?.stop();
});

const PERIOD_MS = SUBSCRIPTION_PERIOD_SECS * 1000;
const subscribe = (headers: Record<string, string>, plan: string) => svc.call('PUT', '/v1/billing/subscription', { headers, body: { plan } });
const updates = (headers: Record<string, string>) => events(svc, headers, 'billing.subscription.updated');

describe('PUT /v1/billing/subscription', () => {
  it('a paid plan charges the card at once, becomes active with a period end, and emits the update', async () => {
    const { headers } = await freshAccount(svc);
    await saveCard(svc, headers, SANDBOX_CARD_TOKEN);
    const charged: number[] = [];
    const original = svc.deps.payments.charge.bind(svc.deps.payments);
    svc.deps.payments.charge = (token, amount) => (charged.push(amount), original(token, amount));
    try {
      const res = await subscribe(headers, 'starter');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.plan).toBe('starter');
      expect(res.body.subscription).toEqual({ status: 'active', currentPeriodEnd: new Date(svc.now() + PERIOD_MS).toISOString() });
      expect(charged).toEqual([PLANS.starter]);
      // The plan is paid by the card, not the wallet.
      expect(res.body.wallet.balanceCents).toBe((await billing(svc, headers)).wallet.balanceCents);
      const ev = await updates(headers);
      expect(ev).toHaveLength(1);
      expect(ev[0]).toMatchObject({ status: 'active', plan: 'starter', currentPeriodEnd: res.body.subscription.currentPeriodEnd });
      // The same plan again while active changes nothing and charges nothing.
      const again = await subscribe(headers, 'starter');
      expect(again.body).toEqual(res.body);
      expect(charged).toEqual([PLANS.starter]);
      expect(await updates(headers)).toHaveLength(1);
    } finally {
      svc.deps.payments.charge = original;
    }
  });

  it('without a card → 409; a declined card → 402 and nothing changes; fail-next → 502 and nothing changes', async () => {
    const { headers } = await freshAccount(svc);
    expectError(await subscribe(headers, 'pro'), 409, 'conflict');
    await saveCard(svc, headers, SANDBOX_DECLINED_CARD_TOKEN);
    expectError(await subscribe(headers, 'pro'), 402, 'payment_required');
    await saveCard(svc, headers, SANDBOX_CARD_TOKEN);
    expect((await svc.call('POST', '/v1/sandbox/payments/fail-next')).status).toBe(204);
    expectError(await subscribe(headers, 'pro'), 502, 'provider_error');
    const b = await billing(svc, headers);
    expect(b.plan).toBe('free');
    expect(b.subscription).toEqual({ status: 'active', currentPeriodEnd: null });
    expect(await updates(headers)).toEqual([]);
  });

  it('refuses an unknown plan on ["body","plan"]', async () => {
    const { headers } = await freshAccount(svc);
    expectError(await subscribe(headers, 'platinum'), 400, 'validation_error', ['body', 'plan']);
  });
});

describe('renewal on the service clock', () => {
  it('renews at the period end, charging the card; a declined renewal → past_due, then a paid retry → active', async () => {
    const { headers } = await freshAccount(svc);
    await saveCard(svc, headers, SANDBOX_CARD_TOKEN);
    const first = await subscribe(headers, 'starter');
    const firstEnd = Date.parse(first.body.subscription.currentPeriodEnd);

    await advance(svc, SUBSCRIPTION_PERIOD_SECS);
    const renewed = await billing(svc, headers);
    expect(renewed.subscription).toEqual({ status: 'active', currentPeriodEnd: new Date(firstEnd + PERIOD_MS).toISOString() });
    expect(await updates(headers)).toHaveLength(1); // still active: no status change, no event

    // The card now declines: the next renewal leaves the subscription past_due.
    await saveCard(svc, headers, SANDBOX_DECLINED_CARD_TOKEN);
    await advance(svc, SUBSCRIPTION_PERIOD_SECS);
    const pastDue = await billing(svc, headers);
    expect(pastDue.plan).toBe('starter');
    expect(pastDue.subscription.status).toBe('past_due');
    let ev = await updates(headers);
    expect(ev.map((e) => e.status)).toEqual(['active', 'past_due']);

    // Still declined at the daily retry: stays past_due, no new event.
    await advance(svc, SUBSCRIPTION_RETRY_SECS);
    expect((await billing(svc, headers)).subscription.status).toBe('past_due');
    expect(await updates(headers)).toHaveLength(2);

    // A working card: the next retry pays and the subscription is active again, a new period from now.
    await saveCard(svc, headers, SANDBOX_CARD_TOKEN);
    await advance(svc, SUBSCRIPTION_RETRY_SECS);
    const recovered = await billing(svc, headers);
    expect(recovered.subscription).toEqual({ status: 'active', currentPeriodEnd: new Date(svc.now() + PERIOD_MS).toISOString() });
    ev = await updates(headers);
    expect(ev.map((e) => e.status)).toEqual(['active', 'past_due', 'active']);
  });

  it('a past_due subscription recovers at once with PUT of its plan (the card charged now)', async () => {
    const { headers } = await freshAccount(svc);
    await saveCard(svc, headers, SANDBOX_CARD_TOKEN);
    await subscribe(headers, 'pro');
    expect((await svc.call('POST', '/v1/sandbox/payments/fail-next')).status).toBe(204);
    await advance(svc, SUBSCRIPTION_PERIOD_SECS);
    expect((await billing(svc, headers)).subscription.status).toBe('past_due');
    const res = await subscribe(headers, 'pro');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.subscription).toEqual({ status: 'active', currentPeriodEnd: new Date(svc.now() + PERIOD_MS).toISOString() });
    expect((await updates(headers)).map((e) => e.status)).toEqual(['active', 'past_due', 'active']);
    // The earlier retry job belongs to a replaced period: it changes nothing.
    await advance(svc, SUBSCRIPTION_RETRY_SECS);
    expect((await billing(svc, headers)).subscription).toEqual(res.body.subscription);
  });
});

describe('DELETE /v1/billing/subscription', () => {
  it('cancels now, keeps the paid plan to the period end, then drops to free; no renewal charge', async () => {
    const { headers } = await freshAccount(svc);
    await saveCard(svc, headers, SANDBOX_CARD_TOKEN);
    const sub = await subscribe(headers, 'starter');
    const res = await svc.call('DELETE', '/v1/billing/subscription', { headers });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.plan).toBe('starter');
    expect(res.body.subscription).toEqual({ status: 'canceled', currentPeriodEnd: sub.body.subscription.currentPeriodEnd });
    // Canceling again changes nothing.
    expect((await svc.call('DELETE', '/v1/billing/subscription', { headers })).body).toEqual(res.body);

    let charges = 0;
    const original = svc.deps.payments.charge.bind(svc.deps.payments);
    svc.deps.payments.charge = (token, amount) => (charges++, original(token, amount));
    try {
      await advance(svc, SUBSCRIPTION_PERIOD_SECS);
    } finally {
      svc.deps.payments.charge = original;
    }
    expect(charges).toBe(0);
    const after = await billing(svc, headers);
    expect(after.plan).toBe('free');
    expect(after.subscription).toEqual({ status: 'canceled', currentPeriodEnd: null });
    const ev = await updates(headers);
    expect(ev.map((e) => [e.status, e.plan])).toEqual([['active', 'starter'], ['canceled', 'starter'], ['canceled', 'free']]);
  });

  it('resumes a canceled plan within its period without a charge', async () => {
    const { headers } = await freshAccount(svc);
    await saveCard(svc, headers, SANDBOX_CARD_TOKEN);
    const sub = await subscribe(headers, 'pro');
    await svc.call('DELETE', '/v1/billing/subscription', { headers });
    await saveCard(svc, headers, SANDBOX_DECLINED_CARD_TOKEN); // a charge would be declined
    const resumed = await subscribe(headers, 'pro');
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.subscription).toEqual(sub.body.subscription);
  });

  it('on the free plan → 409', async () => {
    const { headers } = await freshAccount(svc);
    expectError(await svc.call('DELETE', '/v1/billing/subscription', { headers }), 409, 'conflict');
  });
});
