import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface ReleaseNumberOptions {
  number: string;
}

export function releaseCommand(parent: Command, ctx: CliContext, runF?: RunF<ReleaseNumberOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./release.run.js')).runRelease(ctx, opts));
  return parent
    .command('release')
    .description('Release a number back to the carrier (asks first)')
    .argument('<number>', 'number id (num_…) or E.164')
    .addHelpText(
      'after',
      `
The number stops sending and receiving at once, leaves its campaign and loses emergency calling.
Without a terminal, pass --yes (otherwise exit 2, nothing released). Releasing twice: exit 5.

Examples:
  $ svc numbers release +14155550123
  $ svc numbers release num_n0STtke71XAzVlsShJVy --yes`,
    )
    .action(async (number: string) => run({ number }));
}
