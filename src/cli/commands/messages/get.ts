import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface GetMessageOptions {
  id: string;
}

export function getCommand(parent: Command, ctx: CliContext, runF?: RunF<GetMessageOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./get.run.js')).runGet(ctx, opts));
  return parent
    .command('get')
    .description('Show one message: status, carrier reason, segments, media')
    .argument('<id>', 'message id (msg_…)')
    .addHelpText('after', '\nExamples:\n  $ svc messages get msg_lzTOcfKdfTmly4HUFYrt\n  $ svc messages get msg_lzTOcfKdfTmly4HUFYrt -o json | jq -r .status')
    .action(async (id: string) => run({ id }));
}
