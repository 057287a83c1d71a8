import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { listEvents } from '../../../api/resources/events.js';
import type { EventFeed } from '../../../api/schemas/events.js';
import { pagesAhead } from '../../../api/resources/list.js';
import { resolveFormat } from '../../../output/formatters.js';
import { createListWriter } from '../../../output/list-writer.js';
import { summarizeEvent } from './summary.js';
import { EVENT_LIST_COLUMNS, type ListEventsOptions } from './list.js';
import { holdYoungGeneration } from '../../stream-memory.js';

export async function runListEvents(ctx: CliContext, opts: ListEventsOptions): Promise<void> {
  const client = await ctx.client();
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'list' });
  // The short summary is a column for people; the structured formats print the event as it is.
  const withSummary = format === 'table' || format === 'tsv' || format === 'csv';
  const writer = createListWriter(ctx.io, { format: ctx.outputFormat, columns: EVENT_LIST_COLUMNS, now: ctx.serviceNow() });
  // The pages, in reading order; with --all the next is asked for while this one prints (pagesAhead).
  async function* pages(): AsyncGenerator<{ data: EventFeed['data']; more?: string }> {
    let after = opts.after;
    let before = opts.before;
    for (;;) {
      const page = await listEvents(client, { after, before, order: opts.order, limit: opts.all ? (opts.limit ?? 100) : opts.limit, types: opts.types });
      if (!page.hasMore || !opts.all) {
        yield { data: page.data, more: page.hasMore ? page.cursor : undefined };
        return;
      }
      yield { data: page.data };
      if (opts.order === 'desc') before = page.cursor;
      else after = page.cursor;
    }
  }
  if (opts.all) holdYoungGeneration();
  for await (const page of pagesAhead(pages())) {
    await writer.writeRows(withSummary ? page.data.map((e) => ({ ...e, summary: summarizeEvent(e) })) : page.data);
    if (page.more !== undefined) notice(ctx, `more events: ${opts.order === 'desc' ? '--before' : '--after'} ${page.more} (or --all)`);
  }
  await writer.end();
  if (writer.rowCount === 0 && ctx.io.stderrTTY) notice(ctx, 'no events found');
}
