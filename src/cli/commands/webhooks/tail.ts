import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { UsageError } from '../../errors.js';

export interface TailOptions {
  id: string;
  /** Deliveries of the log printed first (newest N, oldest first). */
  last: number;
  /** How often the log is read. */
  intervalMs: number;
}

export const TAIL_COLUMNS = ['time', 'id', 'eventType', 'eventId', 'attempt', 'status', 'responseStatus', 'durationMs', 'nextAttemptAt', 'error'];
/** spec: the log is read every ~1 s. */
export const TAIL_INTERVAL_MS = 1000;

export function tailCommand(parent: Command, ctx: CliContext, runF?: RunF<TailOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./tail.run.js')).runTail(ctx, opts));
  return parent
    .command('tail')
    .description("Follow an endpoint's delivery log live: new deliveries, attempts, status, next retry")
    .argument('<id>', 'endpoint id (we_…)')
    .option('--last <n>', 'print the newest N deliveries of the log first (0: only what happens from now)', '10')
    .addHelpText(
      'after',
      `
Reads the log about every second and prints one line for each new delivery and each change of one
(attempt, status, responseStatus, nextAttemptAt): on a terminal time, delivery, event type, event id,
attempt, status, HTTP status, next retry; piped, tab-separated columns (${TAIL_COLUMNS.join(', ')});
-o ndjson (or -o json) prints the delivery itself, one JSON object per line.

If the service stops answering it says so once on stderr and keeps retrying. Ctrl-C is the normal
way to stop: it stops cleanly and exits 0 (not 130). A deleted endpoint ends it with exit 4.

Examples:
  $ svc webhooks tail we_S8Bq37q53Fx1ZziV3BwL
  $ svc webhooks tail we_S8Bq37q53Fx1ZziV3BwL --last 0 -o ndjson | jq 'select(.status == "failed")'`,
    )
    .action(async (id: string, o: { last: string }) => {
      const last = Number(o.last);
      if (!Number.isInteger(last) || last < 0 || last > 100) throw new UsageError('--last must be a whole number from 0 to 100', '--last');
      await run({ id, last, intervalMs: TAIL_INTERVAL_MS });
    });
}
