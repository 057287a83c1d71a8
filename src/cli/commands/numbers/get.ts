import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface GetNumberOptions {
  number: string;
}

export function getCommand(parent: Command, ctx: CliContext, runF?: RunF<GetNumberOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./get.run.js')).runGet(ctx, opts));
  return parent
    .command('get')
    .description('Show one of your numbers')
    .argument('<number>', 'number id (num_…) or E.164')
    .addHelpText('after', '\nExamples:\n  $ svc numbers get +14155550123\n  $ svc numbers get num_n0STtke71XAzVlsShJVy -o json')
    .action(async (number: string) => run({ number }));
}
