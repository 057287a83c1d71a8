import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { removeBlockedNumber } from '../../../api/resources/blocked-numbers.js';
import { entryId } from './entry-ref.js';
import type { RemoveBlockedOptions } from './remove.js';

export async function runRemoveBlocked(ctx: CliContext, opts: RemoveBlockedOptions): Promise<void> {
  const client = await ctx.client();
  const id = await entryId(await ctx.readClient(), opts.entry);
  await ctx.confirm(`Remove ${opts.entry} from the blocklist? Calls from it will ring again.`);
  await removeBlockedNumber(client, id);
  notice(ctx, `removed ${opts.entry} from the blocklist`);
}
