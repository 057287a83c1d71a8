import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { CliError, UsageError } from '../../errors.js';
import { printOne } from '../../print-resource.js';
import { dollars, parseDollars } from '../../money.js';
import { billingForPeople } from '../billing/billing.run.js';
import { resolveFormat } from '../../../output/formatters.js';
import { cancelSubscription, getBilling, subscribe, topUp } from '../../../api/resources/billing.js';
import { failNextPayment, setSandboxWallet } from '../../../api/resources/sandbox-billing.js';
import { advanceClock } from '../../../api/resources/sandbox.js';
import type { Billing } from '../../../api/schemas/billing.js';
import { MONEY_LIMITS, SANDBOX_CARD_TOKEN } from '../../../api/values/billing.js';
import type { Plan, SubscriptionStatus } from '../../../api/values/billing.js';

export interface LowBalanceOptions {
  balance?: string;
}

export interface CreditedOptions {
  amount: string;
}

export interface SubscriptionUpdatedOptions {
  status: SubscriptionStatus;
  plan: Plan;
}

async function print(ctx: CliContext, billing: Billing): Promise<void> {
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'resource' });
  await printOne(ctx, format === 'table' ? billingForPeople(billing) : billing);
}

const needsCard = (b: Billing, what: string): void => {
  if (!b.wallet.hasCard) throw new CliError(`${what} needs a saved card: svc billing card ${SANDBOX_CARD_TOKEN}`);
};

export async function runLowBalance(ctx: CliContext, opts: LowBalanceOptions): Promise<void> {
  const reader = await ctx.readClient();
  const before = await getBilling(reader);
  const threshold = before.wallet.autoRecharge.thresholdCents;
  if (threshold === 0) throw new CliError('the recharge threshold is $0.00, so no balance is below it: svc billing auto-recharge --threshold 5');
  const balance = opts.balance === undefined ? threshold - 1 : parseDollars(opts.balance, '--balance');
  if (balance >= threshold) throw new UsageError(`--balance: ${dollars(balance)} is not below the threshold of ${dollars(threshold)}`, '--balance');
  const client = await ctx.client();
  // spec: low_balance fires once per crossing: from at (or above) the threshold to below it.
  await setSandboxWallet(client, threshold);
  const after = await setSandboxWallet(client, balance);
  await print(ctx, after);
  const started = before.wallet.autoRecharge.enabled && before.wallet.hasCard;
  notice(ctx, `the wallet dropped to ${dollars(balance)}, below ${dollars(threshold)}: billing.wallet.low_balance${started ? ', and an auto-recharge' : ' (auto-recharge not started)'}`);
}

export async function runCredited(ctx: CliContext, opts: CreditedOptions): Promise<void> {
  const amountCents = parseDollars(opts.amount, '--amount', { minCents: MONEY_LIMITS.minTopUpCents, maxCents: MONEY_LIMITS.maxTopUpCents });
  const client = await ctx.client();
  if (!client.dryRun) needsCard(await getBilling(client), 'a top-up');
  const after = await topUp(client, amountCents);
  await print(ctx, after);
  notice(ctx, `the saved card paid ${dollars(amountCents)} into the wallet: billing.wallet.credited (top_up); the balance is ${dollars(after.wallet.balanceCents)}`);
}

export async function runSubscriptionUpdated(ctx: CliContext, opts: SubscriptionUpdatedOptions): Promise<void> {
  const client = await ctx.client();
  let after: Billing;
  if (opts.status === 'active') {
    after = await subscribe(client, opts.plan);
  } else if (opts.status === 'canceled') {
    after = await cancelSubscription(client);
  } else {
    const before = await getBilling(client);
    const end = before.subscription.currentPeriodEnd;
    if (before.subscription.status !== 'active' || !end || before.plan === 'free') {
      throw new CliError(`past_due needs an active paid subscription to renew (now: ${before.plan}, ${before.subscription.status}): svc trigger billing.subscription.updated --status active --plan starter`);
    }
    await failNextPayment(client);
    // The renewal falls due at the end of the period; the clock walks to it (and runs what else is due).
    const secs = Math.max(1, Math.ceil((Date.parse(end) - ctx.serviceNow().getTime()) / 1000) + 1);
    await advanceClock(client, secs);
    after = await getBilling(client);
  }
  await print(ctx, after);
  notice(ctx, `the subscription is ${after.subscription.status} (${after.plan}): billing.subscription.updated`);
}

export async function runFailNext(ctx: CliContext): Promise<void> {
  await failNextPayment(await ctx.client());
  notice(ctx, 'the next card charge fails (provider_error); the one after it goes through');
}
