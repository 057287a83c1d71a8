import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { DOMAIN_ARG } from './domain-arg.js';

export interface RemoveDomainOptions {
  domain: string;
}

export function removeCommand(parent: Command, ctx: CliContext, runF?: RunF<RemoveDomainOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./domains.run.js')).runRemoveDomain(ctx, opts));
  return parent
    .command('remove')
    .description('Remove a sending domain (asks first)')
    .argument(...DOMAIN_ARG)
    .addHelpText('after', '\nWithout a terminal, pass --yes (otherwise exit 2, nothing removed).\n\nExamples:\n  $ svc domains remove send.example.com\n  $ svc domains remove send.example.com --yes')
    .action(async (domain: string) => run({ domain }));
}
