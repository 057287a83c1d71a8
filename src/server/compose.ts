import { saveClock, type Clock } from './clock.js';
import { sqliteUnitOfWork, type Db } from './storage/database.js';
import { CLOCK_STATE_KEY } from './storage/service-state-repo.js';
import { SimulatedPayments } from './world/payments.js';
import { FileMediaStore, MemoryMediaStore } from './storage/media-store.js';
import { Scheduler, type SchedulerLog } from './scheduler.js';
import { EventStore } from './domain/events/store.js';
import { registerMessageJobs } from './domain/messages.js';
import { registerNumberJobs } from './domain/numbers.js';
import { blockSuggestionOutbox } from './domain/voice/blocked-numbers.js';
import { registerCallJobs } from './domain/voice/calls.js';
import { registerRegistrationJobs } from './domain/registration/registrations.js';
import { registerPortJobs } from './domain/ports.js';
import { registerDomainJobs } from './domain/email/domains.js';
import { SandboxDnsResolver } from './world/dns.js';
import { registerEmailJobs } from './domain/email/delivery.js';
import { registerBillingJobs } from './domain/billing/subscription.js';
import { HttpDecisionClient } from './webhooks/decision-client.js';
import { SimulatedCarrier } from './world/carrier.js';
import { SimulatedTranscriber } from './world/transcriber.js';
import { DeliveryWorker, registerDeliveryJobs, webhookOutbox } from './webhooks/delivery-worker.js';
import { DEFAULT_OPTIONS, type DomainDeps, type ServiceDeps, type ServiceOptions } from './deps.js';
import { SqliteUsageStatsRepo } from "./storage/sqlite/usage-stats-repo.js";
import { SqliteAccountsRepo } from "./storage/sqlite/accounts-repo.js";
import { SqliteKeysRepo } from "./storage/sqlite/keys-repo.js";
import { SqliteIdempotencyRepo } from "./storage/sqlite/idempotency-repo.js";
import { SqliteEventsRepo } from "./storage/sqlite/events-repo.js";
import { SqliteServiceStateRepo } from "./storage/sqlite/service-state-repo.js";
import { SqliteWebhookEndpointsRepo } from "./storage/sqlite/webhooks-repo.js";
import { SqliteWebhookDeliveriesRepo } from "./storage/sqlite/webhook-deliveries-repo.js";
import { SqliteNumbersRepo } from "./storage/sqlite/numbers-repo.js";
import { SqliteMessagesRepo } from "./storage/sqlite/messages-repo.js";
import { SqliteCampaignsRepo } from "./storage/sqlite/campaigns-repo.js";
import { SqliteBrandsRepo } from "./storage/sqlite/brands-repo.js";
import { SqliteRoutesRepo } from "./storage/sqlite/routes-repo.js";
import { SqliteBlockedNumbersRepo } from "./storage/sqlite/blocked-numbers-repo.js";
import { SqliteDevicesRepo } from "./storage/sqlite/devices-repo.js";
import { SqliteCallsRepo } from "./storage/sqlite/calls-repo.js";
import { SqliteVoicemailsRepo } from "./storage/sqlite/voicemails-repo.js";
import { SqliteLeadsRepo } from "./storage/sqlite/leads-repo.js";
import { SqlitePortsRepo } from "./storage/sqlite/ports-repo.js";
import { SqliteSendingDomainsRepo } from "./storage/sqlite/sending-domains-repo.js";
import { SqliteEmailsRepo } from "./storage/sqlite/emails-repo.js";
import { SqliteSuppressionsRepo } from "./storage/sqlite/suppressions-repo.js";
import { SqliteOptOutsRepo } from "./storage/sqlite/opt-outs-repo.js";
import { SqliteWalletsRepo } from "./storage/sqlite/wallets-repo.js";
import { SqliteLedgerRepo } from "./storage/sqlite/ledger-repo.js";
import { SqliteHoldsRepo } from "./storage/sqlite/holds-repo.js";
import { SqliteSandboxDnsRepo } from "./storage/sqlite/sandbox-dns-repo.js";
import { SqliteMailboxRepo } from "./storage/sqlite/mailbox-repo.js";

/**
 * The composition root: the one place the service's objects are built and wired, in layer order,
 * each from finished parts (nothing is built half and completed later). buildApp(deps) then only
 * adds HTTP; main.ts starts the scheduler and the worker after listening.
 */
