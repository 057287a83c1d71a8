import type { Clock } from './clock.js';
import type { Db } from './storage/database.js';
import { AccountsRepo } from './storage/accounts-repo.js';
import { KeysRepo } from './storage/keys-repo.js';
import { IdempotencyRepo } from './storage/idempotency-repo.js';
import { EventsRepo } from './storage/events-repo.js';
import { Scheduler, type SchedulerLog } from './scheduler.js';
import { EventStore } from './domain/events.js';

export interface ServiceOptions {
  rateLimit: { ratePerSec: number; burst: number };
  /** Sandbox endpoints exist only on the local service (contract §1). */
  sandbox: boolean;
}

export const DEFAULT_OPTIONS: ServiceOptions = {
  rateLimit: { ratePerSec: 100, burst: 200 }, // contract §2
  sandbox: true,
};

/** Everything a route or domain function may need, built once per app. */
export interface ServiceDeps {
  db: Db;
  clock: Clock;
  scheduler: Scheduler;
  accounts: AccountsRepo;
  keys: KeysRepo;
  idempotency: IdempotencyRepo;
  eventsRepo: EventsRepo;
  events: EventStore;
  options: ServiceOptions;
}

export function createDeps(db: Db, clock: Clock, log: SchedulerLog, options: Partial<ServiceOptions> = {}): ServiceDeps {
  const eventsRepo = new EventsRepo(db);
  return {
    db,
    clock,
    scheduler: new Scheduler(db, clock, log),
    accounts: new AccountsRepo(db),
    keys: new KeysRepo(db),
    idempotency: new IdempotencyRepo(db),
    eventsRepo,
    events: new EventStore(eventsRepo, clock),
    options: { ...DEFAULT_OPTIONS, ...options },
  };
}
