import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface GetBrandOptions {
  brand: string;
}

export function getCommand(parent: Command, ctx: CliContext, runF?: RunF<GetBrandOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./brands.run.js')).runGetBrand(ctx, opts));
  return parent
    .command('get')
    .description('Show a brand: its status, identity, vetting and hosted compliance page URLs')
    .argument('<brand>', 'brand id')
    .addHelpText('after', '\nExamples:\n  $ svc brands get 0b6f…\n  $ svc brands get 0b6f… -o json')
    .action(async (brand: string) => run({ brand }));
}
