import type { CliContext } from '../../context.js';
import { runList } from '../../run-list.js';
import { deliveryList } from '../../../api/resources/webhooks.js';
import { DELIVERY_COLUMNS } from './columns.js';
import type { ListDeliveriesOptions } from './options.js';

export async function runListDeliveries(ctx: CliContext, opts: ListDeliveriesOptions): Promise<void> {
  await runList(ctx, opts, { endpoint: deliveryList(opts.id), query: { status: opts.status }, noun: 'deliveries', columns: DELIVERY_COLUMNS });
}
