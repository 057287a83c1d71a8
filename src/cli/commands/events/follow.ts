import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { parseTypeList } from './types-flag.js';

export interface FollowEventsOptions {
  types?: string[];
  /** `now` or a cursor. */
  since?: string;
  cursorFile?: string;
}

export const FOLLOW_COLUMNS = ['createdAt', 'type', 'id', 'summary'];

export function followCommand(parent: Command, ctx: CliContext, runF?: RunF<FollowEventsOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./follow.run.js')).runFollowEvents(ctx, opts));
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
      run({ types: parseTypeList(o.types, '--types'), since: o.since, cursorFile: o.cursorFile }),
    );
}
