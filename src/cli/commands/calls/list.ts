import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, enumOption, type ListFlags, type RunF } from '../../command-kit.js';
import { CALL_DIRECTIONS, CALL_STATUSES, type CallStatus } from '../../../api/values/calls.js';

export interface ListCallsOptions extends ListFlags {
  status?: CallStatus;
  direction?: (typeof CALL_DIRECTIONS)[number];
}

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListCallsOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./list.run.js')).runListCalls(ctx, opts));
  return addListOptions(parent.command('list').description('List calls, newest first'))
    .addOption(enumOption('--status <status>', CALL_STATUSES.join(', '), CALL_STATUSES))
    .addOption(enumOption('--direction <direction>', 'inbound or outbound', CALL_DIRECTIONS))
    .addHelpText('after', '\nExamples:\n  $ svc calls list\n  $ svc calls list --status missed --direction inbound\n  $ svc calls list --all -o csv > calls.csv')
    .action(async (o: ListCallsOptions) => run(o));
}
