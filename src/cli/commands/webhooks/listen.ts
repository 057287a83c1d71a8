import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseTypeList } from '../events/types-flag.js';

export interface ListenOptions {
  /** `--forward-to`, as given: `URL` or `TYPE_PATTERN=URL`, in order. */
  forwardTo: string[];
  events?: string[];
  headers: string[];
  secret?: string;
  printSecret: boolean;
  since?: string;
  cursorFile?: string;
  concurrency: number;
}

export const LISTEN_COLUMNS = ['time', 'type', 'id', 'status', 'ms', 'attempt', 'url', 'error'];
export const LISTEN_USER_AGENT = 'svc-webhooks-listen/0.1.0';
/** Retries of one event: 1 s, 2 s, 4 s … capped at 30 s, until it is delivered or Ctrl-C. */
const RETRY_FIRST_MS = 1000;
const RETRY_CAP_MS = 30_000;

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function listenCommand(parent: Command, ctx: CliContext): Command {
  return parent
    .command('listen')
    .description('Forward every event to a local URL, signed as the service signs webhooks, until Ctrl-C')
    .option('--forward-to <url>', 'handler URL, or TYPE_PATTERN=URL to route types (repeatable; first match wins)', collect)
    .option('--events <types>', 'only these types, comma-separated; <family>.* patterns accepted')
    .option('--headers <name:value>', 'an extra request header for the handler (repeatable)', collect)
    .option('--secret <whsec_…>', 'sign with this secret (default: a local secret kept per profile)')
    .option('--print-secret', 'print the signing secret and exit (for scripts)')
    .option('--since <now|cursor>', 'start here: now skips the backlog (default: the cursor file, else now)')
    .option('--cursor-file <file>', 'where the position is kept (default: one per profile and --forward-to)')
    .option('--concurrency <n>', 'events in flight at once (default 1: in order, one at a time)', '1')
    .addHelpText(
      'after',
      `
Follows the events feed (long-polling on the local service, polling every 2 s elsewhere) and POSTs
each event to its handler with the exact body the service delivers (the event fields plus id, type,
createdAt) and the same headers: Content-Type: application/json, X-Service-Signature (t=…,v1=…,
HMAC-SHA256 with the local secret; verify with verifyWebhookSignature from svc/webhooks),
Service-Event-Id, Service-Event-Type, Service-Delivery-Attempt, plus --headers.

The local secret (whsec_…) is generated once per profile and kept in listen-secrets.json in the
config dir (mode 0600), so it stays the same across restarts; --secret fixes it instead. A "ready"
line on stderr (terminal or not) says it is listening and shows the secret and the handlers.

One line per delivery attempt: time, type, event id, status (HTTP status or the connection error),
ms; with -v also the handler's response and the first lines of its body on stderr. -o ndjson (or
-o json) prints each attempt as a JSON object. Events go in order, one at a time (--concurrency N to
have up to N in flight). A non-2xx answer or a connection error is retried (1s, 2s, 4s … 30s) until it
succeeds: nothing is skipped, and the position only moves past an event once it was delivered. An
event no --forward-to pattern matches is skipped (a "skipped" line) and the position moves on.

The position is kept in a cursor file (default: listen-cursors/ in the config dir, one per profile
and set of --forward-to), so a restart picks up what arrived while it was down; --since now skips
the backlog. If the service stops answering it says so on stderr and keeps retrying.

Ctrl-C is the normal way to stop: the POST in flight is abandoned (it is sent again next time), the
position is saved, and it exits 0 (not 130).

Examples:
  $ svc webhooks listen --forward-to http://localhost:3000/webhooks
  $ svc webhooks listen --forward-to 'message.*=http://localhost:3000/sms' --forward-to http://localhost:3000/other
  $ svc webhooks listen --forward-to http://localhost:3000/hook --events message.received --since now
  $ SECRET=$(svc webhooks listen --print-secret)`,
    )
    .action(
      async (o: { forwardTo?: string[]; events?: string; headers?: string[]; secret?: string; printSecret?: boolean; since?: string; cursorFile?: string; concurrency: string }) => {
        const concurrency = Number(o.concurrency);
        if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 50) throw new UsageError('--concurrency must be a whole number from 1 to 50', '--concurrency');
        await runListen(ctx, {
          forwardTo: o.forwardTo ?? [],
          events: parseTypeList(o.events, '--events'),
          headers: o.headers ?? [],
          secret: o.secret,
          printSecret: Boolean(o.printSecret),
          since: o.since,
          cursorFile: o.cursorFile,
          concurrency,
        });
      },
    );
}

