import type { UnitOfWork } from '../deps.js';
import type { Actor } from '../actor.js';
import type { EventStore } from '../events/store.js';
import type { SinkRequestRecord } from '../../storage/sinks-repo.js';
import type { SinkRequestsQuery } from '../../../api/schemas/sinks.js';
import { HeldReads } from '../events/held-reads.js';
import { positionCursor } from '../events/position-cursor.js';
import { getSink } from './sinks.js';

// contract §10 (extension): `GET /v1/sandbox/sinks/{id}/requests` — the requests a sink keeps, read
// like the events feed (domain/events/feed.ts): newest first by default (`order=desc`, paging back
// with `before`), oldest first from `after` (`order=asc`), opaque cursors, `after=now`, and `wait`
// holding a read that finds nothing until the sink keeps a request. A held read parks in
// `HeldReads`, woken after the commit of a kept request (EventStore.touched, kind `sink`; on
// PostgreSQL another replica's too) and re-reads the database.

const SINK_CURSOR = positionCursor('sk1.');

export interface SinkRequestsPage {
  requests: SinkRequestRecord[];
  cursor: string;
  hasMore: boolean;
}

export class SinkRequestsFeed {
  private readonly held: HeldReads;

  constructor(private readonly d: { uow: UnitOfWork; events: EventStore }) {
    this.held = new HeldReads(d.events, () => false, (c) => c.kind === 'sink');
  }

  /** Releases every held read (each answers with no requests) and refuses to hold new ones. */
  close(): void {
    this.held.close();
  }

  async read(actor: Actor, sinkId: string, q: SinkRequestsQuery, signal?: AbortSignal): Promise<SinkRequestsPage> {
    const { sink } = await this.d.uow.read((tx) => getSink(tx, actor, sinkId));
    const position = (param: 'after' | 'before', cursor: string) => SINK_CURSOR.decode(cursor, ['query', param], `pass back a cursor from a previous response unchanged${param === 'after' ? ' (or `now`)' : ''}`);
    const before = q.before === undefined ? undefined : position('before', q.before);
    const head = async () => (await this.d.uow.read((tx) => tx.sinks.getById(sink.id)))?.received ?? 0;
    const after = q.after === 'now' ? await head() : q.after === undefined ? undefined : position('after', q.after);

    const attempt = async (): Promise<SinkRequestsPage | undefined> => {
      const { rows, hasMore } = await this.d.uow.read((tx) => tx.sinks.requestsPage(sink.id, { afterSeq: after, beforeSeq: before, order: q.order, limit: q.limit }));
      if (rows.length === 0) return undefined;
      return { requests: rows, cursor: SINK_CURSOR.encode(rows[rows.length - 1]!.seq), hasMore };
    };
    // No requests: the position given (asc without `after`: the start; desc without a bound: the
    // newest, which works both to page back with `before` and to follow with `after`).
    const empty = async (): Promise<SinkRequestsPage> => ({
      requests: [],
      cursor: SINK_CURSOR.encode(q.order === 'asc' ? (after ?? 0) : (before ?? after ?? (await head()))),
      hasMore: false,
    });

    const first = await attempt();
    if (first) {
      // As the events feed: a read that may wait answers only what its credentials may read now.
      if (q.wait > 0) await actor.recheck?.();
      return first;
    }
    // A read back in time (`before`) is never held: nothing new can arrive there.
    if (before !== undefined) return empty();
    return this.held.hold(sink.accountId, q.wait, attempt, empty, signal, actor.recheck);
  }
}
