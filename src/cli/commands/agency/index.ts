import type { Command } from 'commander';
import type { CliContext } from '../../context.js';

export function register(group: Command, ctx: CliContext): void {
  group
    .command('summary')
    .description('Numbers, messages and spend this month for every sub-account')
    .addHelpText('after', '\nExamples:\n  $ svc agency summary\n  $ svc agency summary -o csv > summary.csv')
    .action(async () => {
      const { agencySummary } = await import('../../../api/resources/subaccounts.js');
      const summary = await agencySummary(await ctx.client());
      const { printList } = await import('../../../output/formatters.js');
      await printList(ctx.io, summary.subaccounts, {
        format: ctx.outputFormat,
        columns: ['id', 'name', 'status', 'numbers', 'messagesThisMonth', 'spendThisMonthCents'],
      });
    });
}
