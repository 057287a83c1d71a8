import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { ENTRY_ARG } from './columns.js';

export interface ConfirmBlockedOptions {
  entry: string;
}

export function confirmCommand(parent: Command, ctx: CliContext, runF?: RunF<ConfirmBlockedOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./confirm.run.js')).runConfirmBlocked(ctx, opts));
  return parent
    .command('confirm')
    .description('Confirm a suggested block: from now on calls from the number are rejected')
    .argument(...ENTRY_ARG)
    .addHelpText('after', '\nExamples:\n  $ svc blocked-numbers confirm +14155550199\n  $ svc blocked-numbers list --suggested -o ids | xargs -n1 svc blocked-numbers confirm')
    .action(async (entry: string) => run({ entry }));
}
