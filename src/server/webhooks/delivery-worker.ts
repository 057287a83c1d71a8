import type { DomainDeps, EventOutbox } from '../domain/deps.js';
import type { EventRecord } from '../storage/events-repo.js';
import type { DeliveryAttemptState, DeliveryRecord, DueCursor, DueDelivery } from '../storage/webhook-deliveries-repo.js';
import type { EndpointTarget } from '../storage/webhooks-repo.js';
import { eventFilterMatches } from '../../api/schemas/events.js';
import type { WebhookDomainDeps } from '../domain/webhooks/endpoints.js';
import type { EventStore } from '../domain/events/store.js';
import { DEFAULT_CLAIM_LEASE_MS, type JobClaims, type Scheduler } from '../scheduler.js';
import { TICK_JOB, purgeExpiredDeliveries, writeDeliveriesForEvent } from '../domain/webhooks/deliveries.js';
import { USER_AGENT } from './signing.js';
import { systemResolver, type Resolver } from './resolver.js';
import { FairSlots } from './fair-slots.js';
import type { Chaos } from '../world/chaos.js';
import { Lane, type Queued, type Ready } from './delivery-lane.js';
import { LeasedClaims, SoleAttempter, type AttemptClaims } from './delivery-claims.js';
import { AttemptSender } from './attempt-sender.js';
import { AttemptRecorder } from './attempt-recorder.js';
import { moveWorker, type WorkerState } from './worker-state.js';

/** With a manual clock, or during a clock advance, an event's first attempts are also a job at its time (see below). */
export const FIRST_ATTEMPT_JOB = 'webhooks.first_attempt';

export interface WebhookWorkerOptions {
  /** spec: Delivery — any 2xx within 10 seconds. Lower only in tests. */
  ackTimeoutMs?: number;
  /** Attempts in flight at once, across endpoints: slots shared in fair turns across accounts (fair-slots.ts). */
  concurrency?: number;
  /**
   * The cap on attempts in flight at once to ONE endpoint (its window; spec: Delivery promises
   * at-least-once, not order). Kept below `concurrency` so a hanging endpoint holds at most this many slots.
   */
  window?: number;
  /** Name resolution for delivery (default: the OS resolver through node:dns lookup). */
  resolver?: Resolver;
  userAgent?: string;
  /** Real wall clock for the signature's `t` (contract §10); default Date.now. */
  wallNow?: () => number;
  /**
   * A last check on the address about to be connected to, after the safety rules (tests pass a
   * loopback-only guard so that no bug can send traffic off the machine).
   */
  destinationGuard?: (address: string) => boolean;
  /** The seeded faults of the simulated world; webhook attempts delayed or sent twice (chaos-post.ts). */
  chaos?: Chaos;
  /**
   * Who this process is in an attempt's claim, and the claim's lease (default
   * DEFAULT_CLAIM_LEASE_MS; never shorter than the ack timeout plus a second, so a live attempt is
   * not taken over). Tests shorten it to see a dead replica's attempts taken over.
   */
  claims?: Partial<JobClaims>;
  /**
   * This process is `--role api`: a worker process makes every attempt, the out-of-band
   * ones (a test delivery, a manual retry) included; this one waits for it to record them.
   */
  attemptsElsewhere?: boolean;
  /**
   * This process is the only one that makes attempts on its database (SQLite: the data
   * directory's lock admits one worker, `--role worker` or `all`, and an `api` process makes none),
   * so an attempt reads its delivery's state instead of writing a claim. Exactly once still holds:
   * within the process a delivery is attempted by one lane at a time (`tracked`), and recording its
   * outcome (which moves or clears its next attempt) commits before it leaves `tracked`, so a later
   * look reads it recorded. A second attempter would break this: never set it with replicas.
   */
  soleAttempter?: boolean;
  /**
   * The HTTP client: 'undici' in a `--role worker` process (cheaper per attempt), 'node'
   * (node:http) in one that serves the API too (undici-sender.ts says why). Default 'node'.
   */
  httpClient?: 'node' | 'undici';
}

/** Deliveries queued per look for due work from another process (the worker's poll): the oldest due first. */
const RESUME_BATCH = 1024;

/** Deliveries whose claim could not be written (see claimAhead, probe): queued again after CLAIM_RETRY_MS. */
const CLAIM_RETRY_MS = 250;

