import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printOne } from '../../command-kit.js';
import { CliError } from '../../errors.js';
import { DELIVERY_COLUMNS } from './columns.js';
import { deliveryFailure } from './test.js';

export function retryCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('retry')
    .description('Redeliver one delivery now (freshly signed) and show how it went')
    .argument('<id>', 'endpoint id (we_…)')
    .argument('<deliveryId>', 'delivery id (whd_…), from svc webhooks deliveries')
    .addHelpText(
      'after',
      `
Prints the delivery after the attempt; exit 1 when the receiver did not answer 2xx (a retryable
failure then continues on the usual schedule). A disabled endpoint, or an attempt already in flight:
exit 5.

Examples:
  $ svc webhooks retry we_123 whd_456
  $ svc webhooks deliveries we_123 --status failed -o ids | xargs -n1 svc webhooks retry we_123`,
    )
    .action(async (id: string, deliveryId: string) => runRetry(ctx, id, deliveryId));
}

export async function runRetry(ctx: CliContext, id: string, deliveryId: string): Promise<void> {
  const { retryDelivery } = await import('../../../api/resources/webhooks.js');
  const delivery = await retryDelivery(await ctx.client(), id, deliveryId);
  await printOne(ctx, delivery, DELIVERY_COLUMNS);
  if (delivery.status !== 'succeeded') throw new CliError(`delivery ${delivery.id} failed again: ${deliveryFailure(delivery)}`);
}
