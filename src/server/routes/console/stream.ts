import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { eventFilterError, eventFilterMatches } from '../../../api/schemas/events.js';
import type { ServiceDeps } from '../../deps.js';
import { ServiceError } from '../../errors.js';
import { CONSOLE_HEADERS } from '../../views/console/layout.js';
import { messageMove } from '../../domain/events/store.js';
import { parseWith } from './gate.js';

// issue 27: the console's live pages listen here: server-sent events, one per event of the session's
// account that commits (the event store tells its listeners after the commit), filtered by type. Each
// carries the event's id and type, and a message's status for the thread to set in place; for
// anything else the page fetches itself again to show it. Changes no event reports come as `change`. The session is
// checked again before each message and every HEARTBEAT_MS: a revoked key ends the stream.

const HEARTBEAT_MS = 15_000;
const StreamQuery = z.strictObject({ types: z.string().min(1).max(2000).optional() });

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

export function consoleStreamRoute(c: FastifyInstance, deps: ServiceDeps): void {
  const open = new Set<() => void>();
  // The service's close waits for open responses: end every stream first.
  c.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  c.get('/stream', { config: { public: true }, schema: { hide: true } as never }, async (req: FastifyRequest, reply) => {
    const { types } = parseWith(StreamQuery, 'query', req.query);
    const filter = typeFilter(types);
    const { actor } = req.console;
    const accountId = actor.account.id;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { ...CONSOLE_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', 'X-Accel-Buffering': 'no' });
    res.write(': listening\n\n');

    let ended = false;
    const end = (reason?: string) => {
      if (ended) return;
      ended = true;
      unsubscribe();
      unsubscribeChanges();
      unsubscribeResync();
      clearInterval(heartbeat);
      open.delete(end);
      if (reason && !res.writableEnded) res.write(`event: ended\ndata: ${JSON.stringify({ reason })}\n\n`);
      res.end();
    };
    // Checks the session again, then writes; a session that ended says so and closes the stream.
    const send = (text: string) => {
      actor.recheck!().then(
        () => {
          if (!ended) res.write(text);
        },
        (err: unknown) => end(err instanceof Error ? err.message : 'session ended'),
      );
    };
    const unsubscribe = deps.events.subscribe((e) => {
      if (e.accountId !== accountId || !eventFilterMatches(filter, e.type)) return;
      // A message's new status is set in place; anything else makes the page fetch itself. An event
      // another process committed comes as a hint, which carries the move when it has one.
      const move = 'body' in e ? messageMove(e.type, e.body as Record<string, unknown>) : e.move;
      send(`data: ${JSON.stringify({ id: e.id, type: e.type, ...move })}\n\n`);
    });
    // Changes that are no event (a call's trace, a live message's `queued` and `sending`), as `change` messages.
    const unsubscribeChanges = deps.events.subscribeChanges((ch) => {
      if (ch.accountId !== accountId || !eventFilterMatches(filter, `${ch.kind}.changed`)) return;
      send(`event: change\ndata: ${JSON.stringify(ch.kind === 'message' ? { messageId: ch.id, status: ch.status } : { callId: ch.id })}\n\n`);
    });
    // Events or changes committed elsewhere may have gone unheard (issue 26/27: a lost connection, a
    // notice dropped before it was read): a message with nothing in it, and the page fetches itself.
    const unsubscribeResync = deps.events.subscribeResync(() => send('data: {}\n\n'));
    const heartbeat = setInterval(() => send(': still here\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    open.add(end);
    req.raw.on('close', () => end());
  });
}
