// svc billing and svc usage end to end, in-process against a real service on loopback with a manual
// clock: dollars in tables and cents in machine formats, confirmations, refusals before sending, a
// 402 exiting 7 with its hint, and the money triggers with the events they cause. Each test acts as a
// fresh sub-account (SVC_SUBACCOUNT), so it starts from a new wallet of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { runSvc, expectOk, assertBuilt, type RunSvcOptions } from './helpers/cli.js';
import { billing, events, freshAccount } from './billing-fixtures.js';
import { addCharge } from './helpers/inspect.js';
import { NEW_ACCOUNT_SPEND_LIMIT_CENTS, NEW_ACCOUNT_WALLET_CENTS, PLANS, SANDBOX_CARD_TOKEN, SANDBOX_DECLINED_CARD_TOKEN } from '../src/api/values/billing.js';
import { PRICES } from '../src/api/values/prices.js';
import { liveNumber } from './messages-fixtures.js';

let svc: TestService;
const json = (text: string) => JSON.parse(text);

/** A fresh sub-account, and `svc` acting as it. */
async function account() {
  const { id, headers } = await freshAccount(svc);
  const run = (args: string[], opts: Omit<RunSvcOptions, 'service'> = {}) => runSvc(args, { service: svc, ...opts, env: { CI: 'true', SVC_SUBACCOUNT: id, ...opts.env } });
  return { id, headers, run, billing: () => billing(svc, headers) };
}

beforeAll(async () => {
  assertBuilt();
  svc = await startTestService();
});

afterAll(async () => {
  await svc?.stop();
});

describe('svc billing show', () => {
  it('json keeps the API cents; a table shows dollars', async () => {
    const a = await account();
    const b = json(expectOk(await a.run(['billing', 'show', '-o', 'json'])).stdout);
    expect(b).toMatchObject({ plan: 'free', wallet: { balanceCents: NEW_ACCOUNT_WALLET_CENTS, hasCard: false }, spendLimitCents: NEW_ACCOUNT_SPEND_LIMIT_CENTS, monthToDateCents: 0 });
    const table = expectOk(await a.run(['billing', 'show'], { tty: true })).stdout;
    expect(table).toContain(`balance`);
    expect(table).toContain('$20.00');
    expect(table).toContain('$100.00/month');
    expect(table).toMatch(/autoRecharge\s+off/);
    expect(table).not.toContain('2000');
    // Piped with no format: a resource prints JSON (cents).
    expect(json(expectOk(await a.run(['billing', 'show'])).stdout).wallet.balanceCents).toBe(NEW_ACCOUNT_WALLET_CENTS);
  });
});

