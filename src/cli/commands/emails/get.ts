import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface GetEmailOptions {
  email: string;
}

export function getCommand(parent: Command, ctx: CliContext, runF?: RunF<GetEmailOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./emails.run.js')).runGetEmail(ctx, opts));
  return parent
    .command('get')
    .description('Show an email and the delivery of each recipient')
    .argument('<email>', 'email id (eml_…)')
    .addHelpText('after', '\nExamples:\n  $ svc emails get eml_k0Pw1UTo4AoEs8XfvbDy\n  $ svc emails get eml_k0Pw1UTo4AoEs8XfvbDy -o json')
    .action(async (email: string) => run({ email }));
}
