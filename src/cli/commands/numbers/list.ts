import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, enumOption, type ListFlags, type RunF } from '../../command-kit.js';
import { NUMBER_STATUSES, NUMBER_TYPES } from '../../../api/values/numbers.js';

export interface ListNumbersOptions extends ListFlags {
  status?: (typeof NUMBER_STATUSES)[number];
  type?: (typeof NUMBER_TYPES)[number];
  campaign?: string;
}

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListNumbersOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./list.run.js')).runListNumbers(ctx, opts));
  return addListOptions(parent.command('list').description('List your numbers, newest first (released ones only with --status released)'))
    .addOption(enumOption('--status <status>', 'live, idle, pending or released', NUMBER_STATUSES))
    .addOption(enumOption('--type <type>', 'local or tollfree', NUMBER_TYPES))
    .option('--campaign <id>', 'numbers assigned to this 10DLC campaign')
    .addHelpText('after', '\nExamples:\n  $ svc numbers list\n  $ svc numbers list --type tollfree -o csv\n  $ svc numbers list --status released --all -o ids')
    .action(async (o: ListNumbersOptions) => run(o));
}
