import { saveClock, type Clock } from './clock.js';
import { sqliteUnitOfWork, type Db } from './storage/database.js';
import { UsageStatsRepo } from './storage/usage-stats-repo.js';
import { AccountsRepo } from './storage/accounts-repo.js';
import { KeysRepo } from './storage/keys-repo.js';
import { IdempotencyRepo } from './storage/idempotency-repo.js';
import { EventsRepo } from './storage/events-repo.js';
import { CLOCK_STATE_KEY, ServiceStateRepo } from './storage/service-state-repo.js';
import { WebhookEndpointsRepo } from './storage/webhooks-repo.js';
import { WebhookDeliveriesRepo } from './storage/webhook-deliveries-repo.js';
import { NumbersRepo } from './storage/numbers-repo.js';
import { MessagesRepo } from './storage/messages-repo.js';
import { CampaignsRepo } from './storage/campaigns-repo.js';
import { BrandsRepo } from './storage/brands-repo.js';
import { RoutesRepo } from './storage/routes-repo.js';
import { BlockedNumbersRepo } from './storage/blocked-numbers-repo.js';
import { DevicesRepo } from './storage/devices-repo.js';
import { CallsRepo } from './storage/calls-repo.js';
import { VoicemailsRepo } from './storage/voicemails-repo.js';
import { LeadsRepo } from './storage/leads-repo.js';
import { PortsRepo } from './storage/ports-repo.js';
import { SendingDomainsRepo } from './storage/sending-domains-repo.js';
import { EmailsRepo } from './storage/emails-repo.js';
import { SuppressionsRepo } from './storage/suppressions-repo.js';
import { OptOutsRepo } from './storage/opt-outs-repo.js';
import { WalletsRepo } from './storage/wallets-repo.js';
import { LedgerRepo } from './storage/ledger-repo.js';
import { HoldsRepo } from './storage/holds-repo.js';
import { SimulatedPayments } from './world/payments.js';
import { SandboxDnsRepo } from './storage/sandbox-dns-repo.js';
import { MailboxRepo } from './storage/mailbox-repo.js';
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

/**
 * The composition root: the one place the service's objects are built and wired, in layer order,
 * each from finished parts (nothing is built half and completed later). buildApp(deps) then only
 * adds HTTP; main.ts starts the scheduler and the worker after listening.
 */
export function composeService(db: Db, clock: Clock, log: SchedulerLog, options: Partial<ServiceOptions> = {}): ServiceDeps {
  // 1. Storage: repositories over the one SQLite handle, and the unit of work.
  const uow = sqliteUnitOfWork(db);
  const eventsRepo = new EventsRepo(db);
  const routes = new RoutesRepo(db);
  const storage = {
    db,
    uow,
    accounts: new AccountsRepo(db),
    keys: new KeysRepo(db),
    idempotency: new IdempotencyRepo(db),
    eventsRepo,
    numbers: new NumbersRepo(db),
    messages: new MessagesRepo(db),
    campaigns: new CampaignsRepo(db),
    optOuts: new OptOutsRepo(db),
    brands: new BrandsRepo(db),
    routes,
    blockedNumbers: new BlockedNumbersRepo(db),
    devices: new DevicesRepo(db),
    calls: new CallsRepo(db),
    voicemails: new VoicemailsRepo(db),
    leads: new LeadsRepo(db),
    ports: new PortsRepo(db),
    sendingDomains: new SendingDomainsRepo(db),
    emails: new EmailsRepo(db),
    suppressions: new SuppressionsRepo(db),
    wallets: new WalletsRepo(db),
    ledger: new LedgerRepo(db),
    holds: new HoldsRepo(db),
    sandboxDns: new SandboxDnsRepo(db),
    mailbox: new MailboxRepo(db),
    // Served: the media names the database records, and those written from now on.
    media: options.mediaDir ? new FileMediaStore(options.mediaDir, routes.greetingMediaNames()) : new MemoryMediaStore(),
    webhookEndpoints: new WebhookEndpointsRepo(db),
    webhookDeliveries: new WebhookDeliveriesRepo(db),
    usageStats: new UsageStatsRepo(db),
    serviceState: new ServiceStateRepo(db),
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
