import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, type ListFlags, type RunF } from '../../command-kit.js';

export type ListDevicesOptions = ListFlags;

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListDevicesOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./list.run.js')).runListDevices(ctx, opts));
  return addListOptions(parent.command('list').description('List softphone devices with their presence'))
    .addHelpText('after', '\nA device silent for 60 s reads offline, and ring waves skip it.\n\nExamples:\n  $ svc softphone devices list\n  $ svc softphone devices list -o ids')
    .action(async (o: ListDevicesOptions) => run(o));
}
