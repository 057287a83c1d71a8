import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { parseDollars } from '../../money.js';
import { MONEY_LIMITS } from '../../../api/values/billing.js';

export interface AutoRechargeOptions {
  enabled?: boolean;
  thresholdCents?: number;
  amountCents?: number;
}

export function autoRechargeCommand(parent: Command, ctx: CliContext, runF?: RunF<AutoRechargeOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./billing.run.js')).runAutoRecharge(ctx, opts));
  return parent
    .command('auto-recharge')
    .description('Turn wallet auto-recharge on or off, and set when it recharges and by how much')
    .option('--enable', 'recharge from the saved card when the balance falls below the threshold')
    .option('--disable', 'never recharge on its own')
    .option('--threshold <amount>', 'recharge when the balance falls below this (dollars)')
    .option('--amount <amount>', 'how much each recharge adds (dollars)')
    .addHelpText(
      'after',
      `
Give --enable or --disable, --threshold and --amount alone change the settings as they are.
Auto-recharge charges the saved card (svc billing card <token>).

Examples:
  $ svc billing auto-recharge --enable --threshold 5 --amount 20
  $ svc billing auto-recharge --threshold 10
  $ svc billing auto-recharge --disable`,
    )
    .action(async (o: { enable?: boolean; disable?: boolean; threshold?: string; amount?: string }) => {
      if (o.enable && o.disable) throw new UsageError('--enable and --disable: give one of them', '--enable');
      if (!o.enable && !o.disable && o.threshold === undefined && o.amount === undefined) {
        throw new UsageError('give --enable, --disable, --threshold or --amount', '--enable');
      }
      const opts: AutoRechargeOptions = {};
      if (o.enable || o.disable) opts.enabled = Boolean(o.enable);
      if (o.threshold !== undefined) opts.thresholdCents = parseDollars(o.threshold, '--threshold', { minCents: 0, maxCents: MONEY_LIMITS.maxThresholdCents });
      if (o.amount !== undefined) opts.amountCents = parseDollars(o.amount, '--amount', { minCents: MONEY_LIMITS.minTopUpCents, maxCents: MONEY_LIMITS.maxTopUpCents });
      await run(opts);
    });
}
