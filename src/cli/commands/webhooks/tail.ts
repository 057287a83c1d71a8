import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { Delivery } from '../../../api/schemas/webhooks.js';

export interface TailOptions {
  /** Deliveries of the log printed first (newest N, oldest first). */
  last: number;
  /** How often the log is read. */
  intervalMs: number;
}

export const TAIL_COLUMNS = ['time', 'id', 'eventType', 'eventId', 'attempt', 'status', 'responseStatus', 'durationMs', 'nextAttemptAt', 'error'];
/** spec: the log is read every ~1 s. */
export const TAIL_INTERVAL_MS = 1000;
/** Watched deliveries looked up one by one per read, at most (those that left the pages read). */
const LOOKUPS_PER_READ = 20;

export function tailCommand(parent: Command, ctx: CliContext): Command {
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
  $ svc webhooks tail we_123
  $ svc webhooks tail we_123 --last 0 -o ndjson | jq 'select(.status == "failed")'`,
    )
    .action(async (id: string, o: { last: string }) => {
      const last = Number(o.last);
      if (!Number.isInteger(last) || last < 0 || last > 100) throw new UsageError('--last must be a whole number from 0 to 100', '--last');
      await runTail(ctx, id, { last, intervalMs: TAIL_INTERVAL_MS });
    });
}

const FINAL = new Set(['succeeded', 'abandoned']);
const stateOf = (d: Delivery): string => JSON.stringify([d.attempt, d.status, d.responseStatus, d.nextAttemptAt, d.error]);
const timeOf = (d: Delivery): string => d.attempts.at(-1)?.at ?? d.createdAt;
const byTime = (a: Delivery, b: Delivery): number => timeOf(a).localeCompare(timeOf(b)) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

export async function runTail(ctx: CliContext, id: string, opts: TailOptions): Promise<void> {
  const { interruptSignal, pause, createLinePrinter, clockTime, Backoff, ServiceHealth, isUnavailable } = await import('../../long-running.js');
  const { getWebhook, listDeliveries, getDelivery } = await import('../../../api/resources/webhooks.js');
  const { ApiError } = await import('../../../api/client/errors.js');
  const signal = interruptSignal(ctx);
  const client = await ctx.client();
  await getWebhook(client, id); // a wrong id: exit 4 now, not a silent empty tail
  const printer = await createLinePrinter(ctx, { columns: TAIL_COLUMNS });
  const health = new ServiceHealth(ctx, `the service at ${client.baseUrl}`);
  const backoff = new Backoff();
  const call = { signal, maxAttempts: 1 };

  const known = new Map<string, string>();
  const watched = new Set<string>(); // not final yet: may still change
  let lookupFrom = 0;

  const print = async (d: Delivery) => {
    const row = { time: timeOf(d), id: d.id, eventType: d.eventType, eventId: d.eventId, attempt: d.attempt, status: d.status, responseStatus: d.responseStatus, durationMs: d.durationMs, nextAttemptAt: d.nextAttemptAt, error: d.error };
    await printer.print(d, row, (c) =>
      [
        c.dim(clockTime(row.time)),
        c.id(d.id),
        d.eventType.padEnd(26),
        d.eventId,
        `attempt ${d.attempt}`,
        c.status(d.status.padEnd(9)),
        d.responseStatus === null ? (d.error ? c.dim(d.error) : '-') : `HTTP ${d.responseStatus}`,
        d.nextAttemptAt ? `next ${clockTime(d.nextAttemptAt)}` : '',
      ]
        .filter((p) => p !== '')
        .join('  '),
    );
  };
  const remember = (d: Delivery) => {
    known.set(d.id, stateOf(d));
    if (FINAL.has(d.status) && d.nextAttemptAt === null) watched.delete(d.id);
    else watched.add(d.id);
  };

  /** The deliveries that may have changed: the newest page, every failed/pending one in reach, and watched ones that left those. */
  const read = async (): Promise<Map<string, Delivery>> => {
    const seen = new Map<string, Delivery>();
    const pages = await Promise.all([
      listDeliveries(client, id, { limit: 100 }, call),
      listDeliveries(client, id, { limit: 100, status: 'failed' }, call),
      listDeliveries(client, id, { limit: 100, status: 'pending' }, call),
    ]);
    for (const p of pages) for (const d of p.data) seen.set(d.id, d);
    const missing = [...watched].filter((w) => !seen.has(w));
    const batch = missing.length <= LOOKUPS_PER_READ ? missing : [...missing, ...missing].slice(lookupFrom % missing.length, (lookupFrom % missing.length) + LOOKUPS_PER_READ);
    lookupFrom += LOOKUPS_PER_READ;
    for (const deliveryId of batch) {
      try {
        seen.set(deliveryId, await getDelivery(client, id, deliveryId, call));
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404 && err.code === 'not_found')) throw err;
        watched.delete(deliveryId); // purged from the log (7 days): nothing more will happen to it
      }
    }
    return seen;
  };

  const first = await read();
  const initial = [...first.values()].sort(byTime);
  for (const d of initial) remember(d);
  for (const d of initial.slice(Math.max(0, initial.length - opts.last))) await print(d);
  if (ctx.io.stderrTTY) ctx.io.stderr.write(`following the delivery log of ${id}; Ctrl-C to stop\n`);

  while (await pause(opts.intervalMs, signal)) {
    let seen: Map<string, Delivery>;
    try {
      seen = await read();
      health.answered();
      backoff.reset();
    } catch (err) {
      if (signal.aborted) break;
      if (err instanceof ApiError && err.code === 'not_found') throw err; // the endpoint was deleted: exit 4
      if (!(await isUnavailable(err))) throw err;
      const ms = backoff.next();
      await health.failed(err, ms);
      if (!(await pause(ms, signal))) break;
      continue;
    }
    const changed = [...seen.values()].filter((d) => known.get(d.id) !== stateOf(d)).sort(byTime);
    for (const d of changed) {
      remember(d);
      await print(d);
    }
  }
}
