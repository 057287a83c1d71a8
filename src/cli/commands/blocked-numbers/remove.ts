import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { ENTRY_ARG } from './columns.js';

export interface RemoveBlockedOptions {
  entry: string;
}

export function removeCommand(parent: Command, ctx: CliContext, runF?: RunF<RemoveBlockedOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./remove.run.js')).runRemoveBlocked(ctx, opts));
  return parent
    .command('remove')
    .description('Unblock a caller (asks first)')
    .argument(...ENTRY_ARG)
    .addHelpText('after', '\nWithout a terminal, pass --yes (otherwise exit 2, nothing removed).\n\nExamples:\n  $ svc blocked-numbers remove +14155550199\n  $ svc blocked-numbers remove +14155550199 --yes')
    .action(async (entry: string) => run({ entry }));
}
