// The ONE engine that follows the events feed, shared by `svc events follow` and `svc webhooks
// listen` (cli.md: The long-running commands; spec: Events feed; contract §10).
//
// - On the local service it uses the `wait` long-poll (an event is answered the moment it commits);
//   with another profile, or when the service refuses `wait` (400), it polls every 2 s.
// - Positions: the feed's cursor is the position after the LAST item of a page, but a follower saves
//   its position after EACH event it handled. A position is therefore `{after, lastEventId}`: the
//   cursor the page was read from plus the last event handled on it (or just `{after}` at a page's
//   end). Resuming re-reads the page from `after` and drops the items up to `lastEventId`: events are
//   append-only and in commit order, so that page starts with the same items. Stopping and starting
//   loses nothing and repeats nothing. (If `lastEventId` is not in that page, e.g. `--types` changed,
//   the page is handled again: at least once, never lost.)
// - The cursor file is written atomically (a temp file, then rename), mode 0600.
// - When the service stops answering, it says so once on stderr and retries with backoff, forever.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { CliContext } from './context.js';
import { UsageError } from './errors.js';
import { Backoff, ServiceHealth, isUnavailable, pause } from './long-running.js';
import type { ApiClient } from '../api/client/client.js';
import type { EventFeed, EventFeedItem } from '../api/schemas/events.js';
import { listEvents } from '../api/resources/events.js';
import { ApiError } from '../api/client/errors.js';

export interface FeedPosition {
  /** A feed cursor (pass as `after`). */
  after: string;
  /** The last event handled among those after `after`; absent when every one of them was. */
  lastEventId?: string;
}

export interface StreamedEvent {
  /** The feed item as received (the webhook body plus `eventId`, key order kept). */
  item: EventFeedItem;
  /** The position just past this event: save it once the event is handled. */
  position: FeedPosition;
}

export interface EventStreamOptions {
  types?: string[];
  /** `now` (skip what is there), or a cursor; overrides the cursor file's position. */
  since?: string;
  cursorFile?: string;
  signal: AbortSignal;
  /** Page size of each read (1-100). */
  pageSize?: number;
}

/** Seconds a long-poll is held (the service allows 0-30). */
export const LONG_POLL_SECS = 25;
/** cli.md: "polls every 2 s elsewhere". */
export const POLL_INTERVAL_MS = 2000;

// ---- the cursor file ----

