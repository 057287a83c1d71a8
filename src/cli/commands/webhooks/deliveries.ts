import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, enumOption, type ListFlags, type RunF } from '../../command-kit.js';
import { DELIVERY_STATUSES } from '../../../api/values/webhooks.js';

export interface ListDeliveriesOptions extends ListFlags {
  id: string;
  status?: (typeof DELIVERY_STATUSES)[number];
}

export function deliveriesCommand(parent: Command, ctx: CliContext, runF?: RunF<ListDeliveriesOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./deliveries.run.js')).runListDeliveries(ctx, opts));
  return addListOptions(parent.command('deliveries').description("An endpoint's delivery log: the last 7 days, newest first"))
    .argument('<id>', 'endpoint id (we_…)')
    .addOption(enumOption('--status <status>', 'only deliveries in this status', DELIVERY_STATUSES))
    .addHelpText(
      'after',
      `
A delivery is one event to this endpoint, showing its latest attempt: attempt (attempts so far),
status, responseStatus, error and nextAttemptAt (failed ones are retried on the service's schedule).

Examples:
  $ svc webhooks deliveries we_S8Bq37q53Fx1ZziV3BwL
  $ svc webhooks deliveries we_S8Bq37q53Fx1ZziV3BwL --status failed --all -o ndjson`,
    )
    .action(async (id: string, o: Omit<ListDeliveriesOptions, 'id'>) => run({ ...o, id }));
}