/** How long an API process waits, beyond the ack timeout, for the worker to record an attempt asked for. */
const ELSEWHERE_GRACE_MS = 10_000;
/** How often it looks. */
const ELSEWHERE_POLL_MS = 20;

const PURGE_EVERY_MS = 3600_000;

// One endpoint sending one attempt at a time delivered 279/s in a burst to a loopback receiver and
// 13/s under API load: each attempt waited a full round trip plus its own transaction.
// A window of 64 per endpoint (the cap on its attempts in flight), 256 slots across endpoints, keeps
// the pipe full; a hanging endpoint holds at most a quarter of the slots. An account's endpoints
// together (50, more for an agency's sub-accounts) could hold them all: the slots are shared in fair
// turns across accounts with a reserve for newcomers (fair-slots.ts), so one account's hanging
// receivers (an attempt holds its slot up to the 10 s ack timeout) never hold up another's.
export const DEFAULT_WEBHOOK_OPTIONS = { ackTimeoutMs: 10_000, concurrency: 256, window: 64 } as const;

/**
 * Job handlers wait for the attempts they start (and first attempts are jobs) with a manual clock
 * and during any advance: see the DeliveryWorker comment.
 */
export function attemptsWaitInJobs(d: Pick<WebhookDomainDeps, 'clock' | 'scheduler'>): boolean {
  return d.clock.mode === 'manual' || d.scheduler.advancing;
}

/**
 * The webhook outbox, run inside every event's transaction (contract §10: deliveries are durable):
 * one pending delivery per matching endpoint, and when attempts wait in jobs, a FIRST_ATTEMPT_JOB
 * at the event's time. The deliveries it wrote go to `committed` once the transaction has committed
 * (the worker queues them); an event no endpoint wants costs no read at all (reading
 * each event's deliveries back after its commit was 5-8 % of a send's CPU).
 */
export function webhookOutbox(committed: (deliveries: DueDelivery[]) => void): EventOutbox {
  const outbox: EventOutbox = async (event, tx) => {
    const written = await writeDeliveriesForEvent(tx, event);
    if (written.length === 0) return;
    if (attemptsWaitInJobs(tx)) await tx.scheduler.schedule(FIRST_ATTEMPT_JOB, event.createdAt, { eventId: event.id });
    tx.afterCommit(() => committed(written));
  };
  // The account's enabled endpoints, read with the events' insert (writeDeliveriesForEvent reads them).
  outbox.prefetch = (accountId, tx) => tx.webhookEndpoints.enabledForAccount(accountId);
  return outbox;
}

/** The worker's durable jobs and its advance hook (registered by the composition root). */
export function registerDeliveryJobs(scheduler: Scheduler, worker: DeliveryWorker): void {
  scheduler.registerOutside(TICK_JOB, () => worker.onTick(), 'webhook delivery attempts (retries)');
  scheduler.registerOutside(FIRST_ATTEMPT_JOB, (payload: { eventId: string }) => worker.onFirstAttemptJob(payload.eventId), 'webhook delivery attempts (first)');
  // An attempt in flight when an advance starts finishes first (at most the ack timeout), so its
  // retry is scheduled from when it really ended and runs in order inside the advance.
  scheduler.beforeAdvance(() => worker.idle());
}

export interface WorkerLog {
  error(obj: object, msg: string): void;
}