describe('svc billing top-up, card, auto-recharge, limit', () => {
  it('top-up charges the saved card after asking (--yes), in dollars; the wallet is credited with its event', async () => {
    const a = await account();
    expectOk(await a.run(['billing', 'card', SANDBOX_CARD_TOKEN, '-o', 'json']));
    // Without a terminal and without --yes, nothing is charged and the question names --yes.
    const asked = await a.run(['billing', 'top-up', '20']);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('--yes');
    expect(asked.stderr).toContain('Charge $20.00 to the saved card');
    expect((await a.billing()).wallet.balanceCents).toBe(NEW_ACCOUNT_WALLET_CENTS);

    const res = expectOk(await a.run(['billing', 'top-up', '$20.50', '--yes', '-o', 'json']));
    expect(json(res.stdout).wallet.balanceCents).toBe(NEW_ACCOUNT_WALLET_CENTS + 2050);
    expect(res.stderr).toContain('added $20.50; the balance is $40.50');
    const credited = await events(svc, a.headers, 'billing.wallet.credited');
    expect(credited.length).toBe(1);
    expect(credited[0]).toMatchObject({ kind: 'top_up', amountCents: 2050, balanceCents: NEW_ACCOUNT_WALLET_CENTS + 2050 });
  });

  it('a bad amount is refused before sending: exit 2 naming <amount>', async () => {
    const a = await account();
    for (const bad of ['-5', '20.001', '20,50']) {
      const res = await a.run(['billing', 'top-up', bad, '--yes']);
      expect(res.code, bad).toBe(2);
      expect(res.stderr, bad).toMatch(/^error: <amount>: /);
    }
    expect((await a.billing()).wallet.balanceCents).toBe(NEW_ACCOUNT_WALLET_CENTS);
  });

  it('no card: refused before the question about the charge (exit 5), naming svc billing card; a declined card: 402 exits 7 saying the card was declined', async () => {
    const a = await account();
    for (const args of [['billing', 'top-up', '20'], ['billing', 'top-up', '20', '--yes']]) {
      const none = await a.run(args);
      expect(none.code, none.stderr).toBe(5);
      expect(none.stderr).not.toContain('Charge $20.00');
      expect(none.stderr).toContain('save one with `svc billing card <token>`');
      expect(none.stderr).toContain('then run `svc billing top-up 20.00` again');
      expect(none.stderr).not.toContain('/v1/');
    }
    const paid = await a.run(['billing', 'subscribe', 'starter']);
    expect(paid.code, paid.stderr).toBe(5);
    expect(paid.stderr).toContain('`svc billing card <token>`');
    expectOk(await a.run(['billing', 'card', SANDBOX_DECLINED_CARD_TOKEN]));
    const res = await a.run(['billing', 'top-up', '5', '--yes']);
    expect(res.code).toBe(7);
    expect(res.stderr).toContain('error: payment_required');
    expect(res.stderr).toContain('the card was declined');
    expect(res.stderr).toContain('svc billing card <token>');
    expect((await a.billing()).wallet.balanceCents).toBe(NEW_ACCOUNT_WALLET_CENTS);
  });

  it('a 402 from any command exits 7 with the hint naming svc billing top-up', async () => {
    const a = await account();
    expectOk(await a.run(['billing', 'card', SANDBOX_DECLINED_CARD_TOKEN]));
    const res = await a.run(['api', 'POST', '/v1/billing/wallet/top-up', '-F', 'amountCents:=500']);
    expect(res.code).toBe(7);
    expect(res.stderr).toContain('error: payment_required');
    expect(res.stderr).toContain('svc billing top-up <amount>');
  });

  it('auto-recharge settings in dollars; limit asks with the current limit and spend, then sets it', async () => {
    const a = await account();
    expectOk(await a.run(['billing', 'card', SANDBOX_CARD_TOKEN]));
    const on = json(expectOk(await a.run(['billing', 'auto-recharge', '--enable', '--threshold', '7.50', '--amount', '$25', '-o', 'json'])).stdout);
    expect(on.wallet.autoRecharge).toEqual({ enabled: true, thresholdCents: 750, amountCents: 2500 });
    const off = expectOk(await a.run(['billing', 'auto-recharge', '--disable'], { tty: true })).stdout;
    expect(off).toMatch(/autoRecharge\s+off \(below \$7\.50, add \$25\.00 when on\)/);

    const asked = await a.run(['billing', 'limit', '250']);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('Set the monthly spend limit to $250.00 (now $100.00; $0.00 spent this month)');
    expect((await a.billing()).spendLimitCents).toBe(NEW_ACCOUNT_SPEND_LIMIT_CENTS);
    expect(json(expectOk(await a.run(['billing', 'limit', '$1,000.50', '--yes', '-o', 'json'])).stdout).spendLimitCents).toBe(100_050);
  });
});

