import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface RemoveDeviceOptions {
  id: string;
}

export function removeCommand(parent: Command, ctx: CliContext, runF?: RunF<RemoveDeviceOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./remove.run.js')).runRemoveDevice(ctx, opts));
  return parent
    .command('remove')
    .description('Remove a softphone device (asks first); routes that ring it skip it')
    .argument('<id>', 'device id (dev_…)')
    .addHelpText('after', '\nWithout a terminal, pass --yes (otherwise exit 2, nothing removed).\n\nExamples:\n  $ svc softphone devices remove dev_QsPrEIJNI9Llw4pbfp1w\n  $ svc softphone devices remove dev_QsPrEIJNI9Llw4pbfp1w --yes')
    .action(async (id: string) => run({ id }));
}
