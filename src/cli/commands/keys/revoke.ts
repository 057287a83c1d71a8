import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';

export function revokeCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('revoke')
    .description('Revoke an API key: it fails with 401 from the next request on')
    .argument('<id>', 'key id (key_…)')
    .addHelpText('after', '\nExamples:\n  $ svc keys revoke key_123 --yes')
    .action(async (id: string) => runRevoke(ctx, id));
}

export async function runRevoke(ctx: CliContext, id: string): Promise<void> {
  await ctx.confirm(`Revoke API key ${id}? Anything using it stops working at once.`);
  const { revokeApiKey } = await import('../../../api/resources/keys.js');
  await revokeApiKey(await ctx.client(), id);
  notice(ctx, `revoked ${id}`);
}
