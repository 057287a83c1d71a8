import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { updateBlockedNumber } from '../../../api/resources/blocked-numbers.js';
import { BLOCKED_COLUMNS } from './columns.js';
import { entryId } from './entry-ref.js';

export interface UpdateBlockedOptions {
  entry: string;
  /** `''` clears it. */
  reason: string;
}

export async function runUpdateBlocked(ctx: CliContext, opts: UpdateBlockedOptions): Promise<void> {
  const client = await ctx.client();
  const reason = opts.reason === '' ? null : opts.reason;
  await printOne(ctx, await updateBlockedNumber(client, await entryId(await ctx.readClient(), opts.entry), { reason }), BLOCKED_COLUMNS);
}
