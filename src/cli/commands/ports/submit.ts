import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface SubmitPortOptions {
  port: string;
}

export function submitCommand(parent: Command, ctx: CliContext, runF?: RunF<SubmitPortOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./ports.run.js')).runSubmitPort(ctx, opts));
  return parent
    .command('submit')
    .description('Submit a port request (needs an loa and a bill attached); the FOC date follows in about a day')
    .argument('<port>', 'port id')
    .addHelpText('after', '\nExamples:\n  $ svc ports submit port_tSiKSSom525KjQpOYVaX')
    .action(async (port: string) => run({ port }));
}
