import type { CliContext } from '../../context.js';
import { agencySummary } from '../../../api/resources/subaccounts.js';
import { printList } from '../../../output/formatters.js';

export async function runSummary(ctx: CliContext): Promise<void> {
  const summary = await agencySummary(await ctx.client());
  await printList(ctx.io, summary.subaccounts, {
    format: ctx.outputFormat,
    columns: ['id', 'name', 'status', 'numbers', 'messagesThisMonth', 'spendThisMonthCents'],
  });
}
