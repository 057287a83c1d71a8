import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<void>): Command {
  const run = runF ?? (async () => (await import('./list.run.js')).runListWebhooks(ctx));
  return parent
    .command('list')
    .description('List webhook endpoints (all of them, newest first; secrets are never shown)')
    .addHelpText('after', '\nExamples:\n  $ svc webhooks list\n  $ svc webhooks list -o ids')
    .action(async () => run());
}
