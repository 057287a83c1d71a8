import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { ENTRY_ARG } from './columns.js';

export interface UpdateBlockedOptions {
  entry: string;
  /** `''` clears it. */
  reason: string;
}

export function updateCommand(parent: Command, ctx: CliContext, runF?: RunF<UpdateBlockedOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./update.run.js')).runUpdateBlocked(ctx, opts));
  return parent
    .command('update')
    .description("Change a blocklist entry's reason")
    .argument(...ENTRY_ARG)
    .requiredOption('--reason <text>', 'the new reason; "" clears it')
    .addHelpText('after', '\nExamples:\n  $ svc blocked-numbers update +14155550199 --reason "spam, reported 3 times"\n  $ svc blocked-numbers update +14155550199 --reason ""')
    .action(async (entry: string, flags: { reason: string }) => run({ entry, reason: flags.reason }));
}
