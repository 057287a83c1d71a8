import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface ApplyRouteOptions {
  number: string;
  file: string;
}

export function applyCommand(parent: Command, ctx: CliContext, runF?: RunF<ApplyRouteOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./apply.run.js')).runApply(ctx, opts));
  return parent
    .command('apply')
    .description("Replace a number's call route with a YAML or JSON document (--dry-run: show the change, send nothing)")
    .argument('<number>', 'number id (num_…) or E.164')
    .requiredOption('-f, --file <file>', 'the route document, YAML or JSON (- for stdin)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ svc routes get +14155550123 -o yaml > route.yaml\n  $ svc routes apply +14155550123 -f route.yaml\n  $ svc routes apply +14155550123 -f route.yaml --dry-run\n  $ cat route.json | svc routes apply num_n0STtke71XAzVlsShJVy -f -',
    )
    .action(async (number: string, flags: { file: string }) => run({ number, file: flags.file }));
}
