import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { parseDollars } from '../../money.js';
import { MONEY_LIMITS } from '../../../api/values/billing.js';

export interface TopUpOptions {
  amountCents: number;
  idempotencyKey?: string;
}

export function topUpCommand(parent: Command, ctx: CliContext, runF?: RunF<TopUpOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./billing.run.js')).runTopUp(ctx, opts));
  return parent
    .command('top-up')
    .description('Charge the saved card and add the amount to the prepaid wallet')
    .argument('<amount>', 'dollars: 20, 20.00 or $20')
    .option('--idempotency-key <key>', 'a retry with the same key charges once; generated when omitted')
    .addHelpText(
      'after',
      `
Asks before charging the card (--yes skips). Needs a saved card (svc billing card <token>).

Examples:
  $ svc billing top-up 20
  $ svc billing top-up '$50.00' --yes`,
    )
    .action(async (amount: string, o: { idempotencyKey?: string }) =>
      run({ amountCents: parseDollars(amount, '<amount>', { minCents: MONEY_LIMITS.minTopUpCents, maxCents: MONEY_LIMITS.maxTopUpCents }), idempotencyKey: o.idempotencyKey }),
    );
}
