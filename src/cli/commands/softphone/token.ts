import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface DeviceTokenOptions {
  id: string;
}

export function tokenCommand(parent: Command, ctx: CliContext, runF?: RunF<DeviceTokenOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./token.run.js')).runDeviceToken(ctx, opts));
  return parent
    .command('token')
    .description('Mint a short-lived login token for a device (valid 10 minutes)')
    .argument('<id>', 'device id (dev_…)')
    .addHelpText(
      'after',
      `
On a terminal the token and its expiry are shown; piped, only the token is printed (for scripts).
Mint a new one whenever the device's registration fails.

Examples:
  $ svc softphone devices token dev_QsPrEIJNI9Llw4pbfp1w
  $ TOKEN=$(svc softphone devices token dev_QsPrEIJNI9Llw4pbfp1w)`,
    )
    .action(async (id: string) => run({ id }));
}
