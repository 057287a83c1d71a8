import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, type ListFlags, type RunF } from '../../command-kit.js';

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListFlags>): Command {
  const run = runF ?? (async (opts) => (await import('./list.run.js')).runListKeys(ctx, opts));
  return addListOptions(parent.command('list').description('List API keys (prefixes only; keys are never shown again)'))
    .addHelpText('after', '\nExamples:\n  $ svc keys list\n  $ svc keys list --all -o ndjson')
    .action(async (opts: ListFlags) => run(opts));
}
