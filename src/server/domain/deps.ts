import type { Clock, WallClock } from '../clock.js';
import type { ReadOptions, Repositories, Store, Transaction, WriteOptions } from '../storage/store.js';
import type { Scheduler } from '../scheduler.js';
import type { EventStore } from './events/store.js';
import type { Carrier } from '../world/carrier.js';
import type { Transcriber } from '../world/transcriber.js';
import type { MediaStore } from '../storage/media-store.js';
import type { Payments } from '../world/payments.js';
import type { DnsResolver } from '../world/dns.js';
import type { CallDecisionClient } from './voice/call-runner.js';
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
  scheduler: Scheduler;
  events: EventStore;
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
