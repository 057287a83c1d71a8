import type { CliContext } from '../../context.js';
import type { ListFlags } from '../../command-kit.js';
import { runList } from '../../run-list.js';
import { requireE164 } from '../../phone-numbers.js';
import { optOutList } from '../../../api/resources/opt-outs.js';

export interface ListOptOutsOptions extends ListFlags {
  from?: string;
  phoneNumber?: string;
}

// contract §4: the consumers opted out of the account's numbers.
const COLUMNS = ['id', 'from', 'phoneNumber', 'keyword', 'createdAt'];

export async function runListOptOuts(ctx: CliContext, opts: ListOptOutsOptions): Promise<void> {
  const query = {
    from: opts.from === undefined ? undefined : requireE164(opts.from, '--from'),
    phoneNumber: opts.phoneNumber === undefined ? undefined : requireE164(opts.phoneNumber, '--phone-number'),
  };
  await runList(ctx, opts, { endpoint: optOutList, query, noun: 'opt-outs', columns: COLUMNS, completeColumns: true });
}
