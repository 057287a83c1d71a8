// The call trace for people and for machines (cli.md "Calls you can watch"): one line per step —
// time, seconds since the call started, step, detail — or, with -o, the call with its trace.
// Imported by run modules only.
import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { printList } from '../../../output/formatters.js';
import type { Call, CallTrace } from '../../../api/schemas/calls.js';
import { CALL_TRACE_STEPS } from '../../../api/values/calls.js';
import { CALL_COLUMNS } from './columns.js';

export type TraceEntry = CallTrace['data'][number];

/** The widest step name, so the details line up. */
export const STEP_WIDTH = Math.max(...CALL_TRACE_STEPS.map((step) => step.length));

/** `12:00:05  +5s   leg.dialed      pstn +14155550123 (dst_…)` */
export function traceLine(entry: TraceEntry, startedAt: string): string {
  const offset = Math.max(0, Math.round((Date.parse(entry.at) - Date.parse(startedAt)) / 1000));
  return `${entry.at.slice(11, 19)}  ${`+${offset}s`.padEnd(6)} ${entry.step.padEnd(STEP_WIDTH)}  ${entry.detail}`;
}

/** Lines for people (no -o, or -o table); otherwise the call with its trace (csv: the steps as rows). */
export const wantsLines = (ctx: CliContext): boolean => ctx.outputFormat === undefined || ctx.outputFormat === 'table';

export async function printTrace(ctx: CliContext, call: Call, trace: TraceEntry[]): Promise<void> {
  if (wantsLines(ctx)) {
    for (const entry of trace) ctx.io.stdout.write(`${traceLine(entry, call.startedAt)}\n`);
    return;
  }
  if (ctx.outputFormat === 'csv') {
    await printList(ctx.io, trace, { format: 'csv', columns: ['at', 'step', 'detail'] });
    return;
  }
  await printOne(ctx, { ...call, trace }, [...CALL_COLUMNS, 'trace']);
}
