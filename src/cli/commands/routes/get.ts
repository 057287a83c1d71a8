import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface GetRouteOptions {
  number: string;
}

export function getCommand(parent: Command, ctx: CliContext, runF?: RunF<GetRouteOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./get.run.js')).runGet(ctx, opts));
  return parent
    .command('get')
    .description("Show a number's call route (-o yaml: the document `apply` takes)")
    .argument('<number>', 'number id (num_…) or E.164')
    .addHelpText('after', '\nExamples:\n  $ svc routes get +14155550123\n  $ svc routes get +14155550123 -o yaml > route.yaml\n  $ svc routes get num_n0STtke71XAzVlsShJVy -o json')
    .action(async (number: string) => run({ number }));
}