export function composeService(db: Db, clock: Clock, log: SchedulerLog, options: Partial<ServiceOptions> = {}): ServiceDeps {
  // 1. Storage: repositories over the one SQLite handle, and the unit of work.
  const uow = sqliteUnitOfWork(db);
  const eventsRepo = new SqliteEventsRepo(db);
  const routes = new SqliteRoutesRepo(db);
  const storage = {
    db,
    uow,
    accounts: new SqliteAccountsRepo(db),
    keys: new SqliteKeysRepo(db),
    idempotency: new SqliteIdempotencyRepo(db),
    eventsRepo,
    numbers: new SqliteNumbersRepo(db),
    messages: new SqliteMessagesRepo(db),
    campaigns: new SqliteCampaignsRepo(db),
    optOuts: new SqliteOptOutsRepo(db),
    brands: new SqliteBrandsRepo(db),
    routes,
    blockedNumbers: new SqliteBlockedNumbersRepo(db),
    devices: new SqliteDevicesRepo(db),
    calls: new SqliteCallsRepo(db),
    voicemails: new SqliteVoicemailsRepo(db),
    leads: new SqliteLeadsRepo(db),
    ports: new SqlitePortsRepo(db),
    sendingDomains: new SqliteSendingDomainsRepo(db),
    emails: new SqliteEmailsRepo(db),
    suppressions: new SqliteSuppressionsRepo(db),
    wallets: new SqliteWalletsRepo(db),
    ledger: new SqliteLedgerRepo(db),
    holds: new SqliteHoldsRepo(db),
    sandboxDns: new SqliteSandboxDnsRepo(db),
    mailbox: new SqliteMailboxRepo(db),
    // Served: the media names the database records, and those written from now on.
    media: options.mediaDir ? new FileMediaStore(options.mediaDir, routes.greetingMediaNames()) : new MemoryMediaStore(),
    webhookEndpoints: new SqliteWebhookEndpointsRepo(db),
    webhookDeliveries: new SqliteWebhookDeliveriesRepo(db),
    usageStats: new SqliteUsageStatsRepo(db),
    serviceState: new SqliteServiceStateRepo(db),
  };

  // 2. Domain: the service clock's scheduler, the event store, the simulated outside world, and the
  // decision webhook client (the call engine's one network act; same safety options as deliveries).
  const webhookOptions = options.webhooks ?? {};
  const domain: DomainDeps = {
    ...storage,
    decisions: new HttpDecisionClient(storage.webhookEndpoints, {
      resolver: webhookOptions.resolver,
      destinationGuard: webhookOptions.destinationGuard,
      wallNow: webhookOptions.wallNow,
    }),
    clock,
    // contract §1: an advance saves the clock with each job it runs, so a restart never finds it
    // behind committed work (issue 23).
    scheduler: new Scheduler(db, clock, log, { persistClock: () => storage.serviceState.set(CLOCK_STATE_KEY, saveClock(clock)) }),
    events: new EventStore(eventsRepo, clock, uow),
    carrier: new SimulatedCarrier(),
    payments: new SimulatedPayments(),
    transcriber: new SimulatedTranscriber(),
    // contract §8, §9: domain checks read DNS through a resolver; locally, the sandbox DNS table.
    dns: new SandboxDnsResolver((name) => storage.sandboxDns.get(name), clock),
    options: { ...DEFAULT_OPTIONS, ...options },
  };

  // 3. Durable jobs, registered before anything runs (a restart resumes them).
  registerMessageJobs(domain);
  registerNumberJobs(domain);
  registerCallJobs(domain);
  // contract §7: the simulated 10DLC registry's decisions on the service clock.
  registerRegistrationJobs(domain);
  registerPortJobs(domain);
  // spec: Sending domain status — re-checks, daily monitoring and the 7-day release on the service clock.
  registerDomainJobs(domain);
  // contract §8: the simulated mail server walks each handed-over recipient through its script.
  registerEmailJobs(domain);
  // contract §11: subscription renewals at each period end on the service clock.
  registerBillingJobs(domain);

  // 4. Outboxes: run inside every event's transaction (contract §10: deliveries commit with the event).
  domain.events.addOutbox(webhookOutbox(domain));
  // contract §6: the blocklist auto-suggestion, checked as each inbound call ends.
  domain.events.addOutbox(blockSuggestionOutbox(domain));

  // 5. Workers: the webhook delivery worker and its jobs.
  const webhooks = new DeliveryWorker(domain, domain.options.webhooks, log);
  registerDeliveryJobs(domain.scheduler, webhooks);

  return { ...domain, webhooks };
}
