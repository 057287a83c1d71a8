import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface RemoveSuppressionOptions {
  address: string;
}

export function removeCommand(parent: Command, ctx: CliContext, runF?: RunF<RemoveSuppressionOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./suppressions.run.js')).runRemoveSuppression(ctx, opts));
  return parent
    .command('remove')
    .description('Send to a suppressed address again (asks first; complaints cannot be removed)')
    .argument('<address>', 'the suppressed address')
    .addHelpText(
      'after',
      `
Hard bounces and unsubscribes can be removed; a complaint cannot (exit 5). Without a terminal, pass
--yes (otherwise exit 2, nothing removed).

Examples:
  $ svc suppressions remove ada@example.org
  $ svc suppressions remove ada@example.org --yes`,
    )
    .action(async (address: string) => run({ address }));
}
