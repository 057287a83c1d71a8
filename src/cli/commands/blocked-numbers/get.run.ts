import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { getBlockedNumber } from '../../../api/resources/blocked-numbers.js';
import { BLOCKED_COLUMNS } from './columns.js';
import { entryId } from './entry-ref.js';

export interface GetBlockedOptions {
  entry: string;
}

export async function runGetBlocked(ctx: CliContext, opts: GetBlockedOptions): Promise<void> {
  const client = await ctx.client();
  await printOne(ctx, await getBlockedNumber(client, await entryId(await ctx.readClient(), opts.entry)), BLOCKED_COLUMNS);
}
