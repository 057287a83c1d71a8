import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface GetPortOptions {
  port: string;
}

export function getCommand(parent: Command, ctx: CliContext, runF?: RunF<GetPortOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./ports.run.js')).runGetPort(ctx, opts));
  return parent
    .command('get')
    .description('Show a port request: status, documents, FOC date')
    .argument('<port>', 'port id')
    .addHelpText('after', '\nExamples:\n  $ svc ports get port_tSiKSSom525KjQpOYVaX -o json')
    .action(async (port: string) => run({ port }));
}
