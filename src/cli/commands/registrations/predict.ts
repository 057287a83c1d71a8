import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface PredictOptions {
  file: string;
}

export function predictCommand(parent: Command, ctx: CliContext, runF?: RunF<PredictOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./registrations.run.js')).runPredict(ctx, opts));
  return parent
    .command('predict')
    .description('The approval prediction of a registration file: score, band, and each check with its suggestion')
    .requiredOption('-f, --file <file>', 'YAML or JSON {brand?, campaign} (API field names); - for stdin')
    .addHelpText('after', '\nFree, and nothing is registered (svc campaigns lint exits 1 below high).\n\nExamples:\n  $ svc registrations predict -f registration.yaml\n  $ svc registrations predict -f registration.yaml -o json')
    .action(async (o: { file: string }) => run({ file: o.file }));
}
