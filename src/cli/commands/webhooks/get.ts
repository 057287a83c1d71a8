import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printOne } from '../../command-kit.js';
import { ENDPOINT_COLUMNS } from './columns.js';

export function getCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('get')
    .description('Show a webhook endpoint (without its secret)')
    .argument('<id>', 'endpoint id (we_…)')
    .addHelpText('after', '\nExamples:\n  $ svc webhooks get we_123\n  $ svc webhooks get we_123 -o json')
    .action(async (id: string) => runGet(ctx, id));
}

export async function runGet(ctx: CliContext, id: string): Promise<void> {
  const { getWebhook } = await import('../../../api/resources/webhooks.js');
  await printOne(ctx, await getWebhook(await ctx.client(), id), ENDPOINT_COLUMNS);
}
