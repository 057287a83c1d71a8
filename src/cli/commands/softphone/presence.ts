import type { Command } from 'commander';
import { Argument } from '../../commander.js';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { DEVICE_PRESENCES, type DevicePresence } from '../../../api/values/calls.js';

export interface DevicePresenceOptions {
  id: string;
  status: DevicePresence;
}

export function presenceCommand(parent: Command, ctx: CliContext, runF?: RunF<DevicePresenceOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./presence.run.js')).runDevicePresence(ctx, opts));
  return parent
    .command('presence')
    .description("Report a device's presence: a heartbeat (online) or going away (offline)")
    .argument('<id>', 'device id (dev_…)')
    .addArgument(new Argument('<status>', 'online or offline').choices(DEVICE_PRESENCES))
    .addHelpText(
      'after',
      `
A real softphone sends online about every 20 seconds while registered; a device silent for 60 s
reads offline and ring waves skip it.

Examples:
  $ svc softphone devices presence dev_QsPrEIJNI9Llw4pbfp1w online
  $ svc softphone devices presence dev_QsPrEIJNI9Llw4pbfp1w offline`,
    )
    .action(async (id: string, status: DevicePresence) => run({ id, status }));
}
