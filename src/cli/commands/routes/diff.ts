import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface DiffRouteOptions {
  number: string;
  file: string;
}

export function diffCommand(parent: Command, ctx: CliContext, runF?: RunF<DiffRouteOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./diff.run.js')).runDiff(ctx, opts));
  return parent
    .command('diff')
    .description('Show the change a route document would make (exit 0: none, 1: changes, 2 or more: an error)')
    .argument('<number>', 'number id (num_…) or E.164')
    .requiredOption('-f, --file <file>', 'the route document, YAML or JSON (- for stdin)')
    .addHelpText('after', '\nExamples:\n  $ svc routes diff +14155550123 -f route.yaml\n  $ svc routes diff +14155550123 -f route.yaml && echo "up to date"')
    .action(async (number: string, flags: { file: string }) => run({ number, file: flags.file }));
}
