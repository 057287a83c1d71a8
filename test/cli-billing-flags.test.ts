// The billing and usage verbs' flags → typed options (amounts already in cents) without running
// anything (the GitHub CLI's runF), and the refusals a bad amount or flag gets before any request.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/cli/errors.js';
import { verbs as billingVerbs } from '../src/cli/commands/billing/index.js';
import { autoRechargeOptionsOf, limitOptionsOf, topUpOptionsOf, type AutoRechargeFlags, type LimitFlags, type TopUpFlags } from '../src/cli/commands/billing/flags.js';
import { command as usage } from '../src/cli/commands/usage/index.js';
import { resolveWhen, usageOptionsOf, type UsageFlags } from '../src/cli/commands/usage/when.js';
import { TRIGGERS } from '../src/cli/commands/trigger/registry.js';
import { GROUPS } from '../src/cli/groups.js';
import { billingForPeople } from '../src/cli/commands/billing/billing.run.js';
import { MONEY_LIMITS, PLAN_NAMES } from '../src/api/values/billing.js';
import type { AnyVerb } from '../src/cli/verb.js';
import { optionsOf, refusal, verbNamed } from './helpers/verb-flags.js';

const topUpCommand = verbNamed(billingVerbs, 'top-up');
const autoRechargeCommand = verbNamed(billingVerbs, 'auto-recharge');
const limitCommand = verbNamed(billingVerbs, 'limit');
const subscribeCommand = verbNamed(billingVerbs, 'subscribe');
const cardCommand = verbNamed(billingVerbs, 'card');
const showCommand = verbNamed(billingVerbs, 'show');
const cancelCommand = verbNamed(billingVerbs, 'cancel');

/** The options a run function works with: the flags as parsed, then the verb's own conversion. */
const PARSE = new Map<AnyVerb, (flags: never) => unknown>([
  [topUpCommand, (f: TopUpFlags) => topUpOptionsOf(f)],
  [autoRechargeCommand, (f: AutoRechargeFlags) => autoRechargeOptionsOf(f)],
  [limitCommand, (f: LimitFlags) => limitOptionsOf(f)],
  [usage, (f: UsageFlags) => usageOptionsOf(f)],
]);
async function typed<O>(verb: AnyVerb, argv: string[]): Promise<O> {
  const flags = await optionsOf<never>(verb, argv);
  const parse = PARSE.get(verb);
  return (parse ? parse(flags) : flags) as O;
}

/** The usage error a bad argv meets (thrown by the verb's own parsing, before any request). */
async function usageError<O>(verb: AnyVerb, argv: string[]): Promise<UsageError> {
  const err = await typed<O>(verb, argv).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UsageError);
  return err as UsageError;
}

