import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export type CancelSubscriptionOptions = Record<string, never>;

export function cancelCommand(parent: Command, ctx: CliContext, runF?: RunF<CancelSubscriptionOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./billing.run.js')).runCancelSubscription(ctx, opts));
  return parent
    .command('cancel')
    .description('Cancel the subscription (asks first)')
    .addHelpText('after', '\nExamples:\n  $ svc billing cancel\n  $ svc billing cancel --yes')
    .action(async () => run({}));
}
