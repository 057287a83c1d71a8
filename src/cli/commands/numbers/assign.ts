import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface AssignOptions {
  number: string;
  campaign?: string;
  detach: boolean;
}

export function assignCommand(parent: Command, ctx: CliContext, runF?: RunF<AssignOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./assign.run.js')).runAssign(ctx, opts));
  return parent
    .command('assign')
    .description('Attach a local number to an approved 10DLC campaign (status live), or detach it (idle)')
    .argument('<number>', 'number id (num_…) or E.164')
    .option('--campaign <id>', 'the approved campaign to attach the number to')
    .option('--detach', 'detach the number from its campaign')
    .addHelpText(
      'after',
      `
A campaign that is not approved: exit 5. Toll-free numbers are verified instead
(svc numbers verify-tollfree): exit 8.

Examples:
  $ svc numbers assign +14155550123 --campaign 7d0c2f0e-…
  $ svc numbers assign +14155550123 --detach`,
    )
    .action(async (number: string, o: { campaign?: string; detach?: boolean }) => run({ number, campaign: o.campaign, detach: Boolean(o.detach) }));
}
