import type { Clock, WallClock } from '../clock.js';
import type { ReadOptions, Repositories, Store, Transaction, WriteOptions } from '../storage/store.js';
import type { JobRecord } from '../storage/jobs-repo.js';
import type { EventRecord } from '../storage/events-repo.js';
import type { Carrier } from '../world/carrier.js';
import type { Transcriber } from '../world/transcriber.js';
import type { MediaStore } from '../storage/media-store.js';
import type { Payments } from '../world/payments.js';
import type { DnsResolver } from '../world/dns.js';
import type { CallDecisionClient } from './voice/call-engine.js';
import type { Chaos } from '../world/chaos.js';

// The types of what the domain runs on: its deps without storage, a write transaction's
// deps (`TxDeps`) and a read's (`ReadDeps`), and the unit of work that hands them out. The
// composition root (compose.ts) builds them; the service's own (src/server/deps.ts) extend them.

/**
 * The clock, the scheduler, the event store, the simulated outside world and the unit of work: what
 * the domain runs on. Storage is not here: repositories are reached only inside a transaction,
 * `uow.write(async (tx) => …)` or `uow.read(…)`, whose `tx` is these deps plus the repositories
 * (no domain code can reach storage outside a transaction, nor forget to pass one).
 */
export interface DomainDeps {
  /** The storage engine (storage/store.ts); the domain goes through `uow`, which wraps it. */
  store: Store;
  uow: UnitOfWork;
  clock: Clock;
  /** Real time (clock.ts `WallClock`): what ages whatever the service clock does (console links and sessions). */
  wall: WallClock;
  scheduler: DomainScheduler;
  events: DomainEvents;
  /** contract §8: DNS answers for domain checks; on the local service, the sandbox DNS table (world/dns.ts). */
  dns: DnsResolver;
  /**
   * The decision webhook client the call runner sends with (webhooks/decision-client.ts). It reuses
   * `options.webhooks`' resolver, destination guard and wall clock: the decision request is a webhook
   * and obeys the same safety rules (contract §6, §10).
   */
  decisions: CallDecisionClient & { stop(): void };
  /** Public media served under /media/ (voicemail greetings). */
  media: MediaStore;
  /** The outside payment provider: simulated on the local service (world/payments.ts). */
  payments: Payments;
  /** The outside carrier: simulated on the local service (world/carrier.ts). */
  carrier: Carrier;
  /** Speech-to-text for recordings and voicemails: simulated on the local service (world/transcriber.ts). */
  transcriber: Transcriber;
  /** The seeded faults of the simulated world (world/chaos.ts); an empty profile does nothing. */
  chaos: Chaos;
}

/**
 * What code inside a write transaction sees: the domain's deps, the repositories, `uow` for a nested
 * write (a savepoint), `prior`: the outcomes of the outside acts this write asked for before it ran
 * (domain/outside-first.ts), and `thenOutside`: the ones it calls for after it.
 */
export type TxDeps = DomainDeps &
  Transaction & {
    prior: ReadonlyMap<string, unknown>;
    /**
     * An outside act this write's change calls for (an auto-recharge at a low-balance crossing):
     * done once the write has committed, with no transaction open, before the write's promise
     * settles; one per key. A crash in between loses the act, never the write.
     */
    thenOutside(key: string, act: (deps: DomainDeps) => Promise<unknown>): void;
  };

/** What code inside a read sees: the domain's deps and the repositories. */
export type ReadDeps = DomainDeps & Repositories;

/**
 * The domain's transactions (domain/unit-of-work.ts). Inside a write, `tx.uow.write` is a savepoint
 * of that write and `tx.uow.read` reads within it.
 */
export interface UnitOfWork {
  /** `opts` applies to a top-level write; a nested one (a savepoint) runs as its transaction does. */
  write<T>(fn: (tx: TxDeps) => Promise<T>, opts?: WriteOptions): Promise<T>;
  read<T>(fn: (tx: ReadDeps | TxDeps) => Promise<T>, opts?: ReadOptions): Promise<T>;
}

/**
 * A job's work, run inside a write transaction (`tx`) that also removes the job: its work and its
 * removal commit together, and a throw rolls both back (the job is retried later). It may return
 * how many items it started (a tick's delivery attempts), so a clock advance can say what it ran;
 * otherwise the job counts as one item. Work that calls the outside world registers with
 * `registerOutside` instead.
 */
export type JobHandler = (payload: any, job: JobRecord, tx: TxDeps) => Promise<void | number>;

/**
 * A job that calls the outside world (the carrier, a webhook receiver): run with no transaction
 * open; it writes what it learns in transactions of its own, and the job is removed once it has
 * finished (a crash before that runs it again, so it must find its work already done and stop).
 */
export type OutsideJobHandler = (payload: any, job: JobRecord) => Promise<void | number>;

/**
 * What the domain sees of the scheduler (scheduler.ts `Scheduler`, which also starts, stops and
 * advances): declared here, beside the transaction its jobs run in, so the scheduler depends on the
 * domain's types and not the reverse. Inside a write, `tx.scheduler` is bound to that transaction.
 */
export interface DomainScheduler {
  /** This scheduler, scheduling into `tx` (the unit of work binds one per write transaction). */
  in(tx: Pick<Transaction, 'jobs' | 'afterCommit'>): DomainScheduler;
  /** `label` names, for people, what the job's items are (an advance reports them). */
  register(kind: string, handler: JobHandler, label?: string): void;
  /** A job whose work calls the outside world: it runs with no transaction open (OutsideJobHandler). */
  registerOutside(kind: string, handler: OutsideJobHandler, label?: string): void;
  /** Call inside the transaction that makes the job necessary (`tx.scheduler`), so both commit or neither. */
  schedule(kind: string, runAt: number, payload: unknown): Promise<string>;
  /** True while an advance walks time forward: work a job starts is waited for before the clock moves on. */
  readonly advancing: boolean;
}

/**
 * Hook run inside the emitting transaction: the webhook outbox writes its deliveries here.
 * `prefetch` asks, as the events are inserted, for what the outbox will read for the account's
 * events (on PostgreSQL the insert and the read share one wait); the outbox reads it again, served
 * once per transaction by the repository. Its failure is left to that read.
 */
export type EventOutbox = ((event: EventRecord, tx: TxDeps) => Promise<void>) & {
  prefetch?: (accountId: string, tx: TxDeps) => Promise<unknown>;
};

/**
 * What the domain sees of the event store (events/store.ts `EventStore`, which also hears of other
 * processes' commits): declared here for the reason DomainScheduler is. Inside a write, `tx.events`
 * is bound to that transaction; the one the deps hold refuses to emit.
 */
/** What a change no event reports is about (EventStore's ChangeNotice): its id names one of these. */
export type ChangeKind = 'call' | 'message' | 'sink';

export interface DomainEvents {
  /** This store, emitting into `tx` (the unit of work binds one per write transaction). */
  in(tx: TxDeps): DomainEvents;
  /** One event, committed with the change it reports (EventStore.emit says more). */
  emit(accountId: string, type: string, fields: Record<string, unknown>): Promise<EventRecord>;
  /** Several durable events of one account in one insert, in the order given. */
  emitAll(accountId: string, events: ReadonlyArray<{ type: string; fields: Record<string, unknown> }>): Promise<EventRecord[]>;
  /** A change no event reports, heard by the console's live pages once the write commits. */
  touched(accountId: string, kind: ChangeKind, id: string, status?: string): void;
}
