import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, runList, type ListFlags } from '../../command-kit.js';

const COLUMNS = ['counterparty', 'direction', 'lastAt', 'lastBody', 'lastMessageId'];

export function listCommand(parent: Command, ctx: CliContext): Command {
  return addListOptions(parent.command('list').description('List conversations, one per counterparty, most recent first'))
    .addHelpText('after', '\nExamples:\n  $ svc conversations list\n  $ svc conversations list --all -o csv > conversations.csv')
    .action(async (o: ListFlags) => runListConversations(ctx, o));
}

export async function runListConversations(ctx: CliContext, flags: ListFlags): Promise<void> {
  await runList(ctx, flags, {
    path: '/v1/conversations',
    noun: 'conversations',
    columns: COLUMNS,
    // A conversation has no id of its own: `-o ids` prints the counterparty (`conversations show` takes it).
    idField: 'counterparty',
    allColumns: async () => (await import('../../../output/schema-columns.js')).schemaColumns((await import('../../../api/schemas/conversations.js')).ConversationSummarySchema),
  });
}
