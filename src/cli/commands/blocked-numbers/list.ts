import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, type ListFlags, type RunF } from '../../command-kit.js';

export interface ListBlockedOptions extends ListFlags {
  suggested?: boolean;
}

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListBlockedOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./list.run.js')).runListBlocked(ctx, opts));
  return addListOptions(parent.command('list').description('List the inbound call blocklist: confirmed entries and suggestions'))
    .option('--suggested', 'only the entries the service suggested (not enforced until confirmed)')
    .addHelpText(
      'after',
      `
The service suggests a caller after 5 inbound calls from it within an hour that each ended
unanswered or under 5 s; a suggestion blocks nothing until you confirm it (svc blocked-numbers confirm).

Examples:
  $ svc blocked-numbers list
  $ svc blocked-numbers list --suggested -o ids`,
    )
    .action(async (o: ListBlockedOptions) => run(o));
}
