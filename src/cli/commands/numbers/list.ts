import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, enumOption, runList, type ListFlags } from '../../command-kit.js';
import { NUMBER_LIST_COLUMNS } from './columns.js';

export interface ListNumbersOptions extends ListFlags {
  status?: 'live' | 'idle' | 'pending' | 'released';
  type?: 'local' | 'tollfree';
  campaign?: string;
}

export function listCommand(parent: Command, ctx: CliContext): Command {
  return addListOptions(parent.command('list').description('List your numbers, newest first (released ones only with --status released)'))
    .addOption(enumOption('--status <status>', 'live, idle, pending or released', ['live', 'idle', 'pending', 'released']))
    .addOption(enumOption('--type <type>', 'local or tollfree', ['local', 'tollfree']))
    .option('--campaign <id>', 'numbers assigned to this 10DLC campaign')
    .addHelpText('after', '\nExamples:\n  $ svc numbers list\n  $ svc numbers list --type tollfree -o csv\n  $ svc numbers list --status released --all -o ids')
    .action(async (o: ListNumbersOptions) => runListNumbers(ctx, o));
}

export async function runListNumbers(ctx: CliContext, opts: ListNumbersOptions): Promise<void> {
  await runList(ctx, opts, {
    path: '/v1/numbers',
    query: { status: opts.status, type: opts.type, campaignId: opts.campaign },
    noun: 'numbers',
    columns: NUMBER_LIST_COLUMNS,
    // csv: every column of a number from the first page on (an emergency address null on page 1).
    allColumns: async () => (await import('../../../output/schema-columns.js')).schemaColumns((await import('../../../api/schemas/numbers.js')).PhoneNumberSchema),
  });
}
