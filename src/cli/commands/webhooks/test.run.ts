import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { CliError } from '../../errors.js';
import { testWebhook } from '../../../api/resources/webhooks.js';
import { DELIVERY_COLUMNS, deliveryFailure } from './columns.js';
import type { WebhookArg as TestWebhookOptions } from './options.js';

export async function runTest(ctx: CliContext, { id }: TestWebhookOptions): Promise<void> {
  const delivery = await testWebhook(await ctx.client(), id);
  await printOne(ctx, delivery, DELIVERY_COLUMNS);
  if (delivery.status !== 'succeeded') throw new CliError(`the test delivery ${delivery.id} failed: ${deliveryFailure(delivery)}`);
}
