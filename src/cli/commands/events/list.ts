import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { enumOption, notice, parseLimit } from '../../command-kit.js';
import { parseTypeList } from './types-flag.js';

export interface ListEventsOptions {
  types?: string[];
  after?: string;
  before?: string;
  order: 'asc' | 'desc';
  limit?: number;
  all: boolean;
}

/** Table and tab-separated columns; json, yaml and ndjson print the events whole. */
export const EVENT_LIST_COLUMNS = ['createdAt', 'type', 'id', 'summary'];

export function listCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('list')
    .description('List events from the durable feed (oldest first; --order desc for newest first)')
    .option('--types <types>', 'only these types, comma-separated; <family>.* patterns accepted (message.*)')
    .option('--after <cursor>', 'events after this cursor (now: none, just the head cursor)')
    .option('--before <cursor>', 'events before this cursor (paging back with --order desc)')
    .addOption(enumOption('--order <order>', 'asc (oldest first) or desc (newest first)', ['asc', 'desc']).default('asc'))
    .option('--limit <n>', 'events in one page (1-100, default 20)')
    .option('--all', 'follow every page (constant memory)')
    .addHelpText(
      'after',
      `
Each event is what a webhook receives (its fields plus id, type, createdAt) plus eventId. After a
page that has more, the next cursor is printed on stderr: pass it as --after (asc) or --before (desc).
Columns: createdAt, type, id and a short summary (json, yaml, ndjson: the whole event).

Examples:
  $ svc events list
  $ svc events list --types message.received,message.status --limit 50
  $ svc events list --order desc --limit 10 -o json
  $ svc events list --types 'email.*' --all -o ndjson`,
    )
    .action(async (o: { types?: string; after?: string; before?: string; order: 'asc' | 'desc'; limit?: string; all?: boolean }) =>
      runListEvents(ctx, {
        types: parseTypeList(o.types, '--types'),
        after: o.after,
        before: o.before,
        order: o.order,
        limit: parseLimit(o.limit),
        all: Boolean(o.all),
      }),
    );
}

export async function runListEvents(ctx: CliContext, opts: ListEventsOptions): Promise<void> {
  const { listEvents } = await import('../../../api/resources/events.js');
  const { createListWriter } = await import('../../../output/list-writer.js');
  const { resolveFormat } = await import('../../../output/formatters.js');
  const { summarizeEvent } = await import('./summary.js');
  const client = await ctx.client();
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'list' });
  // The short summary is a column for people; the structured formats print the event as it is.
  const withSummary = format === 'table' || format === 'tsv' || format === 'csv';
  const writer = createListWriter(ctx.io, { format: ctx.outputFormat, columns: EVENT_LIST_COLUMNS, now: ctx.now() });
  let after = opts.after;
  let before = opts.before;
  for (;;) {
    const page = await listEvents(client, { after, before, order: opts.order, limit: opts.all ? (opts.limit ?? 100) : opts.limit, types: opts.types });
    await writer.writeRows(withSummary ? page.data.map((e) => ({ ...e, summary: summarizeEvent(e) })) : page.data);
    if (!page.hasMore) break;
    if (!opts.all) {
      notice(ctx, `more events: ${opts.order === 'desc' ? '--before' : '--after'} ${page.cursor} (or --all)`);
      break;
    }
    if (opts.order === 'desc') before = page.cursor;
    else after = page.cursor;
  }
  await writer.end();
  if (writer.rowCount === 0 && ctx.io.stderrTTY) notice(ctx, 'no events found');
}