describe('402 on a send', () => {
  it('an empty wallet: svc messages send exits 7 naming svc billing top-up; past the limit, naming svc billing limit; nothing sent', async () => {
    const a = await account();
    const from = (await liveNumber(svc, { headers: a.headers })).phoneNumber;
    const sendArgs = ['messages', 'send', '--to', '+14155550100', '--from', from, '--body', 'hello'];
    expectOk(await a.run(['api', 'PUT', '/v1/sandbox/wallet', '-F', 'balanceCents:=0']));
    const broke = await a.run(sendArgs);
    expect(broke.code).toBe(7);
    expect(broke.stderr).toContain('error: payment_required');
    expect(broke.stderr).toContain('svc billing top-up <amount>');
    // The service's own hint, said as the command that makes its call.
    expect(broke.stderr).toMatch(/^error: payment_required: .*top it up with `svc billing top-up <amount>`$/m);
    expect(broke.stderr).not.toContain('/v1/');

    expectOk(await a.run(['api', 'PUT', '/v1/sandbox/wallet', '-F', 'balanceCents:=1000']));
    // The number's first month is already spent, so a $1.00 limit leaves no room.
    expectOk(await a.run(['billing', 'limit', '1', '--yes']));
    const over = await a.run(sendArgs);
    expect(over.code).toBe(7);
    expect(over.stderr).toContain('error: budget_exceeded');
    expect(over.stderr).toContain('svc billing limit <amount>');
    expect(over.stderr).toMatch(/^error: budget_exceeded: .*raise it with `svc billing limit <amount>`$/m);
    expect(over.stderr).not.toContain('/v1/');
    const listed = await svc.call('GET', '/v1/messages?limit=5', { headers: a.headers });
    expect(listed.body.data).toEqual([]);

    expectOk(await a.run(['billing', 'limit', '100', '--yes']));
    expectOk(await a.run(sendArgs));
  });
});

describe('billing on a terminal', () => {
  it('shows the saved card by its last four digits; the API gives them, never the token', async () => {
    const a = await account();
    const saved = json(expectOk(await a.run(['billing', 'card', SANDBOX_CARD_TOKEN, '-o', 'json'])).stdout);
    expect(saved.wallet.card).toEqual({ last4: '4242' });
    expect(JSON.stringify(saved)).not.toContain(SANDBOX_CARD_TOKEN);
    const table = expectOk(await a.run(['billing', 'show'], { tty: true })).stdout;
    expect(table).toMatch(/^card\s+card ending 4242$/m);
  });

  it('a declined top-up speaks dollars only', async () => {
    const a = await account();
    expectOk(await a.run(['billing', 'card', SANDBOX_DECLINED_CARD_TOKEN]));
    const res = await a.run(['billing', 'top-up', '5', '--yes'], { tty: true });
    expect(res.code).toBe(7);
    expect(res.stderr).toContain('card ending 0002');
    // The command to run again, in dollars a shell keeps (`$5.00` would be the shell's `$5` and `.00`).
    expect(res.stderr).toContain('`svc billing top-up 5.00`');
    expect(res.stderr).not.toMatch(/cents/);
  });

  it('a 30-day subscription ends "in 30d", not "in 29d"', async () => {
    const a = await account();
    expectOk(await a.run(['billing', 'card', SANDBOX_CARD_TOKEN]));
    const table = expectOk(await a.run(['billing', 'subscribe', 'starter', '--yes'], { tty: true })).stdout;
    expect(table).toMatch(/^currentPeriodEnd\s+\S+ \(in 30d\)$/m);
    // Canceled: its renewal charges nothing (the money triggers below fail the next charge of the service).
    expectOk(await a.run(['billing', 'cancel', '--yes']));
  });
});

describe('svc billing subscribe and cancel', () => {
  it('subscribe shows the price and asks; with --yes the plan is active; cancel asks, then cancels', async () => {
    const a = await account();
    expectOk(await a.run(['billing', 'card', SANDBOX_CARD_TOKEN]));
    const asked = await a.run(['billing', 'subscribe', 'pro']);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain(`Subscribe to the pro plan ($${(PLANS.pro / 100).toFixed(2)} charged to the saved card now, then every 30 days)`);
    expect((await a.billing()).plan).toBe('free');

    const sub = json(expectOk(await a.run(['billing', 'subscribe', 'pro', '--yes', '-o', 'json'])).stdout);
    expect(sub).toMatchObject({ plan: 'pro', subscription: { status: 'active' } });
    expect(sub.subscription.currentPeriodEnd).not.toBeNull();

    const askedCancel = await a.run(['billing', 'cancel']);
    expect(askedCancel.code).toBe(2);
    expect(askedCancel.stderr).toContain(`Cancel the pro subscription (paid until ${sub.subscription.currentPeriodEnd})`);
    const canceled = json(expectOk(await a.run(['billing', 'cancel', '--yes', '-o', 'json'])).stdout);
    expect(canceled.subscription.status).toBe('canceled');
  });
});

