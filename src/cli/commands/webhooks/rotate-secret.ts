import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface RotateSecretOptions {
  id: string;
}

export function rotateSecretCommand(parent: Command, ctx: CliContext, runF?: RunF<RotateSecretOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./rotate-secret.run.js')).runRotateSecret(ctx, opts));
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
  $ svc webhooks rotate-secret we_S8Bq37q53Fx1ZziV3BwL
  $ svc webhooks rotate-secret we_S8Bq37q53Fx1ZziV3BwL --yes -o json | jq -r .secret`,
    )
    .action(async (id: string) => run({ id }));
}