/**
 * Sends webhook deliveries (spec: Events, Delivery; contract §10).
 *
 * - The outbox (writeDeliveriesForEvent) writes one pending delivery per matching endpoint inside the
 *   event's transaction; first attempts go at once, woken by the event store's after-commit hint
 *   (and, on start, every due delivery is resumed, so a crash loses nothing).
 * - Retries are scheduler jobs at 5-minute tick boundaries of the service clock (TICK_JOB), so
 *   `clock advance` sends them in time order.
 * - While the scheduler is advancing (`clock advance`, whatever the clock mode) and always with a
 *   manual clock, the outbox also schedules FIRST_ATTEMPT_JOB at the event's time, and job handlers
 *   wait for the sends they start: each tick's attempts are made and recorded before the clock moves
 *   on, so the next retry is computed from the right time and `clock advance` returns only when the
 *   attempts that fell due inside it are done (contract §10). Outside an advance with the system
 *   clock, jobs only dispatch, so a slow receiver never holds up the scheduler.
 * - Each endpoint is a lane: its deliveries start in the order they were queued, at most `window`
 *   in flight at once (spec: Delivery promises at-least-once, not order; a receiver dedupes on
 *   `id`); lanes run in parallel, bounded by `concurrency` slots, so one slow endpoint never holds
 *   up another (it holds at most `window` slots). The slots go in fair turns across accounts, with
 *   a reserve for an account that holds few (fair-slots.ts): however many of one account's endpoints
 *   hang, another account's attempts start at once. The HTTP agent allows as many connections per
 *   host:port as there are slots (the pool bounds traffic).
 * - Outcomes are recorded in batches: the attempts that end in one turn of the event loop are
 *   recorded in one transaction (attempt-recorder.ts), before anyone waiting for them is told.
 * - A test delivery and a manual retry are out-of-band probes: sent at once, neither queued on the
 *   endpoint's lane (behind a backlog to a hanging receiver) nor waiting for a slot, each on its own
 *   connection. *
 * Its parts, each testable alone: the lane (delivery-lane.ts: one endpoint's queue, window and claim
 * state), the claims (delivery-claims.ts: read by the sole attempter, or claimed with a lease,
 * renewed and swept), the sender (attempt-sender.ts: resolve, check, sign, POST), the recorder
 * (attempt-recorder.ts: outcomes in batches), the slots (fair-slots.ts); this class is the pump
 * between them and the triggers that queue work. Its own state is `WorkerState` (worker-state.ts),
 * moved only through `moveWorker`, which asserts each move.
 */
export class DeliveryWorker {
  readonly ackTimeoutMs: number;
  private readonly concurrency: number;
  private readonly window: number;
  private readonly elsewhere: boolean;
  private state: WorkerState = 'stopped';
  private unsubscribe: Array<() => void> = [];
  private readonly lanes = new Map<string, Lane>();
  /** Each delivery queued or in flight, until it leaves this process's hands: one attempt at a time each. */
  private readonly tracked = new Map<string, Promise<void>>();
  private readonly transient = new Set<Promise<unknown>>();
  /** Attempt slots, shared in fair turns across the endpoints' accounts. */
  private readonly slots: FairSlots;
  private lastPurgeAt = 0;
  /** How a delivery becomes this process's to attempt: read (the sole attempter) or claimed with a lease. */
  private readonly claims: AttemptClaims;
  private readonly sole: boolean;
  private readonly sender: AttemptSender;
  private readonly recorder: AttemptRecorder;
  /** Where the last look for due work another process wrote ended (resume). */
  private dueCursor: DueCursor | undefined;
  /** Events another process committed, heard and not yet looked up (heardEvent). */
  private heard: string[] = [];

  constructor(
    private readonly d: Pick<DomainDeps, 'uow' | 'clock' | 'scheduler'> & { events: EventStore },
    opts: WebhookWorkerOptions = {},
    private readonly log: WorkerLog = { error: () => undefined },
  ) {
    this.ackTimeoutMs = opts.ackTimeoutMs ?? DEFAULT_WEBHOOK_OPTIONS.ackTimeoutMs;
    this.concurrency = Math.max(1, opts.concurrency ?? DEFAULT_WEBHOOK_OPTIONS.concurrency);
    this.window = Math.max(1, Math.min(this.concurrency, opts.window ?? DEFAULT_WEBHOOK_OPTIONS.window));
    this.slots = new FairSlots(this.concurrency);
    this.elsewhere = opts.attemptsElsewhere ?? false;
    this.sole = opts.soleAttempter ?? false;
    const live = () => this.state === 'running';
    this.sender = new AttemptSender(
      {
        ackTimeoutMs: this.ackTimeoutMs,
        concurrency: this.concurrency,
        resolver: opts.resolver ?? systemResolver,
        userAgent: opts.userAgent ?? USER_AGENT,
        wallNow: opts.wallNow ?? Date.now,
        guard: opts.destinationGuard,
        chaos: opts.chaos,
        httpClient: opts.httpClient ?? 'node',
      },
      live,
    );
    this.recorder = new AttemptRecorder(d.uow, live, log);
    const claims: JobClaims = {
      owner: opts.claims?.owner ?? 'this-process',
      leaseMs: Math.max(opts.claims?.leaseMs ?? DEFAULT_CLAIM_LEASE_MS, this.ackTimeoutMs + 1000),
    };
    this.claims = this.sole ? new SoleAttempter(d.uow) : new LeasedClaims(d.uow, claims, () => d.clock.nowMs(), log);
  }

