import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { notice, printOne } from '../../command-kit.js';
import { NUMBER_COLUMNS } from './columns.js';

export function releaseCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('release')
    .description('Release a number back to the carrier (asks first)')
    .argument('<number>', 'number id (num_…) or E.164')
    .addHelpText(
      'after',
      `
The number stops sending and receiving at once, leaves its campaign and loses emergency calling.
Without a terminal, pass --yes (otherwise exit 2, nothing released). Releasing twice: exit 5.

Examples:
  $ svc numbers release +14155550123
  $ svc numbers release num_01HZX… --yes`,
    )
    .action(async (number: string) => runRelease(ctx, number));
}

export async function runRelease(ctx: CliContext, number: string): Promise<void> {
  const { numberRef } = await import('../../phone-numbers.js');
  const ref = numberRef(number);
  await ctx.confirm(`Release ${ref}? It goes back to the carrier and stops sending and receiving at once.`);
  const { releaseNumber } = await import('../../../api/resources/numbers.js');
  const released = await releaseNumber(await ctx.client(), ref);
  await printOne(ctx, released, NUMBER_COLUMNS);
  if (ctx.io.stderrTTY) notice(ctx, `released ${released.phoneNumber}`);
}
