import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { DOMAIN_ARG } from './domain-arg.js';

export interface GetDomainOptions {
  domain: string;
}

export function getCommand(parent: Command, ctx: CliContext, runF?: RunF<GetDomainOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./domains.run.js')).runGetDomain(ctx, opts));
  return parent
    .command('get')
    .description('Show a sending domain and its records with their status')
    .argument(...DOMAIN_ARG)
    .addHelpText('after', '\n-o zone prints the records as zone-file lines.\n\nExamples:\n  $ svc domains get send.example.com\n  $ svc domains get send.example.com -o zone')
    .action(async (domain: string) => run({ domain }));
}
