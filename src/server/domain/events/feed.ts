import type { UnitOfWork } from '../deps.js';
import type { EventRecord, EventsRepo } from '../../storage/events-repo.js';
import { HeldReads } from './held-reads.js';
import { positionCursor } from './position-cursor.js';
import type { EventStore } from './store.js';
import type { Actor } from '../actor.js';
import { validationError } from '../../errors.js';
import { eventFilterError, type EventFeedQuery } from '../../../api/schemas/events.js';

// spec: Events feed; contract §10. The read model of the feed: pages of stored events (the same
// bodies the webhooks POST; views/events.ts makes each an item) and long-polls.

const FEED_CURSOR = positionCursor('ev1.');

/** A feed position is an event's `seq` (insertion order, which is commit order: one writer). */
export const encodeFeedCursor = (seq: number): string => FEED_CURSOR.encode(seq);

/** A feed cursor given as the query's `after` or `before` (or, `where`, a body's field of that name). */
export function decodeFeedCursor(cursor: string, param: 'after' | 'before', where: 'query' | 'body' = 'query'): number {
  return FEED_CURSOR.decode(cursor, [where, param], `pass back a cursor from a previous response unchanged${where === 'query' ? ' (or `now` for after)' : ''}`);
}

/** One page of the feed: stored events in reading order and the position after the last. */
export interface FeedPage {
  events: EventRecord[];
  cursor: string;
  hasMore: boolean;
}

interface FeedRange {
  afterSeq?: number;
  beforeSeq?: number;
  order: 'asc' | 'desc';
  limit: number;
  exact: string[];
  prefixes: string[];
}

function parseTypes(types: string | undefined): { exact: string[]; prefixes: string[] } {
  const exact: string[] = [];
  const prefixes: string[] = [];
  if (types === undefined) return { exact, prefixes };
  const entries = types.split(',').map((t) => t.trim());
  for (const entry of entries) {
    const error = entry === '' ? 'empty event type' : eventFilterError(entry);
    if (error) throw validationError(['query', 'types'], error);
    if (entry === '*') return { exact: [], prefixes: [] };
    if (entry.endsWith('.*')) prefixes.push(entry.slice(0, -1));
    else exact.push(entry);
  }
  return { exact, prefixes };
}

export interface FeedDeps {
  uow: UnitOfWork;
  events: EventStore;
}

/** The events feed (contract §10); held reads (`wait`) park in `HeldReads` until an event of their account commits. */
export class EventsFeed {
  private readonly held: HeldReads;

  constructor(private readonly d: FeedDeps) {
    this.held = new HeldReads(d.events);
  }

  /** Releases every held request (they answer with no events) and refuses to hold new ones. */
  close(): void {
    this.held.close();
  }

  get waiting(): number {
    return this.held.waiting;
  }

  /**
   * The page for a query. order=asc reads forward from `after`; order=desc reads back from
   * `before` (newest first). `cursor` is the position after the last item in reading order (pass it
   * as `after` for asc, `before` for desc); with no items, the position given; with after=now, the
   * head. `wait` holds a request with no items and no `before` until an event arrives.
   */
  async read(actor: Actor, q: EventFeedQuery, signal?: AbortSignal): Promise<FeedPage> {
    const accountId = actor.account.id;
    const { exact, prefixes } = parseTypes(q.types);
    const before = q.before === undefined ? undefined : decodeFeedCursor(q.before, 'before');
    let after: number | undefined;
    if (q.after === 'now') after = await this.d.uow.read((tx) => tx.eventsRepo.headSeq(accountId));
    else if (q.after !== undefined) after = decodeFeedCursor(q.after, 'after');
    const range: FeedRange = { afterSeq: after, beforeSeq: before, order: q.order, limit: q.limit, exact, prefixes };

    const attempt = async (): Promise<FeedPage | undefined> => {
      const { rows, hasMore } = await this.d.uow.read((tx) => tx.eventsRepo.feedPage(accountId, range));
      if (rows.length === 0) return undefined;
      return { events: rows, cursor: encodeFeedCursor(rows[rows.length - 1]!.seq), hasMore };
    };
    const empty = async (): Promise<FeedPage> => {
      // No items: the position given (asc without `after`: the start; desc without a bound: the
      // head, which works both to page back with `before` and to follow with `after`).
      const position = q.order === 'asc' ? (after ?? 0) : (before ?? after ?? await this.d.uow.read((tx) => tx.eventsRepo.headSeq(accountId)));
      return { events: [], cursor: encodeFeedCursor(position), hasMore: false };
    };

    const first = await attempt();
    if (first) {
      // A read that may wait answers only what its credentials may read when it answers:
      // the key may have been revoked between its check and this read (a held read re-checks on waking).
      if (q.wait > 0) await actor.recheck?.();
      return first;
    }
    // A read back in time (`before`) is never held: nothing new can arrive there.
    if (before !== undefined) return empty();
    return this.held.hold(accountId, q.wait, attempt, empty, signal, actor.recheck);
  }

  /**
   * One stored event of the caller's account, as the feed has it (its position too), or undefined:
   * another account's event, or one not (yet) in the feed (spec: Events feed — an account reads only
   * its own events). The console's stream reads here an event another process committed.
   */
  async one(actor: Actor, id: string): Promise<EventRecord | undefined> {
    const record = await this.d.uow.read((tx) => tx.eventsRepo.get(actor.account.id, id));
    return record && record.seq > 0 ? record : undefined;
  }
}
