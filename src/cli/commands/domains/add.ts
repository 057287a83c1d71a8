import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface AddDomainOptions {
  domain: string;
}

export function addCommand(parent: Command, ctx: CliContext, runF?: RunF<AddDomainOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./domains.run.js')).runAddDomain(ctx, opts));
  return parent
    .command('add')
    .description('Add a sending domain and print the DNS records to publish')
    .argument('<domain>', 'the domain mail is sent from, e.g. send.example.com')
    .addHelpText(
      'after',
      `
Prints the domain, then its records as a table (type, name, value, purpose, status). -o zone prints
the records as zone-file lines to paste into a DNS provider; -o json and -o yaml the whole domain.
Publish the records, then: svc domains verify <domain> --wait. On the local service, publish them in
the sandbox DNS: svc trigger dns.publish --domain <domain>.

Examples:
  $ svc domains add send.example.com
  $ svc domains add send.example.com -o zone`,
    )
    .action(async (domain: string) => run({ domain }));
}
