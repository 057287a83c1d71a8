import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { parseTypeList } from './types-flag.js';

export interface FollowEventsOptions {
  types?: string[];
  /** `now` or a cursor. */
  since?: string;
  cursorFile?: string;
}

export const FOLLOW_COLUMNS = ['createdAt', 'type', 'id', 'summary'];

export function followCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('follow')
    .description('Print each event as it arrives, until Ctrl-C')
    .option('--types <types>', 'only these types, comma-separated; <family>.* patterns accepted (message.*)')
    .option('--since <now|cursor>', 'start here: now (only new events) or a cursor (default: the cursor file, else now)')
    .option('--cursor-file <file>', 'resume from the position saved in FILE, and save it after each event printed')
    .addHelpText(
      'after',
      `
One line per event: on a terminal its time, type, id and a short summary; piped, the same as
tab-separated columns (ISO time); -o ndjson (or -o json) prints each event as one JSON object per
line, exactly as the feed has it (the webhook body plus eventId).

On the local service it long-polls (an event prints the moment it is created); elsewhere, or if the
service does not support long-polling, it asks every 2 s. With --cursor-file the position is saved
(atomically, mode 0600) after each event printed: stop it and start it again with the same file and
nothing is lost and nothing repeats. --since overrides the file's position. If the service stops
answering it says so once on stderr and keeps retrying with backoff.

Ctrl-C is the normal way to stop: it stops cleanly and exits 0 (not 130).

Examples:
  $ svc events follow
  $ svc events follow --types 'message.*' -o ndjson | jq .
  $ svc events follow --cursor-file ~/.cache/svc-events.cursor -o ndjson >> events.ndjson
  $ svc events follow --since now --types webhook_endpoint.disabled`,
    )
    .action(async (o: { types?: string; since?: string; cursorFile?: string }) =>
      runFollowEvents(ctx, { types: parseTypeList(o.types, '--types'), since: o.since, cursorFile: o.cursorFile }),
    );
}

export async function runFollowEvents(ctx: CliContext, opts: FollowEventsOptions): Promise<void> {
  const { UsageError } = await import('../../errors.js');
  if (opts.since !== undefined && opts.since.trim() === '') throw new UsageError('--since: give now or a cursor', '--since');
  const { interruptSignal, createLinePrinter, clockTime } = await import('../../long-running.js');
  const { EventStream } = await import('../../event-stream.js');
  const { summarizeEvent } = await import('./summary.js');
  const signal = interruptSignal(ctx);
  const printer = await createLinePrinter(ctx, { columns: FOLLOW_COLUMNS });
  const stream = new EventStream(ctx, { types: opts.types, since: opts.since?.trim(), cursorFile: opts.cursorFile, signal });
  const start = await stream.start();
  if (!start) return;
  if (ctx.io.stderrTTY) ctx.io.stderr.write(`following events${opts.types ? ` (${opts.types.join(', ')})` : ''}; Ctrl-C to stop\n`);
  for await (const { item, position } of stream.events()) {
    const summary = summarizeEvent(item);
    await printer.print(item, { createdAt: item.createdAt, type: item.type, id: item.id, summary }, (c) =>
      `${c.dim(clockTime(item.createdAt))}  ${item.type.padEnd(26)} ${c.id(item.id)}  ${summary}`,
    );
    stream.save(position);
  }
}
