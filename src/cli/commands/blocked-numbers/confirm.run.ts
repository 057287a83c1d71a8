import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { updateBlockedNumber } from '../../../api/resources/blocked-numbers.js';
import { BLOCKED_COLUMNS } from './columns.js';
import { entryId } from './entry-ref.js';

export interface ConfirmBlockedOptions {
  entry: string;
}

export async function runConfirmBlocked(ctx: CliContext, opts: ConfirmBlockedOptions): Promise<void> {
  const client = await ctx.client();
  // contract §6: `autoSuggested: false` confirms a suggestion (a confirmed entry stays as it is).
  const entry = await updateBlockedNumber(client, await entryId(await ctx.readClient(), opts.entry), { autoSuggested: false });
  await printOne(ctx, entry, BLOCKED_COLUMNS);
  if (ctx.io.stderrTTY) notice(ctx, `calls from ${entry.phoneNumber} are now rejected`);
}
