import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface GetWebhookOptions {
  id: string;
}

export function getCommand(parent: Command, ctx: CliContext, runF?: RunF<GetWebhookOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./get.run.js')).runGet(ctx, opts));
  return parent
    .command('get')
    .description('Show a webhook endpoint (without its secret)')
    .argument('<id>', 'endpoint id (we_…)')
    .addHelpText('after', '\nExamples:\n  $ svc webhooks get we_S8Bq37q53Fx1ZziV3BwL\n  $ svc webhooks get we_S8Bq37q53Fx1ZziV3BwL -o json')
    .action(async (id: string) => run({ id }));
}
