import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { interruptSignal, createLinePrinter, clockTime, pause, Backoff } from '../../long-running.js';
import { EventStream, type FeedPosition } from '../../event-stream.js';
import type { EventFeedItem } from '../../../api/schemas/events.js';
import { SVC_VERSION } from '../../../api/values/version.js';
import { listenSecretFor } from './listen-secrets.js';
import { parseForwardTo, parseHeaders, routeFor, describeRoute } from './listen-routes.js';
import { Forwarder, webhookBody } from './listen-forwarder.js';
import type { ListenOptions } from './options.js';

export const LISTEN_COLUMNS = ['time', 'type', 'id', 'status', 'ms', 'attempt', 'url', 'error'];
export const LISTEN_USER_AGENT = `svc-webhooks-listen/${SVC_VERSION}`;
/** Retries of one event: 1 s, 2 s, 4 s … capped at 30 s, until it is delivered or Ctrl-C. */
const RETRY_FIRST_MS = 1000;
const RETRY_CAP_MS = 30_000;

/** `--secret`, else the profile's stored local secret (created on first use). */
export async function resolveListenSecret(ctx: CliContext, given: string | undefined): Promise<string> {
  if (given !== undefined) {
    if (!/^whsec_\S{8,}$/.test(given)) throw new UsageError('--secret: give a secret starting with whsec_ (at least 8 characters after it)', '--secret');
    return given;
  }
  const settings = await ctx.settings();
  return listenSecretFor(ctx.configDir, settings.profileName).secret;
}

/** listen-cursors/<profile>-<hash>.cursor: one per profile, service, sub-account and set of routes. */
export async function defaultListenCursorFile(ctx: CliContext, forwardTo: readonly string[]): Promise<string> {
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
  const routes = await parseForwardTo(opts.forwardTo);
  const extraHeaders = parseHeaders(opts.headers);
  const secret = await resolveListenSecret(ctx, opts.secret);
  const cursorFile = opts.cursorFile ?? (await defaultListenCursorFile(ctx, opts.forwardTo));

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

    type Line = { item: EventFeedItem; url: string | null; attempt: number; status: number | string; ok: boolean; ms: number | null; error: string | null; retryInMs: number | null };
    const printLine = async ({ item, ...l }: Line) => {
      // The event's own time (when the service made it), as `events follow` prints it: never a clock
      // read when the line is printed, which a backlog, a retry or a clock move puts anywhere.
      const { createdAt: time, type, id } = item;
      const record = { time, type, id, url: l.url, attempt: l.attempt, status: l.status, ok: l.ok, ms: l.ms, error: l.error, retryInMs: l.retryInMs };
      await printer.print(record, { time, type, id, status: l.status, ms: l.ms, attempt: l.attempt, url: l.url, error: l.error }, (c) => {
        const status = l.status === 'skipped' ? c.dim('skipped (no --forward-to matches)') : l.ok ? c.success(String(l.status)) : c.error(String(l.status));
        const parts = [c.dim(clockTime(time)), type.padEnd(26), c.id(id), status];
        if (l.ms !== null) parts.push(`${l.ms} ms`);
        if (l.url !== null && routes.length > 1) parts.push(c.dim(`→ ${l.url}`));
        if (l.retryInMs !== null) parts.push(c.warn(`retrying in ${Math.round(l.retryInMs / 1000)}s (attempt ${l.attempt + 1})`));
        return parts.join('  ');
      });
    };

    /** Delivers one event until a 2xx (true), or false when interrupted. Never throws. */
    const deliver = async (item: EventFeedItem): Promise<boolean> => {
      const route = await routeFor(routes, item.type);
      if (!route) {
        await printLine({ item, url: null, attempt: 0, status: 'skipped', ok: true, ms: null, error: null, retryInMs: null });
        return true;
      }
      const raw = webhookBody(item);
      const backoff = new Backoff(RETRY_FIRST_MS, RETRY_CAP_MS);
      for (let attempt = 1; ; attempt++) {
        const r = await forwarder.post(route.url, raw, item, attempt, signal);
        if (r.aborted) return false;
        const retryInMs = r.ok ? null : backoff.next();
        await printLine({ item, url: route.url, attempt, status: r.status ?? r.error ?? 'error', ok: r.ok, ms: r.ms, error: r.ok ? null : (r.error ?? `HTTP ${r.status}`), retryInMs });
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
    const window: Array<{ position: FeedPosition; done: boolean }> = [];
    const commit = () => {
      let last: FeedPosition | undefined;
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
