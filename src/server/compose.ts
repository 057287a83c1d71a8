import { followSavedClock, saveClock, systemWallClock, type Clock, type SavedClock } from './clock.js';
import type { Store } from './storage/store.js';
import { domainUnitOfWork } from './domain/unit-of-work.js';
import { CHAOS_STATE_KEY, CLOCK_STATE_KEY, PAYMENTS_FAIL_NEXT_KEY } from './storage/service-state-repo.js';
import { SimulatedPayments, type FailNextSwitch } from './world/payments.js';
import { DEFAULT_CLAIM_LEASE_MS, Scheduler, type SchedulerLog } from './scheduler.js';
import { EventStore, messageMove } from './domain/events/store.js';
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
import { Chaos, SERVICE_SCOPE } from './world/chaos.js';
import { putChaosProfile, storedChaosProfiles } from './domain/chaos-profiles.js';
import { chaosCarrier } from './world/chaos-carrier.js';
import { SimulatedTranscriber } from './world/transcriber.js';
import { outsideWorld } from './world/outside-call-guard.js';
import { DEFAULT_WEBHOOK_OPTIONS, DeliveryWorker, registerDeliveryJobs, webhookOutbox } from './webhooks/delivery-worker.js';
import { DEFAULT_OPTIONS, type ComposedDeps, type ServiceDeps, type ServiceOptions } from './deps.js';
import type { UnitOfWork } from './domain/deps.js';

/** How long past the ack timeout an advance waits for another replica to say its attempts in flight ended. */
const QUIESCE_MARGIN_MS = 5000;

/**
 * The payment provider's fail-next flag in the database: armed through one replica (or
 * the API process beside a worker), it fails the next charge whichever process makes it, once. A
 * read first, so a charge with nothing armed writes nothing; the write checks again, so two
 * processes charging at once cannot both take it.
 */
function storedFailNext(uow: UnitOfWork): FailNextSwitch {
  return {
    arm: async () => await uow.write(async (tx) => await tx.serviceState.set(PAYMENTS_FAIL_NEXT_KEY, true)),
    take: async () => {
      if ((await uow.read(async (r) => await r.serviceState.get<boolean>(PAYMENTS_FAIL_NEXT_KEY))) !== true) return false;
      return await uow.write(async (tx) => {
        if ((await tx.serviceState.get<boolean>(PAYMENTS_FAIL_NEXT_KEY)) !== true) return false;
        await tx.serviceState.set(PAYMENTS_FAIL_NEXT_KEY, false);
        return true;
      });
    },
  };
}

/**
 * The composition root: the one place the service's objects are built and wired, in layer order,
 * each from finished parts (nothing is built half and completed later). buildApp(deps) then only
 * adds HTTP; main.ts starts the scheduler and the worker after listening.
 */
