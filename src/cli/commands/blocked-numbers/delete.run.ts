import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { removeBlockedNumber } from '../../../api/resources/blocked-numbers.js';
import { entryId } from './entry-ref.js';

export interface DeleteBlockedOptions {
  entry: string;
}

export async function runDeleteBlocked(ctx: CliContext, opts: DeleteBlockedOptions): Promise<void> {
  const client = await ctx.client();
  const id = await entryId(await ctx.readClient(), opts.entry);
  await ctx.confirm(`Delete ${opts.entry} from the blocklist? Calls from it will ring again.`);
  await removeBlockedNumber(client, id);
  notice(ctx, `deleted ${opts.entry} from the blocklist`);
}
