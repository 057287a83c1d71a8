import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, enumOption, type ListFlags, type RunF } from '../../command-kit.js';
import { SUPPRESSION_REASONS, type SuppressionReason } from '../../../api/values/email.js';

export interface ListSuppressionsOptions extends ListFlags {
  reason?: SuppressionReason;
}

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListSuppressionsOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./suppressions.run.js')).runListSuppressions(ctx, opts));
  return addListOptions(parent.command('list').description('List the addresses email is no longer sent to, newest first'))
    .addOption(enumOption('--reason <reason>', SUPPRESSION_REASONS.join(', '), SUPPRESSION_REASONS))
    .addHelpText('after', '\nExamples:\n  $ svc suppressions list\n  $ svc suppressions list --reason hard_bounce --all')
    .action(async (o: ListSuppressionsOptions) => run(o));
}
