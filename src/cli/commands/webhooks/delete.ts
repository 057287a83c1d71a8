import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';

export function deleteCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('delete')
    .description('Delete a webhook endpoint and its delivery log (asks first)')
    .argument('<id>', 'endpoint id (we_…)')
    .addHelpText(
      'after',
      `
Scheduled retries stop at once. Without a terminal, pass --yes (otherwise exit 2, nothing deleted).

Examples:
  $ svc webhooks delete we_123
  $ svc webhooks delete we_123 --yes`,
    )
    .action(async (id: string) => runDelete(ctx, id));
}

export async function runDelete(ctx: CliContext, id: string): Promise<void> {
  await ctx.confirm(`Delete webhook endpoint ${id} and its delivery log? Scheduled retries stop at once.`);
  const { deleteWebhook } = await import('../../../api/resources/webhooks.js');
  await deleteWebhook(await ctx.client(), id);
  notice(ctx, `deleted ${id}`);
}
