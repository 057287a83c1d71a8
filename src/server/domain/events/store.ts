import type { Clock } from '../../clock.js';
import type { ChangeKind, DomainEvents, EventOutbox, TxDeps } from '../deps.js';
import { iso } from '../../clock.js';
import { newId } from '../../ids.js';
import type { EventRecord } from '../../storage/events-repo.js';
import type { EventHint, MessageMove } from '../../storage/store.js';

import { NON_DURABLE_EVENT_TYPES } from '../../../api/schemas/events.js';

// spec: Delivery — non-durable types are never stored (one attempt, no log, not in the feed).
const NON_DURABLE_TYPES = new Set(NON_DURABLE_EVENT_TYPES);

/**
 * Hears of a committed event: its record when committed by this process, only its hint (id,
 * account, type) when by another sharing the database: listeners wake on it and re-read.
 */
export type EventListener = (event: EventHint) => void;

/**
 * A change no event reports (a call's trace grew; a live message accepted, `queued`, or moved to
 * `sending`; a sink kept a request: its id).
 */
export interface ChangeNotice {
  accountId: string;
  kind: ChangeKind;
  id: string;
  /** A message's new status. */
  status?: string;
}
export type ChangeListener = (change: ChangeNotice) => void;

/**
 * What a live page can show of an event without fetching itself again: a `message.status`
 * event's move (an open thread sets the status in place within 250 ms of its commit). Nothing for
 * any other event.
 */
export function messageMove(type: string, body: Record<string, unknown>): MessageMove | undefined {
  if (type !== 'message.status') return undefined;
  return { messageId: String(body.messageId), status: String(body.status), reason: typeof body.reason === 'string' ? body.reason : null };
}

/**
 * The one events store: every event gets an `evt_` id and `createdAt` from the service clock and is
 * appended once, inside the caller's transaction, so an event commits with the change that caused it.
 * Inside a write, `tx.events` is this store bound to that transaction (`in`, called by the unit of
 * work); the store the domain's deps hold is for listening, and refuses to emit.
 */
export class EventStore implements DomainEvents {
  private readonly listeners = new Set<EventListener>();
  private readonly transientListeners = new Set<(event: EventRecord) => void>();
  private readonly resyncListeners = new Set<() => void>();
  private readonly rewindListeners = new Set<() => void>();
  private readonly changeListeners = new Set<ChangeListener>();
  private readonly outboxes: EventOutbox[] = [];
  /** Set on the copies `in` makes: the transaction events are written in. */
  private readonly tx: TxDeps | undefined;

  constructor(private readonly clock: Clock) {}

  addOutbox(outbox: EventOutbox): void {
    this.outboxes.push(outbox);
  }

  /** This store, emitting into `tx` (the unit of work binds one per write transaction). */
  in(tx: TxDeps): EventStore {
    return Object.assign(Object.create(this) as EventStore, { tx });
  }

  /**
   * Call inside the transaction of the change the event reports (outside one it throws: a
   * programming error, as the event and its webhook deliveries would not commit with the change). A
   * non-durable type (`call.transcript.delta`) is not stored: it goes to emitTransient and comes back
   * with seq 0; code with no transaction to join calls emitTransient directly.
   */
  async emit(accountId: string, type: string, fields: Record<string, unknown>): Promise<EventRecord> {
    const tx = this.tx;
    if (!tx) {
      throw new Error(`EventStore.emit(${type}) called outside a transaction: emit inside the transaction of the change the event reports (uow.write)`);
    }
    if (NON_DURABLE_TYPES.has(type)) {
      // Heard once the transaction has committed, never from inside it: on an engine whose
      // transaction awaits the database (PostgreSQL) the next macrotask may come before the commit.
      const record = this.transientRecord(accountId, type, fields);
      tx.afterCommit(() => this.notifyTransient(record));
      return record;
    }
    return (await this.emitAll(accountId, [{ type, fields }]))[0]!;
  }

  /**
   * Several durable events of one account in one insert (on PostgreSQL one round trip for
   * a test send's `sent` and `delivered`, not one each), positions in the order given; otherwise as
   * `emit`. A non-durable type is refused: emit it alone.
   */
  async emitAll(accountId: string, events: ReadonlyArray<{ type: string; fields: Record<string, unknown> }>): Promise<EventRecord[]> {
    const tx = this.tx;
    if (!tx) {
      throw new Error(`EventStore.emitAll(${events.map((e) => e.type).join(', ')}) called outside a transaction: emit inside the transaction of the change the events report (uow.write)`);
    }
    const transient = events.find((e) => NON_DURABLE_TYPES.has(e.type));
    if (transient) throw new Error(`EventStore.emitAll: ${transient.type} is not stored; emit it alone`);
    const createdAt = this.clock.nowMs();
    const rows = events.map(({ type, fields }) => {
      const id = newId('evt');
      return { id, accountId, type, createdAt, body: { id, type, createdAt: iso(createdAt), ...fields } };
    });
    const inserted = tx.eventsRepo.insertMany(rows);
    for (const outbox of this.outboxes) outbox.prefetch?.(accountId, tx).catch(() => undefined);
    const seqs = await inserted;
    const records: EventRecord[] = rows.map((r, i) => ({ ...r, seq: seqs[i]! }));
    for (const record of records) for (const outbox of this.outboxes) await outbox(record, tx);
    // Listeners (long-polls, the delivery worker) hear of them once the transaction has committed.
    tx.afterCommit(() => {
      for (const record of records) for (const l of this.listeners) l(record);
    });
    return records;
  }

