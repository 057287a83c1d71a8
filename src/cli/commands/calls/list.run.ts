import type { CliContext } from '../../context.js';
import { runList } from '../../run-list.js';
import { callList } from '../../../api/resources/calls.js';
import { CALL_LIST_COLUMNS } from './columns.js';
import type { ListCallsOptions } from './list.js';

export async function runListCalls(ctx: CliContext, opts: ListCallsOptions): Promise<void> {
  await runList(ctx, opts, {
    endpoint: callList,
    query: { status: opts.status, direction: opts.direction },
    noun: 'calls',
    columns: CALL_LIST_COLUMNS,
    // csv: every column from the first page on (a first page of unanswered calls has no answeredBy).
    completeColumns: true,
  });
}
