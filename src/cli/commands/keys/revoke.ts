import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface RevokeKeyOptions {
  id: string;
}

export function revokeCommand(parent: Command, ctx: CliContext, runF?: RunF<RevokeKeyOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./revoke.run.js')).runRevoke(ctx, opts));
  return parent
    .command('revoke')
    .description('Revoke an API key: it fails with 401 from the next request on')
    .argument('<id>', 'key id (key_…)')
    .addHelpText('after', '\nExamples:\n  $ svc keys revoke key_SzLIztsEfd8F6Jleccyv --yes')
    .action(async (id: string) => run({ id }));
}