  /**
   * A change that is no event (nothing stored, nothing delivered, not in the feed): the
   * console's live pages hear of it once the transaction has committed, as they hear of events, so a
   * call's trace and a message's `sending` show without a reload. Call inside the change's write.
   */
  touched(accountId: string, kind: ChangeNotice['kind'], id: string, status?: string): void {
    const tx = this.tx;
    if (!tx) throw new Error(`EventStore.touched(${kind}) called outside a transaction: call it inside the write of the change`);
    const elsewhere = this.changesElsewhere;
    const recorded = this.changesRecorded;
    if (this.changeListeners.size === 0 && !elsewhere && !recorded) return;
    const change: ChangeNotice = status === undefined ? { accountId, kind, id } : { accountId, kind, id, status };
    recorded?.(change, tx);
    tx.afterCommit(() => {
      for (const l of this.changeListeners) l(change);
      elsewhere?.(change);
    });
  }

  /**
   * SQLite with roles: where changes are recorded for another process, inside the
   * change's own transaction (a row it reads when the file moves), not told after the commit.
   */
  private changesRecorded: ((change: ChangeNotice, tx: TxDeps) => void) | undefined;

  recordChangesIn(record: (change: ChangeNotice, tx: TxDeps) => void): void {
    this.changesRecorded = record;
  }

  /** Where changes are told to the other processes sharing the database (replicas' live pages). */
  private changesElsewhere: ((change: ChangeNotice) => void) | undefined;

  tellChangesElsewhere(tell: (change: ChangeNotice) => void): void {
    this.changesElsewhere = tell;
  }

  /** A change another process sharing the database committed (its notification). */
  changedElsewhere(change: ChangeNotice): void {
    for (const l of this.changeListeners) l(change);
  }

  /** An object, so the copies `in` makes count on the same one. */
  private readonly watchers = { count: 0 };

  /**
   * Someone is waiting to hear of commits as soon as they happen (a console stream, a held
   * read). While anyone is, the link to another process sharing the database looks for its commits
   * more often (worker-link.ts LIVE_POLL_MS); with no one waiting, the slower poll costs less. Returns
   * the release (idempotent).
   */
  watch(): () => void {
    const watchers = this.watchers;
    watchers.count++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      watchers.count--;
    };
  }

  /** Whether anyone waits to hear of commits promptly (`watch`). */
  get watched(): boolean {
    return this.watchers.count > 0;
  }

  subscribeChanges(listener: ChangeListener): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `listener` runs when the stored events are put back to an earlier point (`rewound`). */
  onRewind(listener: () => void): () => void {
    this.rewindListeners.add(listener);
    return () => this.rewindListeners.delete(listener);
  }

  /**
   * The database was put back to an earlier point (svc/testing `reset()`, server/reset-point.ts):
   * what a held read waited past may no longer exist, so every one answers now (as if its time had
   * run out) instead of holding on into the next test.
   */
  rewound(): void {
    for (const l of [...this.rewindListeners]) l();
  }

  /** An event another process sharing the database committed (its notification). */
  heardElsewhere(hint: EventHint): void {
    for (const l of this.listeners) l(hint);
  }

  /** Events committed elsewhere may have gone unheard (a lost connection): listeners re-read. */
  resync(): void {
    for (const l of this.resyncListeners) l();
  }

  subscribeResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  /**
   * spec: Delivery — a non-durable event (`call.transcript.delta`): one webhook attempt, no retry,
   * no delivery log, absent from the feed. Nothing is written; transient listeners hear of it on
   * the next macrotask. `seq` is 0 (it has no place in the feed).
   */
  emitTransient(accountId: string, type: string, fields: Record<string, unknown>): EventRecord {
    const record = this.transientRecord(accountId, type, fields);
    this.notifyTransient(record);
    return record;
  }

  private transientRecord(accountId: string, type: string, fields: Record<string, unknown>): EventRecord {
    const createdAt = this.clock.nowMs();
    const id = newId('evt');
    const body = { id, type, createdAt: iso(createdAt), ...fields };
    return { seq: 0, id, accountId, type, createdAt, body };
  }

  /** Transient listeners hear of `record` on the next macrotask. */
  private notifyTransient(record: EventRecord): void {
    setImmediate(() => {
      for (const l of this.transientListeners) l(record);
    });
  }

  subscribeTransient(listener: (event: EventRecord) => void): () => void {
    this.transientListeners.add(listener);
    return () => this.transientListeners.delete(listener);
  }
}
