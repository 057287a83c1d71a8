import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface ConsoleOptions {
  /** Open the link in the browser (the default); `--no-open` prints it instead. */
  open: boolean;
}

export function consoleCommand(cmd: Command, ctx: CliContext, runF?: RunF<ConsoleOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./console.run.js')).runConsole(ctx, opts));
  return cmd
    .option('--no-open', 'print the one-time link instead of opening the browser')
    .addHelpText(
      'after',
      [
        '',
        'The console is served by the service itself under /console, for the current profile and context.',
        'The link works once, within 60 seconds; the session it opens sees what the profile\'s key may see,',
        'ends when that key is revoked, and lasts 12 hours. -o json prints {"url": …} and opens nothing.',
        '',
        'Examples:',
        '  $ svc console',
        '  $ svc console --no-open',
        '  $ svc console --profile local-test -o json | jq -r .url',
      ].join('\n'),
    )
    .action(async (o: { open: boolean }) => run({ open: o.open }));
}
