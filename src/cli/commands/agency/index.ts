import type { Command } from 'commander';
import type { CliContext } from '../../context.js';

export function register(group: Command, ctx: CliContext): void {
  group
    .command('summary')
    .description('Numbers, messages and spend this month for every sub-account')
    .addHelpText('after', '\nExamples:\n  $ svc agency summary\n  $ svc agency summary -o csv > summary.csv')
    .action(async () => (await import('./summary.run.js')).runSummary(ctx));
}