  private get running(): boolean {
    return this.state === 'running';
  }

  private get waitsInJobs(): boolean {
    return attemptsWaitInJobs(this.d);
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts listening and resumes every due delivery (those cut off by a stop or a crash). */
  async start(): Promise<void> {
    if (this.running) return;
    this.state = moveWorker(this.state, 'running');
    this.sender.renew();
    this.unsubscribe = [
      this.d.events.subscribe(async () => await this.onEvent()),
      this.d.events.subscribeTransient(async (e) => await this.onTransient(e)),
    ];
    await this.purge();
    await this.dispatchDue();
    // Claims with a lease are renewed while held, and what a dead process left is taken over
    // (delivery-claims.ts); the sole attempter holds no claim: a restart resumes what is due.
    if (this.running) this.claims.start((deliveryId, endpointId) => void this.enqueue(deliveryId, endpointId));
  }

  /**
   * Stops sending: no new attempts start, attempts in flight are cut off and NOT recorded (they stay
   * due and are resumed on the next start: at-least-once).
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.state = moveWorker(this.state, 'stopping');
    this.claims.stopTimers();
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    // Every attempt in flight is cut off (its client is this run's: one per start).
    this.sender.abortAll();
    await this.idle();
    this.sender.close();
    // Attempts cut off stay due: released now, the next start (or another replica) resumes them at
    // once rather than when their lease runs out.
    await this.claims.releaseAll();
    this.dueCursor = undefined;
    this.heard = [];
    if (this.state === 'stopping') this.state = moveWorker(this.state, 'stopped');
  }

  /** Waits until no attempt is queued or in flight. */
  async idle(): Promise<void> {
    while (this.tracked.size > 0 || this.transient.size > 0) {
      await Promise.allSettled([...this.tracked.values(), ...this.transient]);
    }
  }

  /** Sends everything due now and waits for it (and for any other attempt in flight). For tests and tools. */
  async flush(): Promise<void> {
    // Let after-commit hints of just-emitted events run first.
    await new Promise((r) => setImmediate(r));
    if (this.running) await this.dispatchDue();
    await this.idle();
  }

  isInFlight(deliveryId: string): boolean {
    return this.tracked.has(deliveryId);
  }

  // ---- the pump: lanes, their claims and the slots ----

  /**
   * Queues one delivery on its endpoint's lane (deduplicated: a delivery queued or in flight is not
   * queued again); it is attempted only if still due by then. Resolves once its attempt is recorded.
   */
  enqueue(deliveryId: string, endpointId: string): Promise<void> {
    const existing = this.tracked.get(deliveryId);
    if (existing) return existing;
    let lane = this.lanes.get(endpointId);
    if (!lane) {
      lane = new Lane(endpointId, this.window);
      this.lanes.set(endpointId, lane);
    }
    let done!: () => void;
    const run = new Promise<void>((r) => (done = r));
    this.tracked.set(deliveryId, run);
    lane.push({ deliveryId, done });
    this.pump(lane);
    return run;
  }

  /**
   * Starts the lane's ready attempts while its window has room (they then wait for a pool slot), and
   * claims the next ones a window ahead, many in one write, so the window refills without a write
   * per attempt (under API load, a claim per attempt keeps the worker's writes behind the
   * API's). It claims again only once half the window's ready attempts have started (Lane.wantsClaim;
   * bench/roles, SQLite: a claim per attempt was ~4,000 reads of one delivery each per second). A
   * stopped worker settles what is queued (it stays due: resumed on the next start).
   */
  private pump(lane: Lane): void {
    if (!this.running) return this.drain(lane);
    for (let r = lane.startNext(); r; r = lane.startNext()) this.startAttempt(lane, r);
    if (lane.wantsClaim) void this.claimAhead(lane);
    else if (lane.finished && this.lanes.get(lane.endpointId) === lane) this.lanes.delete(lane.endpointId);
  }

  /** Settles every delivery the lane holds that no attempt runs for (stopping). */
  private drain(lane: Lane): void {
    for (const q of lane.drain()) this.settle(q);
    if (lane.finished && this.lanes.get(lane.endpointId) === lane) this.lanes.delete(lane.endpointId);
  }

  /** A delivery leaves this process's hands: no longer tracked (a later look may queue it again). */
  private settle(q: Queued): void {
    this.tracked.delete(q.deliveryId);
    this.claims.forget(q.deliveryId);
    q.done();
  }

  /**
   * Claims the lane's next waiting deliveries (up to a window's worth beyond those ready) in one
   * write, reading in it their states, the bytes to send and the endpoint (delivery-claims.ts).
   * Those not won (finished, not due yet, another process's, gone) leave the lane.
   */
  private async claimAhead(lane: Lane): Promise<void> {
    const batch = lane.beginClaim();
    const ids = batch.map((q) => q.deliveryId);
    let got: Awaited<ReturnType<AttemptClaims['claimBatch']>> | undefined;
    try {
      got = await this.claims.claimBatch(lane.endpointId, ids, this.d.clock.nowMs());
    } catch (err) {
      // The write failed (on PostgreSQL, one that lost its race to other replicas' writes ten
      // times in a row): the deliveries are still due and unclaimed, and no one else would look at
      // them again before a restart (bench/replicas: 220 of 3,000 stranded under load, one account).
      this.log.error({ err, count: ids.length }, 'claiming webhook attempts failed; they are queued again');
    }
    const byId = new Map(got?.states.map((x) => [x.id, x]));
    const won: Ready[] = [];
    for (const q of batch) {
      const state = byId.get(q.deliveryId);
      if (!state || !this.running) {
        this.settle(q);
        if (!got && this.running) this.enqueueLater(q.deliveryId, lane.endpointId);
        continue;
      }
      this.claims.hold(q.deliveryId);
      won.push({ queued: q, state, endpoint: got!.endpoint });
    }
    lane.endClaim(won);
    this.pump(lane);
  }

  /** Starts one ready attempt, counted in the lane's window. */
  private startAttempt(lane: Lane, r: Ready): void {
    // The window and the pool slot are freed as soon as the response is in, not when the batch
    // commits: under API load a turn of the event loop is long, and waiting one more turn per
    // attempt halved what a lane could send. The delivery stays tracked (not queued again)
    // until it is recorded.
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      lane.free();
      this.pump(lane);
    };
    // The slot is the endpoint's account's turn (an endpoint gone: nothing is sent, any key does).
    void this.slots.with(r.endpoint?.accountId ?? '', () => this.attempt(r.state, r.endpoint, true))
      .then(async (made) => {
        free();
        await made?.recorded;
      })
      .catch((err: unknown) => this.log.error({ err, deliveryId: r.state.id }, 'webhook delivery attempt failed unexpectedly'))
      .finally(() => {
        free();
        this.settle(r.queued);
      });
  }

