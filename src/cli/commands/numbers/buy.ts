import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface BuyOptions {
  phoneNumber: string;
}

export function buyCommand(parent: Command, ctx: CliContext, runF?: RunF<BuyOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./buy.run.js')).runBuy(ctx, opts));
  return parent
    .command('buy')
    .description('Buy a number found with `svc numbers search` (asks first, showing the monthly price)')
    .argument('<number>', 'the number to buy, E.164')
    .addHelpText(
      'after',
      `
The command looks the number up in the carrier's inventory to show its monthly price, then asks.
A number that is not for sale (taken, or not in the inventory) is refused before anything is bought
(exit 5). Without a terminal, pass --yes (otherwise exit 2, nothing bought).

Examples:
  $ svc numbers buy +14155550123
  $ svc numbers buy +18885550123 --yes -o json`,
    )
    .action(async (phoneNumber: string) => run({ phoneNumber }));
}
