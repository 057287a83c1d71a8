import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { revokeApiKey } from '../../../api/resources/keys.js';

export interface RevokeKeyOptions {
  id: string;
}

export async function runRevoke(ctx: CliContext, opts: RevokeKeyOptions): Promise<void> {
  await ctx.confirm(`Revoke API key ${opts.id}? Anything using it stops working at once.`);
  await revokeApiKey(await ctx.client(), opts.id);
  notice(ctx, `revoked ${opts.id}`);
}
