import type { CliContext } from '../../context.js';
import { runList } from '../../run-list.js';
import { blockedNumberList } from '../../../api/resources/blocked-numbers.js';
import { BLOCKED_LIST_COLUMNS } from './columns.js';
import type { ListBlockedOptions } from './list.js';

export async function runListBlocked(ctx: CliContext, opts: ListBlockedOptions): Promise<void> {
  await runList(ctx, opts, {
    endpoint: blockedNumberList,
    query: { autoSuggested: opts.suggested ? true : undefined },
    noun: opts.suggested ? 'suggested blocks' : 'blocked numbers',
    columns: BLOCKED_LIST_COLUMNS,
  });
}
