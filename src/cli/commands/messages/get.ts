import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printOne } from '../../command-kit.js';
import { MESSAGE_COLUMNS } from './columns.js';

export function getCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('get')
    .description('Show one message: status, carrier reason, segments, media')
    .argument('<id>', 'message id (msg_…)')
    .addHelpText('after', '\nExamples:\n  $ svc messages get msg_01HZX…\n  $ svc messages get msg_01HZX… -o json | jq -r .status')
    .action(async (id: string) => runGet(ctx, id));
}

export async function runGet(ctx: CliContext, id: string): Promise<void> {
  const { getMessage } = await import('../../../api/resources/messages.js');
  await printOne(ctx, await getMessage(await ctx.client(), id), MESSAGE_COLUMNS);
}
