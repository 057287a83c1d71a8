import type { CliContext } from '../../context.js';
import type { ListFlags } from '../../command-kit.js';
import type { MESSAGE_DIRECTIONS, MessageStatusValue } from '../../../api/values/messages.js';
import { runList } from '../../run-list.js';
import { requireE164 } from '../../phone-numbers.js';
import { messageList } from '../../../api/resources/messages.js';
import { MESSAGE_LIST_COLUMNS } from './columns.js';

export interface ListMessagesOptions extends ListFlags {
  direction?: (typeof MESSAGE_DIRECTIONS)[number];
  from?: string;
  to?: string;
  status?: MessageStatusValue;
}

export async function runListMessages(ctx: CliContext, opts: ListMessagesOptions): Promise<void> {
  const query = {
    direction: opts.direction,
    from: opts.from === undefined ? undefined : requireE164(opts.from, '--from'),
    to: opts.to === undefined ? undefined : requireE164(opts.to, '--to'),
    status: opts.status,
  };
  await runList(ctx, opts, { endpoint: messageList, query, noun: 'messages', columns: MESSAGE_LIST_COLUMNS, completeColumns: true });
}
