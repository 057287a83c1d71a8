import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printOne } from '../../command-kit.js';
import { NUMBER_COLUMNS } from './columns.js';

export function getCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('get')
    .description('Show one of your numbers')
    .argument('<number>', 'number id (num_…) or E.164')
    .addHelpText('after', '\nExamples:\n  $ svc numbers get +14155550123\n  $ svc numbers get num_01HZX… -o json')
    .action(async (number: string) => runGet(ctx, number));
}

export async function runGet(ctx: CliContext, number: string): Promise<void> {
  const { numberRef } = await import('../../phone-numbers.js');
  const { getNumber } = await import('../../../api/resources/numbers.js');
  await printOne(ctx, await getNumber(await ctx.client(), numberRef(number)), NUMBER_COLUMNS);
}