  /** Queues a delivery again after CLAIM_RETRY_MS (its claim's write failed: nothing was sent). */
  private enqueueLater(deliveryId: string, endpointId: string): void {
    const timer = setTimeout(() => {
      if (this.running) void this.enqueue(deliveryId, endpointId);
    }, CLAIM_RETRY_MS);
    timer.unref();
  }

  // ---- probes: attempts the user asked for now ----

  /**
   * An out-of-band attempt the user asked for (a test, a manual retry): made at once, not queued on
   * the endpoint's lane nor waiting for a pool slot, on a connection of its own. Tracked like any
   * attempt, so a tick cannot send the same delivery meanwhile and stop() waits for it.
   */
  private probe(deliveryId: string, endpointId: string): Promise<void> {
    const existing = this.tracked.get(deliveryId);
    if (existing) return existing;
    let claimAgain = false;
    const run = Promise.resolve()
      .then(async () => {
        const prepared = await this.prepareProbe(deliveryId);
        if (prepared === 'failed') claimAgain = true;
        else if (prepared) await (await this.attempt(prepared.state, prepared.endpoint, false))?.recorded;
      })
      .catch((err: unknown) => this.log.error({ err, deliveryId }, 'webhook delivery attempt failed unexpectedly'))
      .finally(() => {
        this.tracked.delete(deliveryId);
        this.claims.forget(deliveryId);
        if (claimAgain) this.enqueueLater(deliveryId, endpointId);
      });
    this.tracked.set(deliveryId, run);
    return run;
  }

