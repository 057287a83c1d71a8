import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface TestWebhookOptions {
  id: string;
}

export function testCommand(parent: Command, ctx: CliContext, runF?: RunF<TestWebhookOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./test.run.js')).runTest(ctx, opts));
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
  $ svc webhooks test we_S8Bq37q53Fx1ZziV3BwL
  $ svc webhooks test we_S8Bq37q53Fx1ZziV3BwL -o json | jq .responseStatus`,
    )
    .action(async (id: string) => run({ id }));
}
