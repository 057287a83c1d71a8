import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { resolveFormat } from '../../../output/formatters.js';
import { createSink } from '../../../api/resources/sinks.js';
import { SINK_SECRET_NOTICE, SINK_WITH_SECRET_COLUMNS, sinkRow } from './columns.js';
import type { SinkCreateOptions } from './sink-options.js';

export async function runSinkCreate(ctx: CliContext, opts: SinkCreateOptions): Promise<void> {
  const respond = {
    ...(opts.status !== undefined ? { status: opts.status } : {}),
    ...(opts.failFirst !== undefined ? { failFirst: opts.failFirst } : {}),
    ...(opts.delayMs !== undefined ? { delayMs: opts.delayMs } : {}),
  };
  const created = await createSink(await ctx.client(), {
    ...(Object.keys(respond).length ? { respond } : {}),
    ...(opts.events ? { events: opts.events } : {}),
  });
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'resource' });
  await printOne(ctx, format === 'json' || format === 'yaml' ? created : sinkRow(created), SINK_WITH_SECRET_COLUMNS);
  notice(ctx, SINK_SECRET_NOTICE);
}
