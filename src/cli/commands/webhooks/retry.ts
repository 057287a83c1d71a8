import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface RetryDeliveryOptions {
  id: string;
  deliveryId: string;
}

export function retryCommand(parent: Command, ctx: CliContext, runF?: RunF<RetryDeliveryOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./retry.run.js')).runRetry(ctx, opts));
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
  $ svc webhooks retry we_S8Bq37q53Fx1ZziV3BwL whd_oJ6tB79nWm5cpXVXjJGh
  $ svc webhooks deliveries we_S8Bq37q53Fx1ZziV3BwL --status failed -o ids | xargs -n1 svc webhooks retry we_S8Bq37q53Fx1ZziV3BwL`,
    )
    .action(async (id: string, deliveryId: string) => run({ id, deliveryId }));
}
