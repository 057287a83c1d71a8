import type { Clock } from './clock.js';
import { sqliteUnitOfWork, type Db, type UnitOfWork } from './storage/database.js';
import { UsageStatsRepo } from './storage/usage-stats-repo.js';
import { AccountsRepo } from './storage/accounts-repo.js';
import { KeysRepo } from './storage/keys-repo.js';
import { IdempotencyRepo } from './storage/idempotency-repo.js';
import { EventsRepo } from './storage/events-repo.js';
import { Scheduler, type SchedulerLog } from './scheduler.js';
import { EventStore } from './domain/events.js';
import { WebhookEndpointsRepo } from './storage/webhooks-repo.js';
import { WebhookDeliveriesRepo } from './storage/webhook-deliveries-repo.js';
import { DeliveryWorker, type WebhookWorkerOptions } from './webhooks/delivery-worker.js';
import { NumbersRepo } from './storage/numbers-repo.js';
import { MessagesRepo } from './storage/messages-repo.js';
import { ChargesRepo } from './storage/charges-repo.js';
import { CampaignsRepo } from './storage/campaigns-repo.js';
import { SimulatedCarrier, type Carrier } from './world/carrier.js';

export interface ServiceOptions {
  rateLimit: { ratePerSec: number; burst: number };
  /** Sandbox endpoints exist only on the local service (contract §1). */
  sandbox: boolean;
  /** Webhook delivery: ack timeout, concurrency, resolver (tests inject a stub and a lower timeout). */
  webhooks?: WebhookWorkerOptions;
}

export const DEFAULT_OPTIONS: ServiceOptions = {
  rateLimit: { ratePerSec: 100, burst: 200 }, // contract §2
  sandbox: true,
};

/** Everything a route or domain function may need, built once per app. */
export interface ServiceDeps {
  /** The SQLite handle: storage and the HTTP layer use it; the domain uses `uow` and repositories. */
  db: Db;
  uow: UnitOfWork;
  clock: Clock;
  scheduler: Scheduler;
  accounts: AccountsRepo;
  keys: KeysRepo;
  idempotency: IdempotencyRepo;
  eventsRepo: EventsRepo;
  events: EventStore;
  numbers: NumbersRepo;
  messages: MessagesRepo;
  charges: ChargesRepo;
  campaigns: CampaignsRepo;
  /** The outside carrier: simulated on the local service (world/carrier.ts). */
  carrier: Carrier;
  webhookEndpoints: WebhookEndpointsRepo;
  webhookDeliveries: WebhookDeliveriesRepo;
  /** The webhook outbox and delivery worker (webhooks/delivery-worker.ts); main.ts starts and stops it. */
  webhooks: DeliveryWorker;
  usageStats: UsageStatsRepo;
  options: ServiceOptions;
}

export function createDeps(db: Db, clock: Clock, log: SchedulerLog, options: Partial<ServiceOptions> = {}): ServiceDeps {
  const eventsRepo = new EventsRepo(db);
  const uow = sqliteUnitOfWork(db);
  const deps: ServiceDeps = {
    db,
    uow,
    clock,
    scheduler: new Scheduler(db, clock, log),
    accounts: new AccountsRepo(db),
    keys: new KeysRepo(db),
    idempotency: new IdempotencyRepo(db),
    eventsRepo,
    events: new EventStore(eventsRepo, clock, uow),
    numbers: new NumbersRepo(db),
    messages: new MessagesRepo(db),
    charges: new ChargesRepo(db),
    campaigns: new CampaignsRepo(db),
    carrier: new SimulatedCarrier(),
    webhookEndpoints: new WebhookEndpointsRepo(db),
    webhookDeliveries: new WebhookDeliveriesRepo(db),
    usageStats: new UsageStatsRepo(db),
    webhooks: undefined as unknown as DeliveryWorker, // needs the deps above; set just below
    options: { ...DEFAULT_OPTIONS, ...options },
  };
  // Installs the outbox on the event store and registers the webhook jobs with the scheduler.
  deps.webhooks = new DeliveryWorker(deps, deps.options.webhooks, log);
  return deps;
}
