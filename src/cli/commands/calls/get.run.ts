import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { getCall, getCallTrace } from '../../../api/resources/calls.js';
import { CALL_COLUMNS } from './columns.js';
import { printTrace } from './trace-lines.js';

export interface GetCallOptions {
  id: string;
  trace: boolean;
}

export async function runGetCall(ctx: CliContext, opts: GetCallOptions): Promise<void> {
  const client = await ctx.client();
  const call = await getCall(client, opts.id);
  if (!opts.trace) return printOne(ctx, call, CALL_COLUMNS);
  const { data: trace } = await getCallTrace(client, opts.id);
  await printTrace(ctx, call, trace);
}
