import type { Clock } from '../clock.js';
import { iso } from '../clock.js';
import { newId } from '../ids.js';
import type { EventRecord, EventsRepo } from '../storage/events-repo.js';

export type EventListener = (event: EventRecord) => void;

/** Hook run inside the emitting transaction: the webhook outbox writes its deliveries here. */
export type EventOutbox = (event: EventRecord) => void;

/**
 * The one events store: every event gets an `evt_` id and `createdAt` from the service clock and is
 * appended once, inside the caller's transaction, so an event commits with the change that caused it.
 */
export class EventStore {
  private readonly listeners = new Set<EventListener>();
  private readonly outboxes: EventOutbox[] = [];

  constructor(
    private readonly repo: EventsRepo,
    private readonly clock: Clock,
  ) {}

  addOutbox(outbox: EventOutbox): void {
    this.outboxes.push(outbox);
  }

  /** Call inside the transaction of the change the event reports. */
  emit(accountId: string, type: string, fields: Record<string, unknown>): EventRecord {
    const createdAt = this.clock.nowMs();
    const id = newId('evt');
    const body = { id, type, createdAt: iso(createdAt), ...fields };
    const seq = this.repo.insert({ id, accountId, type, createdAt, body });
    const record: EventRecord = { seq, id, accountId, type, createdAt, body };
    for (const outbox of this.outboxes) outbox(record);
    // Listeners (long-polls, the delivery worker) hear of it after the transaction commits: the
    // emitting code is synchronous, so the next macrotask runs after COMMIT.
    setImmediate(() => {
      for (const l of this.listeners) l(record);
    });
    return record;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
