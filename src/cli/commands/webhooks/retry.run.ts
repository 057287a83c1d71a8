import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { CliError } from '../../errors.js';
import { retryDelivery } from '../../../api/resources/webhooks.js';
import { DELIVERY_COLUMNS, deliveryFailure } from './columns.js';
import type { RetryDeliveryOptions } from './options.js';

export async function runRetry(ctx: CliContext, { id, deliveryId }: RetryDeliveryOptions): Promise<void> {
  const delivery = await retryDelivery(await ctx.client(), id, deliveryId);
  await printOne(ctx, delivery, DELIVERY_COLUMNS);
  if (delivery.status !== 'succeeded') throw new CliError(`delivery ${delivery.id} failed again: ${deliveryFailure(delivery)}`);
}
