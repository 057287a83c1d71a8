import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { dollars } from '../../money.js';
import { ApiError } from '../../../api/client/errors.js';
import { resolveFormat } from '../../../output/formatters.js';
import { cancelSubscription, getBilling, saveCard, setSpendLimit, subscribe, topUp, updateAutoRecharge } from '../../../api/resources/billing.js';
import type { Billing } from '../../../api/schemas/billing.js';
import { PLANS, SUBSCRIPTION_PERIOD_SECS } from '../../../api/values/billing.js';
import { dollarsArg, requireCard } from './preflight.js';
import { autoRechargeOptionsOf, limitOptionsOf, topUpOptionsOf, type AutoRechargeFlags, type CardOptions, type LimitFlags, type SubscribeOptions, type TopUpFlags } from './flags.js';

// The billing verbs (contract §11). cli.md "Money": dollars in tables, the API's cents elsewhere.

const PERIOD_DAYS = SUBSCRIPTION_PERIOD_SECS / 86_400;

/** The billing as people read it: one row per fact, amounts in dollars. */
export function billingForPeople(b: Billing): Record<string, string | null> {
  const ar = b.wallet.autoRecharge;
  return {
    plan: `${b.plan}${PLANS[b.plan] ? ` (${dollars(PLANS[b.plan])}/month)` : ''}`,
    subscription: b.subscription.status,
    currentPeriodEnd: b.subscription.currentPeriodEnd,
    balance: dollars(b.wallet.balanceCents),
    autoRecharge: ar.enabled ? `on: below ${dollars(ar.thresholdCents)}, add ${dollars(ar.amountCents)}` : `off (below ${dollars(ar.thresholdCents)}, add ${dollars(ar.amountCents)} when on)`,
    card: b.wallet.card ? `card ending ${b.wallet.card.last4}` : b.wallet.hasCard ? 'saved' : 'none (svc billing card <token>)',
    spendLimit: `${dollars(b.spendLimitCents)}/month`,
    monthToDate: dollars(b.monthToDateCents),
  };
}

/**
 * A 402 from a card charge is the card declining, not the wallet running dry: the hint says so
 * (main.ts would otherwise suggest a top-up, the very thing that failed).
 */
async function cardHint<T>(again: string, act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'payment_required' && !err.hint) {
      err.hint = `the card was declined: save another with \`svc billing card <token>\`, then run \`${again}\` again`;
    }
    throw err;
  }
}

async function printBilling(ctx: CliContext, billing: Billing): Promise<void> {
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'resource' });
  if (format === 'table') await printOne(ctx, billingForPeople(billing));
  else await printOne(ctx, billing);
}

export async function runShowBilling(ctx: CliContext): Promise<void> {
  await printBilling(ctx, await getBilling(await ctx.client()));
}

export async function runTopUp(ctx: CliContext, flags: TopUpFlags): Promise<void> {
  const opts = topUpOptionsOf(flags);
  const client = await ctx.client();
  const again = `svc billing top-up ${dollarsArg(opts.amountCents)}`;
  await requireCard(ctx, client, 'a top-up', again);
  await ctx.confirm(`Charge ${dollars(opts.amountCents)} to the saved card and add it to the wallet?`);
  const billing = await cardHint(again, () => topUp(client, opts.amountCents, { idempotencyKey: opts.idempotencyKey }));
  await printBilling(ctx, billing);
  notice(ctx, `added ${dollars(opts.amountCents)}; the balance is ${dollars(billing.wallet.balanceCents)}`);
}

export async function runAutoRecharge(ctx: CliContext, flags: AutoRechargeFlags): Promise<void> {
  const billing = await updateAutoRecharge(await ctx.client(), autoRechargeOptionsOf(flags));
  await printBilling(ctx, billing);
  const ar = billing.wallet.autoRecharge;
  if (ar.enabled && !billing.wallet.hasCard) notice(ctx, 'auto-recharge is on but no card is saved: it cannot recharge until `svc billing card <token>`');
}

export async function runLimit(ctx: CliContext, flags: LimitFlags): Promise<void> {
  const opts = limitOptionsOf(flags);
  const client = await ctx.client();
  if (!client.dryRun) {
    const now = await getBilling(client);
    const below = opts.spendLimitCents < now.monthToDateCents ? '; that is below this month’s spend, so billable actions are refused until next month' : '';
    await ctx.confirm(
      `Set the monthly spend limit to ${dollars(opts.spendLimitCents)} (now ${dollars(now.spendLimitCents)}; ${dollars(now.monthToDateCents)} spent this month${below})?`,
    );
  }
  await printBilling(ctx, await setSpendLimit(client, opts.spendLimitCents));
}

export async function runSubscribe(ctx: CliContext, opts: SubscribeOptions): Promise<void> {
  const client = await ctx.client();
  const price = PLANS[opts.plan];
  // money-api: a paid plan is charged in full at once, then at each renewal.
  const cost = price ? `${dollars(price)} charged to the saved card now, then every ${PERIOD_DAYS} days` : 'free';
  if (price) await requireCard(ctx, client, `the ${opts.plan} plan`, `svc billing subscribe ${opts.plan}`);
  await ctx.confirm(`Subscribe to the ${opts.plan} plan (${cost})?`);
  await printBilling(ctx, await cardHint(`svc billing subscribe ${opts.plan}`, () => subscribe(client, opts.plan)));
}

export async function runCancelSubscription(ctx: CliContext): Promise<void> {
  const client = await ctx.client();
  if (!client.dryRun) {
    const now = await getBilling(client);
    const until = now.subscription.currentPeriodEnd ? ` (paid until ${now.subscription.currentPeriodEnd})` : '';
    await ctx.confirm(`Cancel the ${now.plan} subscription${until}?`);
  }
  await printBilling(ctx, await cancelSubscription(client));
}

export async function runCard(ctx: CliContext, opts: CardOptions): Promise<void> {
  await printBilling(ctx, await saveCard(await ctx.client(), opts.token));
}