export function readCursorFile(path: string, flag = '--cursor-file'): FeedPosition | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`${flag}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, flag);
  }
  if (text === '') return undefined;
  if (!text.startsWith('{')) return { after: text }; // a bare cursor, as `--since` takes it
  try {
    const value = JSON.parse(text) as Partial<FeedPosition>;
    if (typeof value.after === 'string' && value.after !== '' && (value.lastEventId === undefined || typeof value.lastEventId === 'string')) {
      return value.lastEventId ? { after: value.after, lastEventId: value.lastEventId } : { after: value.after };
    }
  } catch {
    // reported below
  }
  throw new UsageError(`${flag}: ${path} is not a cursor file written by svc (delete it to start from now)`, flag);
}

/** Atomic: a reader (or a crash) sees the old position or the new one, never half of one. */
export function writeCursorFile(path: string, position: FeedPosition): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(position)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

// ---- the follower ----

/**
 * cli.md: the `wait` long-poll on the local service (the built-in `local` profile), polling every
 * 2 s elsewhere. A service that refuses `wait` (400) is polled too (see read()).
 */
export async function supportsLongPoll(ctx: CliContext): Promise<boolean> {
  return (await ctx.settings()).isLocal;
}

export class EventStream {
  private client!: ApiClient;
  private longPoll = false;
  private position: FeedPosition | undefined;
  private health!: ServiceHealth;
  private readonly backoff = new Backoff();

  constructor(
    private readonly ctx: CliContext,
    private readonly opts: EventStreamOptions,
  ) {}

  /**
   * Decides where to start (`--since`, else the cursor file, else now), resolving `now` to a real
   * cursor and saving it at once: a follower stopped before any event still resumes from here.
   * Undefined when interrupted first.
   */
  async start(): Promise<FeedPosition | undefined> {
    this.client = await this.ctx.client();
    this.health = new ServiceHealth(this.ctx, `the service at ${this.client.baseUrl}`);
    this.longPoll = await supportsLongPoll(this.ctx);
    const { since, cursorFile } = this.opts;
    let position: FeedPosition | undefined;
    if (since !== undefined && since !== 'now') position = { after: since };
    else if (since === undefined && cursorFile !== undefined) position = readCursorFile(cursorFile);
    // One read before anything else: `now` becomes a real cursor, and a given cursor is checked (a
    // malformed one is exit 2 before a `ready` line, not after).
    const first = await this.read({ after: position?.after ?? 'now', limit: 1 });
    if (!first) return undefined;
    position ??= { after: first.cursor };
    this.position = position;
    this.save(position);
    return position;
  }

  /** Saves a position to the cursor file (no file: nothing to do). */
  save(position: FeedPosition): void {
    if (this.opts.cursorFile !== undefined) writeCursorFile(this.opts.cursorFile, position);
  }

  /** Every event from the start position on, in feed order, until interrupted. */
  async *events(): AsyncGenerator<StreamedEvent, void, undefined> {
    if (!this.position) throw new Error('EventStream.events() before start()');
    const { signal } = this.opts;
    let skipThrough = this.position.lastEventId;
    const pageSize = this.opts.pageSize ?? 100;
    while (!signal.aborted) {
      const from = this.position.after;
      const asked = performance.now();
      const page = await this.read({ after: from, limit: pageSize, wait: this.longPoll ? LONG_POLL_SECS : undefined });
      if (!page) return; // interrupted
      let items = page.data;
      if (skipThrough !== undefined) {
        const at = items.findIndex((i) => i.eventId === skipThrough);
        if (at >= 0) items = items.slice(at + 1);
        skipThrough = undefined;
      }
      for (let i = 0; i < items.length; i++) {
        const last = i === items.length - 1;
        const position: FeedPosition = last ? { after: page.cursor } : { after: from, lastEventId: items[i]!.eventId };
        yield { item: items[i]!, position };
        if (signal.aborted) return;
      }
      this.position = { after: page.cursor };
      if (page.hasMore) continue;
      // Polling: wait before asking again. Long-polling: the service held the request until an
      // event came or its time ran out; one that answers "nothing" at once (closing) is not spun on.
      const wait = !this.longPoll ? POLL_INTERVAL_MS : page.data.length === 0 && performance.now() - asked < 1000 ? 1000 : 0;
      if (wait > 0 && !(await pause(wait, signal))) return;
    }
  }

  /**
   * One read of the feed, retried with backoff while the service does not answer (said once on
   * stderr). Undefined when interrupted. A 400 about `wait` switches to polling.
   */
  private async read(q: { after: string; limit: number; wait?: number }): Promise<EventFeed | undefined> {
    const { signal } = this.opts;
    for (;;) {
      if (signal.aborted) return undefined;
      const wait = this.longPoll ? q.wait : undefined;
      try {
        const page = await listEvents(
          this.client,
          { after: q.after, limit: q.limit, types: this.opts.types, wait },
          { signal, maxAttempts: 1, timeoutMs: ((wait ?? 0) + 15) * 1000 },
        );
        this.health.answered();
        this.backoff.reset();
        return page;
      } catch (err) {
        if (signal.aborted) return undefined;
        if (wait !== undefined && err instanceof ApiError && err.status === 400 && isAboutWait(err.details, err.message)) {
          this.longPoll = false; // this service has no long-poll: poll every 2 s instead
          if (this.ctx.verbose) this.ctx.io.stderr.write('svc: the service does not support wait; polling every 2s\n');
          continue;
        }
        if (!(await isUnavailable(err))) throw err;
        const ms = this.backoff.next();
        await this.health.failed(err, ms);
        if (!(await pause(ms, signal))) return undefined;
      }
    }
  }
}

/** A 400 that names the `wait` parameter (a service without the long-poll extension). */
function isAboutWait(details: unknown, message: string): boolean {
  if (Array.isArray(details)) return details.some((d) => Array.isArray((d as { path?: unknown }).path) && (d as { path: unknown[] }).path.includes('wait'));
  return /\bwait\b/.test(message);
}
