import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, type ListFlags, type RunF } from '../../command-kit.js';

export type ListVoicemailsOptions = ListFlags;

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListVoicemailsOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./list.run.js')).runListVoicemails(ctx, opts));
  return addListOptions(parent.command('list').description('List captured voicemails with their transcripts, newest first'))
    .addHelpText('after', '\nExamples:\n  $ svc voicemails list\n  $ svc voicemails list --all -o csv > voicemails.csv')
    .action(async (o: ListVoicemailsOptions) => run(o));
}