  /**
   * A probe's delivery claimed (any time: the user asked for it now) with its state, the bytes to
   * send and its endpoint read in the same write; the sole attempter reads them. Undefined: not to
   * be attempted (finished, gone, another process's); 'failed': the claim's write failed.
   */
  private async prepareProbe(deliveryId: string): Promise<{ state: DeliveryAttemptState; endpoint: EndpointTarget | undefined } | undefined | 'failed'> {
    if (!this.running) return;
    try {
      return await this.claims.claimOne(deliveryId, this.d.clock.nowMs());
    } catch (err) {
      this.log.error({ err, deliveryId }, 'claiming a webhook attempt failed; it is queued again');
      return 'failed';
    }
  }

  /**
   * This process serves HTTP at `origin` (main.ts, once it listens): a sink's URL there is the
   * service itself (isOwnSinkUrl), reachable even when that address is one the rules refuse.
   */
  servesAt(origin: string): void {
    this.sender.servesAt(origin);
  }

  /**
   * A delivery the user asked to be attempted now: a test delivery (createTestDelivery) or a manual
   * retry already scheduled (scheduleManualRetry). Attempts it at once (a probe) and returns the result.
   */
  async attemptNow(delivery: DeliveryRecord): Promise<DeliveryRecord> {
    if (this.elsewhere) return this.recordedElsewhere(delivery);
    await this.probe(delivery.id, delivery.endpointId);
    return (await this.d.uow.read((tx) => tx.webhookDeliveries.getById(delivery.id))) ?? delivery;
  }

  /**
   * `--role api`: the delivery is due now in the database, so the worker's next look
   * attempts it (as one process, the attempt is made before the answer); this waits until its
   * attempt is recorded, or answers the delivery as it stands once the worker has had its ack
   * timeout and more (no worker running: still pending, attempted when one starts).
   */
  private async recordedElsewhere(delivery: DeliveryRecord): Promise<DeliveryRecord> {
    const deadline = Date.now() + this.ackTimeoutMs + ELSEWHERE_GRACE_MS;
    for (;;) {
      const now = (await this.d.uow.read((tx) => tx.webhookDeliveries.getById(delivery.id))) ?? delivery;
      if (now.attempt > delivery.attempt || Date.now() >= deadline) return now;
      await new Promise((r) => setTimeout(r, ELSEWHERE_POLL_MS));
    }
  }

  /**
   * Another process (an API process beside this worker) may have written deliveries this
   * one was not told of: queue the due ones (those queued already are not queued twice), a page at a
   * time, reading on from where the last look ended: under a backlog the oldest due are queued
   * already, and reading them again each look never reached the newer ones. A page that reaches the
   * end sends the next look back to the start, which finds what committed behind the cursor (on
   * PostgreSQL, transactions commit out of their rows' order; a manual retry makes an old row due).
   */
  async resume(): Promise<void> {
    if (!this.running) return;
    const now = this.d.clock.nowMs();
    const page = await this.d.uow.read((tx) => tx.webhookDeliveries.duePage(now, RESUME_BATCH, this.dueCursor));
    this.dueCursor = page.deliveries.length < RESUME_BATCH ? undefined : page.last;
    for (const x of page.deliveries) void this.enqueue(x.id, x.endpointId);
  }

  /**
   * An event another process committed (PostgreSQL's notification, heard by a `--role
   * worker` process): its deliveries are queued at once rather than at the next poll, the events
   * heard in one turn of the event loop looked up in one read.
   */
  heardEvent(eventId: string): void {
    if (!this.running) return;
    this.heard.push(eventId);
    if (this.heard.length > 1) return;
    setImmediate(() => void this.queueHeard());
  }

  private async queueHeard(): Promise<void> {
    const eventIds = this.heard;
    this.heard = [];
    if (!this.running || eventIds.length === 0) return;
    try {
      const due = await this.d.uow.read((tx) => tx.webhookDeliveries.dueForEvents(eventIds, this.d.clock.nowMs()));
      for (const x of due) void this.enqueue(x.id, x.endpointId);
    } catch (err) {
      // The poll finds them (resume).
      this.log.error({ err }, 'looking up the deliveries of events heard from another process failed');
    }
  }

