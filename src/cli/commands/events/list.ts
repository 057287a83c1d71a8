import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { enumOption, parseLimit, type RunF } from '../../command-kit.js';
import { FEED_ORDERS } from '../../../api/values/events.js';
import { parseTypeList } from './types-flag.js';

export interface ListEventsOptions {
  types?: string[];
  after?: string;
  before?: string;
  order: (typeof FEED_ORDERS)[number];
  limit?: number;
  all: boolean;
}

/** Table and tab-separated columns; json, yaml and ndjson print the events whole. */
export const EVENT_LIST_COLUMNS = ['createdAt', 'type', 'id', 'summary'];

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListEventsOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./list.run.js')).runListEvents(ctx, opts));
  return parent
    .command('list')
    .description('List events from the durable feed, newest first like every list (--order asc for oldest first)')
    .option('--types <types>', 'only these types, comma-separated; <family>.* patterns accepted (message.*)')
    .option('--after <cursor>', 'events after this cursor (now: none, just the head cursor)')
    .option('--before <cursor>', 'events before this cursor (paging back with --order desc)')
    .addOption(enumOption('--order <order>', 'desc (newest first; the default) or asc (oldest first; the default with --after)', FEED_ORDERS))
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
  $ svc events list --order asc --limit 10 -o json
  $ svc events list --types 'email.*' --all -o ndjson`,
    )
    .action(async (o: { types?: string; after?: string; before?: string; order?: 'asc' | 'desc'; limit?: string; all?: boolean }) =>
      run({
        types: parseTypeList(o.types, '--types'),
        after: o.after,
        before: o.before,
        // Newest first, as every other list; --after (events after a cursor) reads forward.
        order: o.order ?? (o.after !== undefined ? 'asc' : 'desc'),
        limit: parseLimit(o.limit),
        all: Boolean(o.all),
      }),
    );
}
