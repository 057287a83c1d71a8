import type { CliContext } from '../../context.js';
import { runList } from '../../run-list.js';
import { numberList } from '../../../api/resources/numbers.js';
import { NUMBER_LIST_COLUMNS } from './columns.js';
import type { ListNumbersOptions } from './options.js';

export async function runListNumbers(ctx: CliContext, opts: ListNumbersOptions): Promise<void> {
  await runList(ctx, opts, {
    endpoint: numberList,
    query: { status: opts.status, type: opts.type, campaignId: opts.campaign },
    noun: 'numbers',
    columns: NUMBER_LIST_COLUMNS,
    // csv: every column of a number from the first page on (an emergency address null on page 1).
    completeColumns: true,
  });
}
