import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { parseDollars } from '../../money.js';
import { MONEY_LIMITS } from '../../../api/values/billing.js';

export interface LimitOptions {
  spendLimitCents: number;
}

export function limitCommand(parent: Command, ctx: CliContext, runF?: RunF<LimitOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./billing.run.js')).runLimit(ctx, opts));
  return parent
    .command('limit')
    .description('Set the monthly spend limit (a billable action past it is refused: exit 7)')
    .argument('<amount>', 'dollars: 100, 100.00 or $100')
    .addHelpText(
      'after',
      `
Asks first, showing the limit now and the spend so far this month (--yes skips).

Examples:
  $ svc billing limit 250
  $ svc billing limit '$1,000' --yes`,
    )
    .action(async (amount: string) => run({ spendLimitCents: parseDollars(amount, '<amount>', { minCents: 0, maxCents: MONEY_LIMITS.maxSpendLimitCents }) }));
}