describe('billing flags', () => {
  it('top-up takes dollars in each spelling cli.md names, as cents', async () => {
    for (const a of ['20', '20.00', '$20']) expect(await typed<unknown>(topUpCommand, [a])).toEqual({ amountCents: 2000 });
    expect(await typed<unknown>(topUpCommand, ['12.34', '--idempotency-key', 'k1'])).toEqual({ amountCents: 1234, idempotencyKey: 'k1' });
    expect(await refusal(topUpCommand, [])).toBe('commander.missingArgument');
  });

  it('top-up refuses a negative, 3 decimals, or an amount out of bounds, naming <amount>', async () => {
    for (const bad of ['-5', '20.001', 'lots', '0.50', String(MONEY_LIMITS.maxTopUpCents / 100 + 1)]) {
      const err = await usageError<unknown>(topUpCommand, [bad]);
      expect(err.flag, bad).toBe('<amount>');
    }
  });

  it('auto-recharge: --enable / --disable, --threshold and --amount in dollars; one of them needed, not both switches', async () => {
    expect(await typed<unknown>(autoRechargeCommand, ['--enable', '--threshold', '5', '--amount', '$20'])).toEqual({ enabled: true, thresholdCents: 500, amountCents: 2000 });
    expect(await typed<unknown>(autoRechargeCommand, ['--disable'])).toEqual({ enabled: false });
    expect(await typed<unknown>(autoRechargeCommand, ['--threshold', '0'])).toEqual({ thresholdCents: 0 });
    expect((await usageError<unknown>(autoRechargeCommand, ['--enable', '--disable'])).flag).toBe('--enable');
    expect((await usageError<unknown>(autoRechargeCommand, [])).flag).toBe('--enable');
    expect((await usageError<unknown>(autoRechargeCommand, ['--enable', '--threshold', '-1'])).flag).toBe('--threshold');
    expect((await usageError<unknown>(autoRechargeCommand, ['--enable', '--amount', '0.5'])).flag).toBe('--amount');
    expect((await usageError<unknown>(autoRechargeCommand, ['--amount', '1.234'])).message).toMatch(/more than 2 decimals/);
  });

  it('limit takes dollars (grouped thousands too); subscribe takes a plan from the price table; card a token', async () => {
    expect(await typed<unknown>(limitCommand, ['$1,000'])).toEqual({ spendLimitCents: 100_000 });
    expect(await typed<unknown>(limitCommand, ['0'])).toEqual({ spendLimitCents: 0 });
    expect((await usageError<unknown>(limitCommand, ['1,00'])).flag).toBe('<amount>');
    expect(PLAN_NAMES.length).toBeGreaterThan(1);
    for (const plan of PLAN_NAMES) expect(await typed<unknown>(subscribeCommand, [plan])).toEqual({ plan });
    expect(await refusal(subscribeCommand, ['platinum'])).toBe('commander.invalidArgument');
    expect(await typed<unknown>(cardCommand, ['tok_visa'])).toEqual({ token: 'tok_visa' });
    expect(await refusal(cardCommand, [])).toBe('commander.missingArgument');
    expect(await typed<unknown>(showCommand, [])).toEqual({});
    expect(await typed<unknown>(cancelCommand, [])).toEqual({});
  });

  it('show as people read it: dollars, auto-recharge in a phrase, the card saved or not', () => {
    const rows = billingForPeople({
      plan: 'pro',
      subscription: { status: 'active', currentPeriodEnd: '2026-12-01T00:00:00.000Z' },
      wallet: { balanceCents: 123_456, autoRecharge: { enabled: true, thresholdCents: 500, amountCents: 2000 }, hasCard: true, card: { last4: '4242' } },
      spendLimitCents: 10_000,
      monthToDateCents: 7,
    });
    expect(rows).toMatchObject({ plan: 'pro ($99.00/month)', balance: '$1,234.56', autoRecharge: 'on: below $5.00, add $20.00', card: 'card ending 4242', spendLimit: '$100.00/month', monthToDate: '$0.07' });
  });
});

describe('usage flags', () => {
  it('--from/--to: a date, an instant, now, or a time back', async () => {
    expect(await typed<unknown>(usage, [])).toEqual({ from: undefined, to: undefined });
    expect(await typed<unknown>(usage, ['--from', '2026-11-01', '--to', '2026-11-15T09:30:00+02:00'])).toEqual({
      from: { at: '2026-11-01T00:00:00.000Z' },
      to: { at: '2026-11-15T07:30:00.000Z' },
    });
    expect(await typed<unknown>(usage, ['--from', '7d', '--to', 'now'])).toEqual({ from: { agoSecs: 7 * 86_400 }, to: { agoSecs: 0 } });
    const now = new Date('2026-11-20T12:00:00.000Z');
    expect(resolveWhen({ agoSecs: 86_400 }, now)).toBe('2026-11-19T12:00:00.000Z');
    expect(resolveWhen({ at: '2026-11-01T00:00:00.000Z' }, now)).toBe('2026-11-01T00:00:00.000Z');
    for (const [flag, bad] of [['--from', 'yesterday'], ['--to', '2026-13-45'], ['--from', '2026-11-01T09:00:00']] as const) {
      expect((await usageError<unknown>(usage, [flag, bad])).flag, bad).toBe(flag);
    }
  });
});

describe('groups and triggers', () => {
  it('billing and usage are top-level groups; the money triggers are listed', () => {
    expect(GROUPS.billing).toBeDefined();
    expect(GROUPS.usage).toBeDefined();
    for (const t of ['billing.wallet.low_balance', 'billing.wallet.credited', 'billing.subscription.updated', 'payments.fail-next']) expect(TRIGGERS[t], t).toBeDefined();
  });
});
