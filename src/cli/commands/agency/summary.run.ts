import type { CliContext } from '../../context.js';
import { dollars } from '../../money.js';
import { agencySummary } from '../../../api/resources/subaccounts.js';
import { printList, resolveFormat } from '../../../output/formatters.js';

const COLUMNS = ['id', 'name', 'status', 'numbers', 'messagesThisMonth'];

export async function runSummary(ctx: CliContext): Promise<void> {
  const summary = await agencySummary(await ctx.client());
  // cli.md "Money": dollars in a table, the API's cents in every other format.
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'list' });
  if (format === 'table') {
    const rows = summary.subaccounts.map((s) => ({ ...s, spendThisMonth: dollars(s.spendThisMonthCents) }));
    // Spend right after the name: a narrow terminal drops the last columns first.
    await printList(ctx.io, rows, { format: 'table', columns: ['id', 'name', 'spendThisMonth', 'status', 'numbers', 'messagesThisMonth'] });
    return;
  }
  await printList(ctx.io, summary.subaccounts, { format: ctx.outputFormat, columns: [...COLUMNS, 'spendThisMonthCents'] });
}
