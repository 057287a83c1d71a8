import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { ENDPOINT_LIST_COLUMNS } from './columns.js';

export function listCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('list')
    .description('List webhook endpoints (all of them, newest first; secrets are never shown)')
    .addHelpText('after', '\nExamples:\n  $ svc webhooks list\n  $ svc webhooks list -o ids')
    .action(async () => runListWebhooks(ctx));
}

export async function runListWebhooks(ctx: CliContext): Promise<void> {
  const { listWebhooks } = await import('../../../api/resources/webhooks.js');
  const { printList } = await import('../../../output/formatters.js');
  const endpoints = await listWebhooks(await ctx.client());
  await printList(ctx.io, endpoints, { format: ctx.outputFormat, columns: ENDPOINT_LIST_COLUMNS, now: ctx.now() });
  if (endpoints.length === 0 && ctx.io.stderrTTY) notice(ctx, 'no webhook endpoints found (svc webhooks create --url …)');
}
