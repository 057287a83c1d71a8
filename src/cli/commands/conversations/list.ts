import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, type ListFlags, type RunF } from '../../command-kit.js';

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListFlags>): Command {
  const run = runF ?? (async (opts) => (await import('./list.run.js')).runListConversations(ctx, opts));
  return addListOptions(parent.command('list').description('List conversations, one per counterparty, most recent first'))
    .addHelpText('after', '\nExamples:\n  $ svc conversations list\n  $ svc conversations list --all -o csv > conversations.csv')
    .action(async (o: ListFlags) => run(o));
}