/** `--secret`, else the profile's stored local secret (created on first use). */
export async function resolveListenSecret(ctx: CliContext, given: string | undefined): Promise<string> {
  if (given !== undefined) {
    if (!/^whsec_\S{8,}$/.test(given)) throw new UsageError('--secret: give a secret starting with whsec_ (at least 8 characters after it)', '--secret');
    return given;
  }
  const { listenSecretFor } = await import('./listen-secrets.js');
  const settings = await ctx.settings();
  return listenSecretFor(ctx.configDir, settings.profileName).secret;
}

/** listen-cursors/<profile>-<hash>.cursor: one per profile, service, sub-account and set of routes. */
export async function defaultListenCursorFile(ctx: CliContext, forwardTo: readonly string[]): Promise<string> {
  const { createHash } = await import('node:crypto');
  const { join } = await import('node:path');
  const settings = await ctx.settings();
  const key = [settings.baseUrl, settings.subaccount ?? '', ...forwardTo].join('\n');
  const hash = createHash('sha1').update(key).digest('hex').slice(0, 16);
  const profile = settings.profileName.replace(/[^A-Za-z0-9_.-]/g, '_');
  return join(ctx.configDir, 'listen-cursors', `${profile}-${hash}.cursor`);
}

export async function runListen(ctx: CliContext, opts: ListenOptions): Promise<void> {
  if (opts.printSecret) {
    ctx.io.stdout.write(`${await resolveListenSecret(ctx, opts.secret)}\n`);
    return;
  }
  if (opts.forwardTo.length === 0) throw new UsageError('--forward-to is needed: the URL of your handler (e.g. http://localhost:3000/webhooks)', '--forward-to');
  if (opts.since !== undefined && opts.since.trim() === '') throw new UsageError('--since: give now or a cursor', '--since');
  const { parseForwardTo, parseHeaders, routeFor, describeRoute } = await import('./listen-routes.js');
  const routes = await parseForwardTo(opts.forwardTo);
  const extraHeaders = parseHeaders(opts.headers);
  const secret = await resolveListenSecret(ctx, opts.secret);
  const cursorFile = opts.cursorFile ?? (await defaultListenCursorFile(ctx, opts.forwardTo));

  const { interruptSignal, createLinePrinter, clockTime, pause, Backoff } = await import('../../long-running.js');
  const { EventStream } = await import('../../event-stream.js');
  const { Forwarder, webhookBody } = await import('./listen-forwarder.js');
  const signal = interruptSignal(ctx);
  const printer = await createLinePrinter(ctx, { columns: LISTEN_COLUMNS });
  const forwarder = new Forwarder({ secret, headers: extraHeaders, userAgent: LISTEN_USER_AGENT, nowMs: () => ctx.now().getTime() });
  const stream = new EventStream(ctx, { types: opts.events, since: opts.since?.trim(), cursorFile, signal });
  const verbose = ctx.verbose;

  try {
    const start = await stream.start();
    if (!start) return;
    ctx.io.stderr.write(
      `ready: forwarding ${routes.map(describeRoute).join(', ')}${opts.events ? ` (events: ${opts.events.join(',')})` : ''}; ` +
        `signing secret ${secret}; cursor file ${cursorFile}; Ctrl-C to stop\n`,
    );

    type Line = { type: string; id: string; url: string | null; attempt: number; status: number | string; ok: boolean; ms: number | null; error: string | null; retryInMs: number | null };
    const printLine = async (l: Line) => {
      const time = ctx.now().toISOString();
      const record = { time, type: l.type, id: l.id, url: l.url, attempt: l.attempt, status: l.status, ok: l.ok, ms: l.ms, error: l.error, retryInMs: l.retryInMs };
      await printer.print(record, { time, type: l.type, id: l.id, status: l.status, ms: l.ms, attempt: l.attempt, url: l.url, error: l.error }, (c) => {
        const status = l.status === 'skipped' ? c.dim('skipped (no --forward-to matches)') : l.ok ? c.success(String(l.status)) : c.error(String(l.status));
        const parts = [c.dim(clockTime(time)), l.type.padEnd(26), c.id(l.id), status];
        if (l.ms !== null) parts.push(`${l.ms} ms`);
        if (l.url !== null && routes.length > 1) parts.push(c.dim(`→ ${l.url}`));
        if (l.retryInMs !== null) parts.push(c.warn(`retrying in ${Math.round(l.retryInMs / 1000)}s (attempt ${l.attempt + 1})`));
        return parts.join('  ');
      });
    };

    /** Delivers one event until a 2xx (true), or false when interrupted. Never throws. */
    const deliver = async (item: import('../../../api/schemas/events.js').EventFeedItem): Promise<boolean> => {
      const route = await routeFor(routes, item.type);
      if (!route) {
        await printLine({ type: item.type, id: item.id, url: null, attempt: 0, status: 'skipped', ok: true, ms: null, error: null, retryInMs: null });
        return true;
      }
      const raw = webhookBody(item);
      const backoff = new Backoff(RETRY_FIRST_MS, RETRY_CAP_MS);
      for (let attempt = 1; ; attempt++) {
        const r = await forwarder.post(route.url, raw, item, attempt, signal);
        if (r.aborted) return false;
        const retryInMs = r.ok ? null : backoff.next();
        await printLine({ type: item.type, id: item.id, url: route.url, attempt, status: r.status ?? r.error ?? 'error', ok: r.ok, ms: r.ms, error: r.ok ? null : (r.error ?? `HTTP ${r.status}`), retryInMs });
        if (verbose) {
          ctx.io.stderr.write(`  ${route.url} answered ${r.status ?? r.error} in ${r.ms} ms\n`);
          const bodyLines = r.body.split(/\r?\n/).filter((l) => l.trim() !== '').slice(0, 5);
          for (const line of bodyLines) ctx.io.stderr.write(`  | ${line.length > 200 ? `${line.slice(0, 200)}…` : line}\n`);
        }
        if (r.ok) return true;
        if (!(await pause(retryInMs!, signal))) return false;
      }
    };

    // The position moves past an event only once it and every event before it were handled.
    const window: Array<{ position: import('../../event-stream.js').FeedPosition; done: boolean }> = [];
    const commit = () => {
      let last: import('../../event-stream.js').FeedPosition | undefined;
      while (window.length > 0 && window[0]!.done) last = window.shift()!.position;
      if (last) stream.save(last);
    };
    const running = new Set<Promise<void>>();
    let stopped = false;
    let failure: unknown;
    for await (const { item, position } of stream.events()) {
      const slot = { position, done: false };
      window.push(slot);
      const p: Promise<void> = deliver(item).then((delivered) => {
        if (delivered) {
          slot.done = true;
          commit();
        } else stopped = true;
      }, (err: unknown) => {
        failure ??= err;
        stopped = true;
      });
      running.add(p);
      void p.finally(() => running.delete(p));
      while (running.size >= opts.concurrency) await Promise.race(running);
      if (stopped || signal.aborted) break;
    }
    await Promise.allSettled([...running]);
    if (failure !== undefined) throw failure;
  } finally {
    await forwarder.close();
  }
}
