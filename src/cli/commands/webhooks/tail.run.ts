import type { CliContext } from '../../context.js';
import { interruptSignal, pause, createLinePrinter, clockTime, Backoff, ServiceHealth, isUnavailable } from '../../long-running.js';
import { getWebhook, deliveryList, getDelivery } from '../../../api/resources/webhooks.js';
import { listPage } from '../../../api/resources/list.js';
import { ApiError } from '../../../api/client/errors.js';
import type { Delivery } from '../../../api/schemas/webhooks.js';
import { FINAL_DELIVERY_STATUSES } from '../../../api/values/webhooks.js';
import { TAIL_COLUMNS } from './columns.js';
import type { TailOptions } from './options.js';

/** Watched deliveries looked up one by one per read, at most (those that left the pages read). */
const LOOKUPS_PER_READ = 20;

const stateOf = (d: Delivery): string => JSON.stringify([d.attempt, d.status, d.responseStatus, d.nextAttemptAt, d.error]);
const timeOf = (d: Delivery): string => d.attempts.at(-1)?.at ?? d.createdAt;
const byTime = (a: Delivery, b: Delivery): number => timeOf(a).localeCompare(timeOf(b)) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

export async function runTail(ctx: CliContext, opts: TailOptions): Promise<void> {
  const { id } = opts;
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
    if (FINAL_DELIVERY_STATUSES.has(d.status) && d.nextAttemptAt === null) watched.delete(d.id);
    else watched.add(d.id);
  };

  /** The deliveries that may have changed: the newest page, every failed/pending one in reach, and watched ones that left those. */
  const read = async (): Promise<Map<string, Delivery>> => {
    const seen = new Map<string, Delivery>();
    const pages = await Promise.all([
      listPage(client, deliveryList(id), { limit: 100 }, call),
      listPage(client, deliveryList(id), { limit: 100, status: 'failed' }, call),
      listPage(client, deliveryList(id), { limit: 100, status: 'pending' }, call),
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
