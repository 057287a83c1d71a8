import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface DeleteWebhookOptions {
  id: string;
}

export function deleteCommand(parent: Command, ctx: CliContext, runF?: RunF<DeleteWebhookOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./delete.run.js')).runDelete(ctx, opts));
  return parent
    .command('delete')
    .description('Delete a webhook endpoint and its delivery log (asks first)')
    .argument('<id>', 'endpoint id (we_…)')
    .addHelpText(
      'after',
      `
Scheduled retries stop at once. Without a terminal, pass --yes (otherwise exit 2, nothing deleted).

Examples:
  $ svc webhooks delete we_S8Bq37q53Fx1ZziV3BwL
  $ svc webhooks delete we_S8Bq37q53Fx1ZziV3BwL --yes`,
    )
    .action(async (id: string) => run({ id }));
}
