import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface CancelPortOptions {
  port: string;
}

export function cancelCommand(parent: Command, ctx: CliContext, runF?: RunF<CancelPortOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./ports.run.js')).runCancelPort(ctx, opts));
  return parent
    .command('cancel')
    .description('Cancel a port request')
    .argument('<port>', 'port id')
    .addHelpText('after', '\nExamples:\n  $ svc ports cancel port_tSiKSSom525KjQpOYVaX')
    .action(async (port: string) => run({ port }));
}
