import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { listEvents } from '../../../api/resources/events.js';
import type { EventFeed } from '../../../api/schemas/events.js';
import { pagesAhead } from '../../../api/resources/list.js';
import { resolveFormat } from '../../../output/formatters.js';
import { createListWriter } from '../../../output/list-writer.js';
import { summarizeEvent } from './summary.js';
import { EVENT_LIST_COLUMNS } from './columns.js';
import { parseLimit } from '../../command-kit.js';
import { parseTypeList } from './types-flag.js';
import type { FEED_ORDERS } from '../../../api/values/events.js';
import { holdYoungGeneration } from '../../stream-memory.js';

export interface ListEventsFlags {
  types?: string;
  after?: string;
  before?: string;
  order?: (typeof FEED_ORDERS)[number];
  limit?: string;
  all?: boolean;
}

export interface ListEventsOptions {
  types?: string[];
  after?: string;
  before?: string;
  order: (typeof FEED_ORDERS)[number];
  limit?: number;
  all: boolean;
}

export const listEventsOptionsOf = (o: ListEventsFlags): ListEventsOptions => ({
  types: parseTypeList(o.types, '--types'),
  after: o.after,
  before: o.before,
  // Newest first, as every other list; --after (events after a cursor) reads forward.
  order: o.order ?? (o.after !== undefined ? 'asc' : 'desc'),
  limit: parseLimit(o.limit),
  all: Boolean(o.all),
});

export async function runListEvents(ctx: CliContext, flags: ListEventsFlags): Promise<void> {
  const opts = listEventsOptionsOf(flags);
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
