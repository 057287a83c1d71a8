import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, enumOption, type ListFlags, type RunF } from '../../command-kit.js';
import { BRAND_STATUSES, type BrandStatus } from '../../../api/values/registration.js';

export interface ListBrandsOptions extends ListFlags {
  status?: BrandStatus;
}

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListBrandsOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./brands.run.js')).runListBrands(ctx, opts));
  return addListOptions(parent.command('list').description('List your 10DLC brands, newest first'))
    .addOption(enumOption('--status <status>', BRAND_STATUSES.join(', '), BRAND_STATUSES))
    .addHelpText('after', '\nExamples:\n  $ svc brands list\n  $ svc brands list --status approved -o ids')
    .action(async (o: ListBrandsOptions) => run(o));
}
