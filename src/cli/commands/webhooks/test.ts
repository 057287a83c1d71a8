import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { printOne } from '../../command-kit.js';
import { CliError } from '../../errors.js';
import { DELIVERY_COLUMNS } from './columns.js';
import type { Delivery } from '../../../api/schemas/webhooks.js';

export function testCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('test')
    .description('Send a signed sample delivery (webhook_endpoint.test) now and show how it went')
    .argument('<id>', 'endpoint id (we_…)')
    .addHelpText(
      'after',
      `
One attempt, whatever the endpoint's filter and even when it is disabled; it shows in the delivery
log but never in the events feed. Prints the delivery; exit 1 when the receiver did not answer 2xx.

Examples:
  $ svc webhooks test we_123
  $ svc webhooks test we_123 -o json | jq .responseStatus`,
    )
    .action(async (id: string) => runTest(ctx, id));
}

export async function runTest(ctx: CliContext, id: string): Promise<void> {
  const { testWebhook } = await import('../../../api/resources/webhooks.js');
  const delivery = await testWebhook(await ctx.client(), id);
  await printOne(ctx, delivery, DELIVERY_COLUMNS);
  if (delivery.status !== 'succeeded') throw new CliError(`the test delivery ${delivery.id} failed: ${deliveryFailure(delivery)}`);
}

export const deliveryFailure = (d: Delivery): string => d.error ?? (d.responseStatus !== null ? `HTTP ${d.responseStatus}` : d.status);
