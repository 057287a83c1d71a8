import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface EditRouteOptions {
  number: string;
}

export function editCommand(parent: Command, ctx: CliContext, runF?: RunF<EditRouteOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./edit.run.js')).runEdit(ctx, opts));
  return parent
    .command('edit')
    .description("Edit a number's call route in $VISUAL or $EDITOR (else vi): validated, shown and confirmed before it is sent")
    .argument('<number>', 'number id (num_…) or E.164')
    .addHelpText(
      'after',
      '\nA route changed on the service since it was read is never overwritten (exit 5); the edit is kept\nin a file for `svc routes apply`. Without a terminal, use `svc routes apply`.\n\nExamples:\n  $ svc routes edit +14155550123\n  $ EDITOR=nano svc routes edit num_n0STtke71XAzVlsShJVy\n  $ svc routes edit +14155550123 --yes',
    )
    .action(async (number: string) => run({ number }));
}
