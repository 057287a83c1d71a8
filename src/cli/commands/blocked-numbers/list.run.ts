import type { CliContext } from '../../context.js';
import type { ListFlags } from '../../command-kit.js';
import { runList } from '../../run-list.js';
import { blockedNumberList } from '../../../api/resources/blocked-numbers.js';
import { BLOCKED_LIST_COLUMNS } from './columns.js';

export interface ListBlockedOptions extends ListFlags {
  suggested?: boolean;
}

export async function runListBlocked(ctx: CliContext, opts: ListBlockedOptions): Promise<void> {
  await runList(ctx, opts, {
    endpoint: blockedNumberList,
    query: { autoSuggested: opts.suggested ? true : undefined },
    noun: opts.suggested ? 'suggested blocks' : 'blocked numbers',
    columns: BLOCKED_LIST_COLUMNS,
  });
}
