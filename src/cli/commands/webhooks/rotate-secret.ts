import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { notice, printOne } from '../../command-kit.js';
import { ENDPOINT_WITH_SECRET_COLUMNS, SECRET_NOTICE } from './columns.js';

export function rotateSecretCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('rotate-secret')
    .description('Replace the signing secret (asks first); the new one is printed once')
    .argument('<id>', 'endpoint id (we_…)')
    .addHelpText(
      'after',
      `
The old secret stops at once: every attempt from now on, retries included, is signed with the new
one. Without a terminal, pass --yes (otherwise exit 2, nothing changed).

Examples:
  $ svc webhooks rotate-secret we_123
  $ svc webhooks rotate-secret we_123 --yes -o json | jq -r .secret`,
    )
    .action(async (id: string) => runRotateSecret(ctx, id));
}

export async function runRotateSecret(ctx: CliContext, id: string): Promise<void> {
  await ctx.confirm(`Rotate the signing secret of ${id}? The current secret stops working at once.`);
  const { rotateWebhookSecret } = await import('../../../api/resources/webhooks.js');
  const rotated = await rotateWebhookSecret(await ctx.client(), id);
  await printOne(ctx, rotated, ENDPOINT_WITH_SECRET_COLUMNS);
  notice(ctx, SECRET_NOTICE);
}
