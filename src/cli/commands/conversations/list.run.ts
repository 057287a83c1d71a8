import type { CliContext } from '../../context.js';
import type { ListFlags } from '../../command-kit.js';
import { runList } from '../../run-list.js';
import { conversationList } from '../../../api/resources/conversations.js';

const COLUMNS = ['counterparty', 'direction', 'lastAt', 'lastBody', 'lastMessageId'];

export async function runListConversations(ctx: CliContext, flags: ListFlags): Promise<void> {
  await runList(ctx, flags, {
    endpoint: conversationList,
    noun: 'conversations',
    columns: COLUMNS,
    // A conversation has no id of its own: `-o ids` prints the counterparty (`conversations show` takes it).
    idField: 'counterparty',
    completeColumns: true,
  });
}
