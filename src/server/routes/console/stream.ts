import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { eventFilterError, eventFilterMatches } from '../../../api/schemas/events.js';
import type { ServiceDeps } from '../../deps.js';
import { ServiceError } from '../../errors.js';
import { CONSOLE_HEADERS } from '../../views/console/layout.js';
import { messageMove } from '../../domain/events/store.js';
import { parseWith } from './gate.js';
import type { EventsFeed } from '../../domain/events/feed.js';
import type { Actor } from '../../domain/actor.js';
import type { EventHint } from '../../storage/store.js';
import type { EventRecord } from '../../storage/events-repo.js';
import { eventRow } from '../../views/console/pages.js';
import { accountCounter, HOLD_LIMITS } from '../../http/client-holds.js';


// The console's live pages listen here: server-sent events, one per event of the session's
// account that commits (the event store tells its listeners after the commit), filtered by type. Each
// carries the event's id and type, and a message's status for the thread to set in place. A page
// that lists events asks for rows (`rows=events`): each message then carries the new event's row,
// rendered by the events tables' own view (`eventRow`), and the page inserts it without fetching
// itself; for anything else the page fetches itself again. Changes no event reports come as
// `change`, as is a request a sink kept, to that sink's page (`sink=`) only. The session is checked again before each message and every HEARTBEAT_MS: a revoked key
// ends the stream. Messages leave in the order their events were heard.

const HEARTBEAT_MS = 15_000;
const StreamQuery = z.strictObject({ types: z.string().min(1).max(2000).optional(), rows: z.enum(['events']).optional(), sink: z.string().min(1).max(200).optional() });

/** The `types` filter: catalog types and `family.*` patterns, comma-separated (as the events feed takes). */
function typeFilter(types: string | undefined): string[] {
  if (types === undefined) return ['*'];
  const entries = types.split(',').map((t) => t.trim());
  for (const e of entries) {
    const error = e === '' ? 'empty event type' : eventFilterError(e);
    if (error) throw new ServiceError('validation_error', `types: ${error}`, [{ path: ['query', 'types'], message: error }]);
  }
  return entries;
}

/**
 * A heard event's row for a session, as the events tables render it, or undefined (then the page
 * fetches itself): the record itself when this process committed it, else read through the feed as
 * the session's actor (only its account's events: spec: Events feed), as is one with no feed
 * position yet (PostgreSQL numbers events just after their commit). A failed read is no row either.
 */
async function rowOf(feed: EventsFeed, actor: Actor, e: EventHint): Promise<string | undefined> {
  const held = 'body' in e && (e as EventRecord).seq > 0 ? (e as EventRecord) : undefined;
  const record = held ?? (await feed.one(actor, e.id).catch(() => undefined));
  return record && eventRow(record).value;
}

export function consoleStreamRoute(c: FastifyInstance, deps: ServiceDeps, feed: EventsFeed): void {
  const open = new Set<() => void>();
  // The service's close waits for open responses: end every stream first.
  c.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  c.get('/stream', { config: { public: true }, schema: { hide: true } as never }, async (req: FastifyRequest, reply) => {
    const { types, rows, sink } = parseWith(StreamQuery, 'query', req.query);
    const filter = typeFilter(types);
    const { actor, standing } = req.console;
    const accountId = actor.account.id;
    // Each open stream holds a connection: bounded per session and per account (429 past either).
    const release = c.clientHolds.hold([
      { id: `console-session:${standing.session.hash}`, max: HOLD_LIMITS.streamsPerSession, what: 'console streams of this session' },
      accountCounter(standing.caller),
    ]);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { ...CONSOLE_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', 'X-Accel-Buffering': 'no' });
    res.write(': listening\n\n');

    let ended = false;
    const end = (reason?: string) => {
      if (ended) return;
      ended = true;
      unwatch();
      unsubscribe();
      unsubscribeChanges();
      unsubscribeResync();
      clearInterval(heartbeat);
      open.delete(end);
      release();
      if (reason && !res.writableEnded) res.write(`event: ended\ndata: ${JSON.stringify({ reason })}\n\n`);
      res.end();
    };
    // Checks the session again, then writes; a session that ended says so and closes the stream.
    // One after another (a message may wait for its row's read): the page hears events in order.
    let queue: Promise<void> = Promise.resolve();
    const send = (text: string | Promise<string>) => {
      queue = queue.then(async () => {
        if (ended) return;
        try {
          await actor.recheck!();
        } catch (err) {
          return end(err instanceof Error ? err.message : 'session ended');
        }
        const out = await text;
        if (!ended) res.write(out);
      }).catch(() => end('the stream failed'));
    };
    const unsubscribe = deps.events.subscribe((e) => {
      // A sink's page (`sink`) listens to its kept requests only.
      if (sink !== undefined || e.accountId !== accountId || !eventFilterMatches(filter, e.type)) return;
      // A message's new status is set in place, an events table puts the row in; anything else makes
      // the page fetch itself. An event another process committed comes as a hint, which carries the
      // move when it has one (its row is read).
      const move = 'body' in e ? messageMove(e.type, e.body as Record<string, unknown>) : e.move;
      const message = (row?: string) => `data: ${JSON.stringify({ id: e.id, type: e.type, ...move, ...(row === undefined ? {} : { row }) })}\n\n`;
      // The row's read starts now; its message still leaves in its turn.
      send(rows === 'events' ? rowOf(feed, actor, e).then(message) : message());
    });
    // Changes that are no event (a call's trace, a live message's `queued` and `sending`), as `change` messages.
    const unsubscribeChanges = deps.events.subscribeChanges((ch) => {
      if (ch.accountId !== accountId) return;
      // A sink's kept request goes to that sink's page only (the account's own: checked above).
      if (ch.kind === 'sink' || sink !== undefined) {
        if (ch.kind === 'sink' && ch.id === sink) send(`event: change\ndata: ${JSON.stringify({ sinkId: ch.id })}\n\n`);
        return;
      }
      if (!eventFilterMatches(filter, `${ch.kind}.changed`)) return;
      send(`event: change\ndata: ${JSON.stringify(ch.kind === 'message' ? { messageId: ch.id, status: ch.status } : { callId: ch.id })}\n\n`);
    });
    // Events or changes committed elsewhere may have gone unheard (a lost connection, a
    // notice dropped before it was read): a message with nothing in it, and the page fetches itself.
    const unsubscribeResync = deps.events.subscribeResync(() => send('data: {}\n\n'));
    // While it is open, another process's commits are looked for sooner (worker-link.ts).
    const unwatch = deps.events.watch();
    const heartbeat = setInterval(() => send(': still here\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    open.add(end);
    req.raw.on('close', () => end());
  });
}
