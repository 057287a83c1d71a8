import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printList, resolveFormat } from '../../../output/formatters.js';
import { listSinks } from '../../../api/resources/sinks.js';
import { SINK_COLUMNS, sinkRow } from './columns.js';

export async function runSinkList(ctx: CliContext): Promise<void> {
  const sinks = await listSinks(await ctx.client());
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'list' });
  await printList(ctx.io, format === 'json' || format === 'yaml' || format === 'ndjson' ? sinks : sinks.map(sinkRow), { format: ctx.outputFormat, columns: SINK_COLUMNS, now: ctx.serviceNow() });
  if (sinks.length === 0 && ctx.io.stderrTTY) notice(ctx, 'no sinks (svc webhooks sink create)');
}