  // ---- triggers ----

  /** Queues every due delivery; `count` says how many (a clock advance reports it). */
  private async dispatchDue(): Promise<{ work: Promise<unknown>; count: number }> {
    const due = await this.d.uow.read((tx) => tx.webhookDeliveries.due(this.d.clock.nowMs()));
    return { work: Promise.all(due.map((x) => this.enqueue(x.id, x.endpointId))), count: due.length };
  }

  /** The outbox's deliveries, committed: their first attempts are queued at once. */
  onCommitted(deliveries: DueDelivery[]): void {
    if (!this.running) return;
    for (const x of deliveries) void this.enqueue(x.id, x.endpointId);
  }

  /** Every event: the hourly purge of the delivery log, when it is due. */
  private async onEvent(): Promise<void> {
    if (this.running) await this.maybePurge();
  }

  /** FIRST_ATTEMPT_JOB: the first attempts of one event (see the class comment). */
  async onFirstAttemptJob(eventId: string): Promise<number> {
    if (!this.running) return 0;
    const due = await this.d.uow.read((tx) => tx.webhookDeliveries.dueForEvent(eventId, this.d.clock.nowMs()));
    const work = Promise.all(due.map((x) => this.enqueue(x.id, x.endpointId)));
    if (this.waitsInJobs) await work;
    return due.length;
  }

  /** TICK_JOB: the retries due at one 5-minute tick, and the hourly purge of the log. */
  async onTick(): Promise<number> {
    if (!this.running) return 0;
    await this.purge();
    const { work, count } = await this.dispatchDue();
    if (this.waitsInJobs) await work;
    return count;
  }

  private async purge(): Promise<void> {
    this.lastPurgeAt = this.d.clock.nowMs();
    const at = this.lastPurgeAt;
    await this.d.uow.write((tx) => purgeExpiredDeliveries(tx, at));
  }

  /** The log is read with a 7-day cut-off anyway; rows past it are deleted at most hourly. */
  private async maybePurge(): Promise<void> {
    if (this.d.clock.nowMs() - this.lastPurgeAt >= PURGE_EVERY_MS) await this.purge();
  }

  /** spec: Delivery — non-durable events: one attempt per matching endpoint, nothing recorded, unordered. */
  private async onTransient(e: EventRecord): Promise<void> {
    if (!this.running) return;
    const raw = JSON.stringify(e.body);
    for (const ep of await this.d.uow.read((tx) => tx.webhookEndpoints.enabledForAccount(e.accountId))) {
      if (!eventFilterMatches(ep.events, e.type)) continue;
      const p = this.slots.with(ep.accountId, () => this.sender.deliver(ep, raw, e.id, e.type, 1)).catch(() => undefined);
      this.transient.add(p);
      void p.finally(() => this.transient.delete(p));
    }
  }

  // ---- one attempt ----

  /**
   * Makes the attempt of a delivery this process holds (claimed, or read as the sole attempter):
   * resolves when the POST is done; `recorded` when its outcome is committed (nothing when not made
   * or cut off). `pooled` false: on a connection of its own (a probe).
   */
  private async attempt(delivery: DeliveryAttemptState, endpoint: EndpointTarget | undefined, pooled: boolean): Promise<{ recorded: Promise<void> } | undefined> {
    if (!this.running || !endpoint) return;
    const deliveryId = delivery.id;
    const now = this.d.clock.nowMs();
    if (!endpoint.enabled && !delivery.isTest) {
      await this.d.uow.write((tx) => tx.webhookDeliveries.abandon(deliveryId, `endpoint disabled (${endpoint.disabledReason ?? 'manual'})`, now));
      return;
    }
    const raw = delivery.rawBody;
    if (raw === null) {
      await this.d.uow.write((tx) => tx.webhookDeliveries.abandon(deliveryId, 'the event is no longer stored', now));
      return;
    }
    const attempt = delivery.attempt + 1;
    const result = await this.sender.deliver(endpoint, raw, delivery.eventId, delivery.eventType, attempt, pooled);
    if ('aborted' in result || !this.running) return; // stopping: stays due, resumed on start
    return { recorded: this.recorder.record({ deliveryId, attempt, at: now, result }) };
  }
}