export async function composeService(store: Store, clock: Clock, log: SchedulerLog, options: Partial<ServiceOptions> = {}): Promise<ServiceDeps> {
  // 1. Storage: the engine the caller opened (main.ts: SQLite in the data directory, or PostgreSQL)
  // and the domain's unit of work over it. Media names are read once, to serve what the database records.
  const greetings = await store.read(async (r) => await r.routes.greetingMediaNames());
  const media = store.mediaStore({ dir: options.mediaDir, greetings });
  // The thunk resolves once `domain` exists, before any transaction can run.
  // eslint-disable-next-line prefer-const
  let domain: ComposedDeps;
  const uow = domainUnitOfWork(store, () => domain);
  // This process's name in claims, and their lease. A process that owns its database
  // (SQLite) holds every claim in it: the ones a crashed run left are its own, released now rather
  // than when their leases run out. An `api` process runs no job and makes no attempt: the claims
  // in a SQLite file it shares are a worker's (--role worker, a process alive beside it), and stay.
  const claims = { owner: store.peers.processId, leaseMs: options.claimLeaseMs ?? DEFAULT_CLAIM_LEASE_MS };
  if (!store.peers.shared && options.role !== 'api') {
    await store.write(async (tx) => {
      await tx.jobs.releaseClaims();
      await tx.webhookDeliveries.releaseClaims();
    });
  }

  // 2. Domain: the service clock's scheduler, the event store, the simulated outside world, and the
  // decision webhook client (the call engine's one network act; same safety options as deliveries).
  const webhookOptions = options.webhooks ?? {};
  // Seeded faults, injected at the world's seams (world/chaos.ts); none without a profile.
  // contract §9: the profiles are stored, per account and one service-wide; `--chaos` (svc/testing
  // `chaos:`) replaces the service-wide one as the process starts.
  const chaos = new Chaos(clock, {
    readStored: () => uow.read(async (r) => await storedChaosProfiles(r)),
    accounts: { get: (id) => uow.read(async (r) => await r.accounts.get(id)) },
  });
  // One real-time source for what ages on wall time: console links and sessions, signatures' `t`.
  const wall = options.wallNow ?? systemWallClock;
  domain = {
    store,
    uow,
    media,
    decisions: outsideWorld(new HttpDecisionClient({ enabledForAccount: (accountId: string) => uow.read((r) => r.webhookEndpoints.enabledForAccount(accountId)) }, {
      resolver: webhookOptions.resolver,
      destinationGuard: webhookOptions.destinationGuard,
      wallNow: webhookOptions.wallNow ?? wall,
    }), 'decision webhook', store),
    clock,
    wall,
    // contract §1: an advance saves the clock with each job it runs, so a restart never finds it
    // behind committed work.
    scheduler: new Scheduler(() => uow, clock, log, { persistClock: async (tx) => await tx.serviceState.set(CLOCK_STATE_KEY, saveClock(clock)), claims }),
    events: new EventStore(clock),
    // The outside world, each call refused while a transaction is open (guardOutsideCalls).
    carrier: outsideWorld(chaosCarrier(new SimulatedCarrier(), chaos), 'carrier', store),
    payments: outsideWorld(new SimulatedPayments(storedFailNext(uow)), 'payments', store),
    transcriber: outsideWorld(new SimulatedTranscriber(), 'transcriber', store),
    // contract §8, §9: domain checks read DNS through a resolver; locally, the sandbox DNS table.
    dns: new SandboxDnsResolver((name) => uow.read(async (r) => await r.sandboxDns.get(name)), clock),
    chaos,
  };
  const serviceOptions: ServiceOptions = { ...DEFAULT_OPTIONS, ...options };
  const startProfile = options.chaos;
  if (startProfile) await store.write(async (tx) => await putChaosProfile(tx, SERVICE_SCOPE, startProfile));
  await chaos.refresh();

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

  // 4. Workers: the webhook delivery worker and its jobs.
  // On SQLite the one process that attempts (the data directory admits one worker) needs no
  // claims; a test may still ask for them (`soleAttempter: false`), never for none with replicas.
  const soleAttempter = !store.peers.shared && serviceOptions.webhooks?.soleAttempter !== false;
  // A worker process alone on its event loop sends with undici; one that serves the API too, with node:http (undici-sender.ts).
  const httpClient = serviceOptions.webhooks?.httpClient ?? (serviceOptions.role === 'worker' ? 'undici' : 'node');
  const webhooks = new DeliveryWorker(domain, { ...serviceOptions.webhooks, wallNow: serviceOptions.webhooks?.wallNow ?? wall, httpClient, chaos, claims, attemptsElsewhere: serviceOptions.role === 'api', soleAttempter }, log);
  registerDeliveryJobs(domain.scheduler, webhooks);

  // 5. Outboxes: run inside every event's transaction (contract §10: deliveries commit with the
  // event); the worker is handed the deliveries once they have committed.
  domain.events.addOutbox(webhookOutbox((deliveries) => webhooks.onCommitted(deliveries)));
  // Chaos names each event in emission order, for its webhook faults (world/chaos.ts), in
  // the profile that applies to the event's account.
  domain.events.addOutbox(async (event, tx) => {
    if (!chaos.anyActive) return;
    (await chaos.forAccountId(event.accountId, tx.accounts))?.noteEvent(event.id, event.type, event.body);
  });
  // contract §6: the blocklist auto-suggestion, checked as each inbound call ends.
  domain.events.addOutbox(blockSuggestionOutbox());

  // 6. Replicas (PostgreSQL): what another process commits wakes this one. Its events
  // wake the held reads and follow streams; its clock moves this one's (the database holds the one
  // service clock; each replica keeps it in memory and re-reads it on notification); after a lost
  // connection, both are read again.
  if (store.peers.shared) {
    const events = domain.events;
    const followClock = () =>
      uow
        .read(async (r) => await r.serviceState.get<SavedClock>(CLOCK_STATE_KEY))
        .then((saved) => saved && followSavedClock(clock, saved))
        .catch((err: unknown) => log.error({ err }, 'reading the service clock another replica saved failed'));
    store.peers.onEvent((hint) => events.heardElsewhere(hint));
    // A worker process queues the deliveries of an event an API process committed when it
    // hears of it, not at its next poll (an `all` replica attempts what it wrote itself).
    if (serviceOptions.role === 'worker') store.peers.onEvent((hint) => webhooks.heardEvent(hint.id));
    // Changes that are no event (a call's trace, a message's status) reach the console's live pages on every replica.
    const peers = store.peers;
    events.tellChangesElsewhere((change) => peers.tellChange(change));
    peers.onChange((change) => events.changedElsewhere(change));
    // Returned, so a sync another replica asks for after its advance waits until this one followed.
    // contract §9: so are the chaos profiles another replica (or the worker's API process) stored.
    const readChaos = () => chaos.refresh().catch((err: unknown) => log.error({ err }, 'reading the chaos profiles another replica stored failed'));
    store.peers.onState((key) => (key === CLOCK_STATE_KEY ? followClock() : key === CHAOS_STATE_KEY ? readChaos() : undefined));
    store.peers.onResync(() => {
      void followClock();
      void readChaos();
      events.resync();
    });
    // An advance waits for this replica's attempts in flight (registerDeliveryJobs) and, here, for
    // every other replica's: an attempt in flight elsewhere schedules its retry from when it really
    // ended, which the advance must then run in order. Bounded by the ack timeout and a margin.
    peers.onQuiesce(() => webhooks.idle());
    const quiesceBoundMs = (serviceOptions.webhooks?.ackTimeoutMs ?? DEFAULT_WEBHOOK_OPTIONS.ackTimeoutMs) + QUIESCE_MARGIN_MS;
    domain.scheduler.beforeAdvance(() => peers.quiesce(quiesceBoundMs));
  }

  // 7. A worker beside an API process on one SQLite file: what it commits that the API
  // process's live pages show (its events; its changes that are no event: a message's `sending`, a
  // call's trace) is left as a notice in the same transaction; the API process reads them when the
  // file moves (worker-link.ts). Only a worker leaves them: the API process is the one that serves pages.
  const notices = store.notices;
  if (!store.peers.shared && serviceOptions.role === 'worker') {
    domain.events.addOutbox(async (event, tx) => {
      const move = messageMove(event.type, event.body);
      notices.leave(tx, { event: { id: event.id, accountId: event.accountId, type: event.type, ...(move ? { move } : {}) } });
    });
    // A sink's requests are kept by the process that serves HTTP, never a worker: no such notice to leave.
    domain.events.recordChangesIn((change, tx) => {
      if (change.kind !== 'sink') notices.leave(tx, { change });
    });
  }

  return { ...domain, options: serviceOptions, webhooks };
}
