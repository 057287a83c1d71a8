import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface ResubmitBrandOptions {
  brand: string;
}

export function resubmitCommand(parent: Command, ctx: CliContext, runF?: RunF<ResubmitBrandOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./brands.run.js')).runResubmitBrand(ctx, opts));
  return parent
    .command('resubmit')
    .description('Send a rejected brand to the registry again (after fixing it with svc brands update)')
    .argument('<brand>', 'brand id')
    .addHelpText('after', '\nExamples:\n  $ svc brands update 0b6f… --ein 12-3456789 && svc brands resubmit 0b6f…')
    .action(async (brand: string) => run({ brand }));
}
