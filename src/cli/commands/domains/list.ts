import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, enumOption, type ListFlags, type RunF } from '../../command-kit.js';
import { DOMAIN_STATUSES, type DomainStatus } from '../../../api/values/email.js';

export interface ListDomainsOptions extends ListFlags {
  status?: DomainStatus;
}

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListDomainsOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./domains.run.js')).runListDomains(ctx, opts));
  return addListOptions(parent.command('list').description('List your sending domains, newest first'))
    .addOption(enumOption('--status <status>', DOMAIN_STATUSES.join(', '), DOMAIN_STATUSES))
    .addHelpText('after', '\nExamples:\n  $ svc domains list\n  $ svc domains list --status pending --all')
    .action(async (o: ListDomainsOptions) => run(o));
}
