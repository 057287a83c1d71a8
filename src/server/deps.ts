import type { ServiceRole } from '../api/values/local-service.js';
import type { DomainDeps } from './domain/deps.js';
export type { DomainDeps, ReadDeps, TxDeps, UnitOfWork } from './domain/deps.js';
import type { DeliveryWorker, WebhookWorkerOptions } from './webhooks/delivery-worker.js';
import type { ChaosProfile } from '../api/values/chaos.js';
import type { WallClock } from './clock.js';
import type { Scheduler } from './scheduler.js';
import type { EventStore } from './domain/events/store.js';

// The types of what the composition root (compose.ts) builds. Each domain family declares the
// part it uses as a Pick of DomainDeps (MessagingDeps, NumbersDeps, WebhookDomainDeps…).

export interface ServiceOptions {
  rateLimit: { ratePerSec: number; burst: number };
  /** Requests whose credentials are refused, per client address (default UNAUTHENTICATED_RATE; tests slow its refill). */
  unauthenticatedRate?: { ratePerSec: number; burst: number };
  /** Sandbox endpoints exist only on the local service (contract §1). */
  sandbox: boolean;
  /** Webhook delivery: ack timeout, concurrency, resolver (tests inject a stub and a lower timeout). */
  webhooks?: WebhookWorkerOptions;
  /** Where media files live (DATA/media beside svc.db, contract §1); in memory when absent (domain tests). */
  mediaDir?: string;
  /** The chaos profile the service starts with (`--chaos`, svc/testing `chaos:`); none by default. */
  chaos?: ChaosProfile;
  /**
   * How long a claim on work that calls the outside world (a carrier submission, a webhook
   * attempt) holds before another replica may take it over (default DEFAULT_CLAIM_LEASE_MS; tests
   * shorten it).
   */
  claimLeaseMs?: number;
  /** Real time (clock.ts `WallClock`; default the system's): tests move it instead of waiting. */
  wallNow?: WallClock;
  /** What this process runs (`--role`); `all` when absent. An `api` process leaves every webhook attempt to the worker. */
  role?: ServiceRole;
}

export const DEFAULT_OPTIONS: ServiceOptions = {
  rateLimit: { ratePerSec: 100, burst: 200 }, // contract §2
  sandbox: true,
};

/**
 * The domain's deps as the composition root builds them: the scheduler and the event store whole
 * (started, stopped and advanced; told of other processes' commits), where the domain sees only
 * the part it uses of each (DomainScheduler, DomainEvents).
 */
export interface ComposedDeps extends DomainDeps {
  scheduler: Scheduler;
  events: EventStore;
}

/** Everything a route may need: the domain's deps plus the options and the workers, built once by composeService. */
export interface ServiceDeps extends ComposedDeps {
  options: ServiceOptions;
  /** The webhook delivery worker (webhooks/delivery-worker.ts); main.ts starts and stops it. */
  webhooks: DeliveryWorker;
}
