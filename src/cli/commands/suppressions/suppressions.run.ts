import type { CliContext } from '../../context.js';
import type { ListFlags } from '../../command-kit.js';
import type { SuppressionReason } from '../../../api/values/email.js';
import { notice } from '../../command-kit.js';
import { runList } from '../../run-list.js';
import { UsageError } from '../../errors.js';
import { ApiError } from '../../../api/client/errors.js';
import { removeSuppression, suppressionList } from '../../../api/resources/suppressions.js';

// The suppressions verbs (contract §8: email suppressions).

export interface ListSuppressionsOptions extends ListFlags {
  reason?: SuppressionReason;
}

export interface DeleteSuppressionOptions {
  address: string;
}

const SUPPRESSION_COLUMNS = ['address', 'reason', 'emailId', 'createdAt'];

export async function runListSuppressions(ctx: CliContext, opts: ListSuppressionsOptions): Promise<void> {
  await runList(ctx, opts, { endpoint: suppressionList, query: { reason: opts.reason }, noun: 'suppressions', columns: SUPPRESSION_COLUMNS, idField: 'address' });
}

export async function runDeleteSuppression(ctx: CliContext, opts: DeleteSuppressionOptions): Promise<void> {
  const address = opts.address.trim();
  if (address === '' || !address.includes('@')) throw new UsageError('<address>: give the suppressed email address', '<address>');
  const client = await ctx.client();
  await ctx.confirm(`Delete ${address} from the suppression list? Email will be sent to it again.`);
  try {
    await removeSuppression(client, address);
  } catch (err) {
    // contract §8: a complaint is never removable (409): say so in the user's terms.
    if (err instanceof ApiError && err.code === 'conflict') {
      err.hint = `${address} complained (reported your email as spam): it stays suppressed for good, and sending to it is skipped`;
    }
    throw err;
  }
  notice(ctx, `deleted ${address} from the suppression list`);
}
