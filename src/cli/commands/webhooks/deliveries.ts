import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, enc, enumOption, runList, type ListFlags } from '../../command-kit.js';
import { DELIVERY_COLUMNS } from './columns.js';

export interface ListDeliveriesOptions extends ListFlags {
  status?: 'pending' | 'succeeded' | 'failed' | 'abandoned';
}

export function deliveriesCommand(parent: Command, ctx: CliContext): Command {
  return addListOptions(parent.command('deliveries').description("An endpoint's delivery log: the last 7 days, newest first"))
    .argument('<id>', 'endpoint id (we_…)')
    .addOption(enumOption('--status <status>', 'only deliveries in this status', ['pending', 'succeeded', 'failed', 'abandoned']))
    .addHelpText(
      'after',
      `
A delivery is one event to this endpoint, showing its latest attempt: attempt (attempts so far),
status, responseStatus, error and nextAttemptAt (failed ones are retried on the service's schedule).

Examples:
  $ svc webhooks deliveries we_123
  $ svc webhooks deliveries we_123 --status failed --all -o ndjson`,
    )
    .action(async (id: string, o: ListDeliveriesOptions) => runListDeliveries(ctx, id, o));
}

export async function runListDeliveries(ctx: CliContext, id: string, opts: ListDeliveriesOptions): Promise<void> {
  await runList(ctx, opts, { path: `/v1/webhooks/${enc(id)}/deliveries`, query: { status: opts.status }, noun: 'deliveries', columns: DELIVERY_COLUMNS });
}
