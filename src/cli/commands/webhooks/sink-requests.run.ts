import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { Backoff, ServiceHealth, clockTime, createLinePrinter, interruptSignal, isUnavailable, pause } from '../../long-running.js';
import { LONG_POLL_SECS } from '../../event-stream.js';
import { holdYoungGeneration } from '../../stream-memory.js';
import { printList } from '../../../output/formatters.js';
import { columnFields } from '../../../output/columns.js';
import { listSinkRequests } from '../../../api/resources/sinks.js';
import { ApiError } from '../../../api/client/errors.js';
import type { SinkRequest } from '../../../api/schemas/sinks.js';
import { SINK_REQUEST_COLUMNS } from './columns.js';
import type { SinkRequestsOptions } from './sink-options.js';

// `svc webhooks sink requests <id> [--follow]` (cli.md: Webhooks you can inspect): what a sink kept,
// newest first; with --follow, the newest --limit in the order they came, then each new one as the
// sink keeps it (the service holds the read until one arrives: `wait`), until Ctrl-C.

const row = (r: SinkRequest) => ({ receivedAt: r.receivedAt, id: r.id, eventType: r.eventType, eventId: r.eventId, attempt: r.attempt, answeredStatus: r.answeredStatus, signatureValid: r.signatureValid });

export async function runSinkRequests(ctx: CliContext, opts: SinkRequestsOptions): Promise<void> {
  const client = await ctx.client();
  if (!opts.follow) {
    const page = await listSinkRequests(client, opts.id, { limit: opts.limit });
    await printList(ctx.io, ctx.outputFormat === undefined || ['table', 'csv'].includes(ctx.outputFormat) ? page.data.map(row) : page.data, { format: ctx.outputFormat, columns: SINK_REQUEST_COLUMNS, now: ctx.serviceNow() });
    if (page.hasMore) notice(ctx, `more requests are kept than shown: --limit (up to 100) shows more`);
    else if (page.data.length === 0 && ctx.io.stderrTTY) notice(ctx, 'no requests yet');
    return;
  }

  const signal = interruptSignal(ctx);
  const printer = await createLinePrinter(ctx, { columns: columnFields(SINK_REQUEST_COLUMNS)! });
  const print = (r: SinkRequest) =>
    printer.print(r, row(r), (c) =>
      [
        c.dim(clockTime(r.receivedAt)),
        (r.eventType ?? '-').padEnd(26),
        r.eventId ?? c.dim('(no event id)'),
        r.attempt === null ? '' : `attempt ${r.attempt}`,
        r.answeredStatus === null ? c.dim('answered nobody') : `answered ${r.answeredStatus}`,
        r.signatureValid ? 'signature ok' : c.status('signature NOT verified'),
        c.id(r.id),
      ]
        .filter((p) => p !== '')
        .join('  '),
    );

  // The newest ones first (a wrong id: exit 4 now), printed in the order they came; then forward from
  // the oldest of them, skipping those already printed.
  const first = await listSinkRequests(client, opts.id, { limit: opts.limit }, { signal });
  const printed = new Set(first.data.map((r) => r.id));
  for (const r of [...first.data].reverse()) await print(r);
  holdYoungGeneration(); // it runs for hours: its memory must not creep up (stream-memory.ts)
  if (ctx.io.stderrTTY) ctx.io.stderr.write(`following the requests of sink ${opts.id}; Ctrl-C to stop\n`);

  const health = new ServiceHealth(ctx, `the service at ${client.baseUrl}`);
  const backoff = new Backoff();
  let after = first.cursor;
  while (!signal.aborted) {
    let page;
    try {
      page = await listSinkRequests(client, opts.id, { order: 'asc', after, limit: 100, wait: LONG_POLL_SECS }, { signal, maxAttempts: 1 });
      health.answered();
      backoff.reset();
    } catch (err) {
      if (signal.aborted) break;
      if (err instanceof ApiError && err.code === 'not_found') throw err; // the sink was deleted: exit 4
      if (!(await isUnavailable(err))) throw err;
      const ms = backoff.next();
      await health.failed(err, ms);
      if (!(await pause(ms, signal))) break;
      continue;
    }
    for (const r of page.data) {
      if (printed.delete(r.id)) continue;
      await print(r);
    }
    after = page.cursor;
  }
}
