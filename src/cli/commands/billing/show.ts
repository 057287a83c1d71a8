import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export type ShowBillingOptions = Record<string, never>;

export function showCommand(parent: Command, ctx: CliContext, runF?: RunF<ShowBillingOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./billing.run.js')).runShowBilling(ctx, opts));
  return parent
    .command('show')
    .description('Show the plan, subscription, wallet balance, auto-recharge, card, spend limit and month-to-date spend')
    .addHelpText(
      'after',
      `
On a terminal amounts show in dollars ($20.00); -o json, yaml, ndjson and csv (and piped output)
keep the API's integer cents (balanceCents, spendLimitCents, monthToDateCents).

Examples:
  $ svc billing show
  $ svc billing show -o json`,
    )
    .action(async () => run({}));
}
