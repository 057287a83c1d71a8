import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, enumOption, type ListFlags, type RunF } from '../../command-kit.js';
import { PORT_STATUSES, type PortStatus } from '../../../api/values/registration.js';

export interface ListPortsOptions extends ListFlags {
  status?: PortStatus;
}

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListPortsOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./ports.run.js')).runListPorts(ctx, opts));
  return addListOptions(parent.command('list').description('List your port requests, newest first'))
    .addOption(enumOption('--status <status>', PORT_STATUSES.join(', '), PORT_STATUSES))
    .addHelpText('after', '\nExamples:\n  $ svc ports list\n  $ svc ports list --status foc_scheduled')
    .action(async (o: ListPortsOptions) => run(o));
}
