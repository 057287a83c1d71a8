import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { interruptSignal, createLinePrinter, clockTime } from '../../long-running.js';
import { EventStream } from '../../event-stream.js';
import { summarizeEvent } from './summary.js';
import { FOLLOW_COLUMNS } from './columns.js';
import { parseTypeList } from './types-flag.js';
import { holdYoungGeneration } from '../../stream-memory.js';

export interface FollowEventsFlags {
  types?: string;
  /** `now` or a cursor. */
  since?: string;
  cursorFile?: string;
}

export async function runFollowEvents(ctx: CliContext, flags: FollowEventsFlags): Promise<void> {
  const opts = { ...flags, types: parseTypeList(flags.types, '--types') };
  if (opts.since !== undefined && opts.since.trim() === '') throw new UsageError('--since: give now or a cursor', '--since');
  const signal = interruptSignal(ctx);
  const printer = await createLinePrinter(ctx, { columns: FOLLOW_COLUMNS });
  const stream = new EventStream(ctx, { types: opts.types, since: opts.since?.trim(), cursorFile: opts.cursorFile, signal });
  const start = await stream.start();
  if (!start) return;
  holdYoungGeneration(); // it runs for hours: its memory must not creep up (stream-memory.ts)
  if (ctx.io.stderrTTY) ctx.io.stderr.write(`following events${opts.types ? ` (${opts.types.join(', ')})` : ''}; Ctrl-C to stop\n`);
  for await (const { item, position } of stream.events()) {
    const summary = summarizeEvent(item);
    await printer.print(item, { createdAt: item.createdAt, type: item.type, id: item.id, summary }, (c) =>
      `${c.dim(clockTime(item.createdAt))}  ${item.type.padEnd(26)} ${c.id(item.id)}  ${summary}`,
    );
    stream.save(position);
  }
}
