import type { Clock } from './clock.js';
import type { Db, UnitOfWork } from './storage/database.js';
import type { UsageStatsRepo } from './storage/usage-stats-repo.js';
import type { AccountsRepo } from './storage/accounts-repo.js';
import type { KeysRepo } from './storage/keys-repo.js';
import type { IdempotencyRepo } from './storage/idempotency-repo.js';
import type { EventsRepo } from './storage/events-repo.js';
import type { ServiceStateRepo } from './storage/service-state-repo.js';
import type { Scheduler } from './scheduler.js';
import type { EventStore } from './domain/events/store.js';
import type { WebhookEndpointsRepo } from './storage/webhooks-repo.js';
import type { WebhookDeliveriesRepo } from './storage/webhook-deliveries-repo.js';
import type { DeliveryWorker, WebhookWorkerOptions } from './webhooks/delivery-worker.js';
import type { NumbersRepo } from './storage/numbers-repo.js';
import type { MessagesRepo } from './storage/messages-repo.js';
import type { CampaignsRepo } from './storage/campaigns-repo.js';
import type { BrandsRepo } from './storage/brands-repo.js';
import type { Carrier } from './world/carrier.js';
import type { Transcriber } from './world/transcriber.js';
import type { RoutesRepo } from './storage/routes-repo.js';
import type { MediaStore } from './storage/media-store.js';
import type { BlockedNumbersRepo } from './storage/blocked-numbers-repo.js';
import type { DevicesRepo } from './storage/devices-repo.js';
import type { CallsRepo } from './storage/calls-repo.js';
import type { VoicemailsRepo } from './storage/voicemails-repo.js';
import type { LeadsRepo } from './storage/leads-repo.js';
import type { PortsRepo } from './storage/ports-repo.js';
import type { SendingDomainsRepo } from './storage/sending-domains-repo.js';
import type { EmailsRepo } from './storage/emails-repo.js';
import type { SuppressionsRepo } from './storage/suppressions-repo.js';
import type { OptOutsRepo } from './storage/opt-outs-repo.js';
import type { WalletsRepo } from './storage/wallets-repo.js';
import type { LedgerRepo } from './storage/ledger-repo.js';
import type { HoldsRepo } from './storage/holds-repo.js';
import type { Payments } from './world/payments.js';
import type { SandboxDnsRepo } from './storage/sandbox-dns-repo.js';
import type { DnsResolver } from './world/dns.js';
import type { MailboxRepo } from './storage/mailbox-repo.js';
import type { CallDecisionClient } from './domain/voice/call-runner.js';

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
}

export const DEFAULT_OPTIONS: ServiceOptions = {
  rateLimit: { ratePerSec: 100, burst: 200 }, // contract §2
  sandbox: true,
};

/** Storage, the clock, the scheduler, the event store and the simulated world: what the domain runs on. */
export interface DomainDeps {
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
  campaigns: CampaignsRepo;
  /** contract §4: consumers who texted a stop word to one of the account's numbers. */
  optOuts: OptOutsRepo;
  /** spec: Brand (10DLC). */
  brands: BrandsRepo;
  /** Call routes and voicemail greetings, one row per number (spec: Call route). */
  routes: RoutesRepo;
  /** spec: Blocked number — the account's blocklist (confirmed entries and suggestions). */
  blockedNumbers: BlockedNumbersRepo;
  /** contract §6: softphone devices. */
  devices: DevicesRepo;
  /** contract §6: calls (with the runner's state and the trace) and voicemails. */
  calls: CallsRepo;
  voicemails: VoicemailsRepo;
  /** contract §7: leads from the hosted opt-in pages. */
  leads: LeadsRepo;
  /** contract §7: port requests and their documents (the PIN is never stored). */
  ports: PortsRepo;
  /** contract §8: sending domains (one account per domain name). */
  sendingDomains: SendingDomainsRepo;
  /** contract §8: emails, their recipients and the per-recipient timeline. */
  emails: EmailsRepo;
  /** contract §8: the account's suppressed addresses. */
  suppressions: SuppressionsRepo;
  /** contract §11: wallets (balance and billing settings), the append-only ledger, holds. */
  wallets: WalletsRepo;
  ledger: LedgerRepo;
  holds: HoldsRepo;
  /** contract §9: the sandbox DNS table (the names and records the local service's DNS answers). */
  sandboxDns: SandboxDnsRepo;
  /** contract §8: DNS answers for domain checks; on the local service, the sandbox DNS table (world/dns.ts). */
  dns: DnsResolver;
  /** contract §8 (extension): the mail sandbox, every message delivered for a live email. */
  mailbox: MailboxRepo;
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
  webhookEndpoints: WebhookEndpointsRepo;
  webhookDeliveries: WebhookDeliveriesRepo;
  usageStats: UsageStatsRepo;
  /** What the service keeps about itself (the saved clock). */
  serviceState: ServiceStateRepo;
  options: ServiceOptions;
}

/** Everything a route may need: the domain's deps plus the workers, built once by composeService. */
export interface ServiceDeps extends DomainDeps {
  /** The webhook delivery worker (webhooks/delivery-worker.ts); main.ts starts and stops it. */
  webhooks: DeliveryWorker;
}