describe('svc usage', () => {
  it('a table by category in dollars with a total row; json and csv in cents; --from/--to narrow it', async () => {
    const a = await account();
    // Seeded through the one charging path, as a billable action charges.
    await addCharge(svc, a.id, { category: 'sms', quantity: 3, amountCents: 3 * PRICES.smsSegment, ref: 'msg_cli_1' });
    await addCharge(svc, a.id, { category: 'local_number', quantity: 1, amountCents: PRICES.localNumberMonthly, ref: 'num_cli_1' });
    const total = 3 * PRICES.smsSegment + PRICES.localNumberMonthly;
    const u = json(expectOk(await a.run(['usage', '-o', 'json'])).stdout);
    expect(u.data.length).toBe(2);
    expect(u.totalCents).toBe(total);

    const table = expectOk(await a.run(['usage'], { tty: true })).stdout;
    const row = (name: string) => table.split('\n').find((l) => new RegExp(`\\b${name}\\b`).test(l));
    expect(row('sms')).toMatch(/\b3\b.*\$0\.03/);
    expect(row('local_number')).toContain(`$${(PRICES.localNumberMonthly / 100).toFixed(2)}`);
    expect(row('total')).toContain(`$${(total / 100).toFixed(2)}`);

    const csv = expectOk(await a.run(['usage', '-o', 'csv'])).stdout.trim().split('\n');
    expect(csv[0]).toBe('category,quantity,amountCents');
    expect(csv).toContain(`sms,3,${3 * PRICES.smsSegment}`);

    // A range that ends before the charges has nothing; relative times count back from the service clock.
    expect(json(expectOk(await a.run(['usage', '--from', '30d', '--to', '1h', '-o', 'json'])).stdout).data).toEqual([]);
    const recent = json(expectOk(await a.run(['usage', '--from', '1h', '-o', 'json'])).stdout);
    expect(recent.totalCents).toBe(total);
    // An hour back from the service clock (which moves on while the command runs: a few ms of slack).
    expect(Math.abs(Date.parse(recent.from) - (svc.now() - 3600_000))).toBeLessThan(5_000);
    const bad = await a.run(['usage', '--from', 'now', '--to', '1d']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--from');
  });
});

describe('svc agency summary', () => {
  it("a table shows each sub-account's spend this month in dollars; json keeps cents", async () => {
    const a = await account();
    await addCharge(svc, a.id, { category: 'sms', quantity: 250, amountCents: 250 * PRICES.smsSegment, ref: 'msg_cli_agency' });
    const asAgency = (args: string[], tty = false) => runSvc(args, { service: svc, tty, env: { CI: 'true' } });
    const rows = json(expectOk(await asAgency(['agency', 'summary', '-o', 'json'])).stdout);
    expect(rows.find((r: any) => r.id === a.id)).toMatchObject({ spendThisMonthCents: 250 * PRICES.smsSegment });
    const table = expectOk(await asAgency(['agency', 'summary'], true)).stdout;
    expect(table).toContain('spend this month');
    expect(table.split('\n').find((l) => l.includes(a.id))).toContain(`$${(250 * PRICES.smsSegment / 100).toFixed(2)}`);
  });
});

describe('money triggers', () => {
  it('billing.wallet.low_balance: one crossing below the threshold, one event', async () => {
    const a = await account();
    const res = expectOk(await a.run(['trigger', 'billing.wallet.low_balance', '-o', 'json']));
    const threshold = (await a.billing()).wallet.autoRecharge.thresholdCents;
    expect(json(res.stdout).wallet.balanceCents).toBe(threshold - 1);
    const low = await events(svc, a.headers, 'billing.wallet.low_balance');
    expect(low.length).toBe(1);
    expect(low[0]).toMatchObject({ balanceCents: threshold - 1, thresholdCents: threshold, autoRechargeStarted: false });
    // Again from below: the trigger goes back to the threshold first, so it is one more crossing.
    expectOk(await a.run(['trigger', 'billing.wallet.low_balance', '--balance', '0']));
    expect((await events(svc, a.headers, 'billing.wallet.low_balance')).length).toBe(2);
    expect((await a.run(['trigger', 'billing.wallet.low_balance', '--balance', '100'])).code).toBe(2);
  });

  it('billing.wallet.credited: a top-up with the saved card; without one it says to save one', async () => {
    const a = await account();
    const none = await a.run(['trigger', 'billing.wallet.credited']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`svc billing card ${SANDBOX_CARD_TOKEN}`);
    expectOk(await a.run(['billing', 'card', SANDBOX_CARD_TOKEN]));
    expectOk(await a.run(['trigger', 'billing.wallet.credited', '--amount', '5']));
    const credited = await events(svc, a.headers, 'billing.wallet.credited');
    expect(credited.length).toBe(1);
    expect(credited[0]).toMatchObject({ kind: 'top_up', amountCents: 500 });
  });

  it('payments.fail-next: the next card charge fails: an auto-recharge at a low-balance crossing credits nothing', async () => {
    const a = await account();
    expectOk(await a.run(['billing', 'card', SANDBOX_CARD_TOKEN]));
    expectOk(await a.run(['billing', 'auto-recharge', '--enable', '--threshold', '5', '--amount', '20']));
    expectOk(await a.run(['trigger', 'payments.fail-next']));
    const low = json(expectOk(await a.run(['trigger', 'billing.wallet.low_balance', '-o', 'json'])).stdout);
    expect(low.wallet.balanceCents).toBe(499);
    expect((await events(svc, a.headers, 'billing.wallet.low_balance'))[0]).toMatchObject({ autoRechargeStarted: true });
    expect(await events(svc, a.headers, 'billing.wallet.credited')).toEqual([]);
    // Without fail-next the recharge goes through at the next crossing.
    const recharged = json(expectOk(await a.run(['trigger', 'billing.wallet.low_balance', '-o', 'json'])).stdout);
    expect(recharged.wallet.balanceCents).toBe(499 + 2000);
    expect((await events(svc, a.headers, 'billing.wallet.credited'))[0]).toMatchObject({ kind: 'auto_recharge', amountCents: 2000 });
  });

  it('billing.subscription.updated: active, then past_due through a refused renewal, then canceled', async () => {
    const a = await account();
    expectOk(await a.run(['billing', 'card', SANDBOX_CARD_TOKEN]));
    expect((await a.run(['trigger', 'billing.subscription.updated', '--status', 'past_due'])).code).toBe(1);
    const active = json(expectOk(await a.run(['trigger', 'billing.subscription.updated', '--status', 'active', '--plan', 'starter', '-o', 'json'])).stdout);
    expect(active).toMatchObject({ plan: 'starter', subscription: { status: 'active' } });
    const pastDue = json(expectOk(await a.run(['trigger', 'billing.subscription.updated', '--status', 'past_due', '-o', 'json'])).stdout);
    expect(pastDue.subscription.status).toBe('past_due');
    const canceled = json(expectOk(await a.run(['trigger', 'billing.subscription.updated', '--status', 'canceled', '-o', 'json'])).stdout);
    expect(canceled.subscription.status).toBe('canceled');
    const statuses = (await events(svc, a.headers, 'billing.subscription.updated')).map((e) => e.status);
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['active', 'past_due', 'canceled']));
  });
});
