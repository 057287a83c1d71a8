import type { DomainDeps, EventOutbox, TxDeps } from '../domain/deps.js';
import type { EventRecord } from '../storage/events-repo.js';
import type { DeliveryAttemptState, DeliveryRecord, DueCursor, DueDelivery } from '../storage/webhook-deliveries-repo.js';
import type { EndpointRoute, EndpointTarget } from '../storage/webhooks-repo.js';
import { DatabaseUnavailableError } from '../storage/storage-errors.js';
import { eventFilterMatches } from '../../api/schemas/events.js';
import type { WebhookDomainDeps } from '../domain/webhooks/endpoints.js';
import type { EventStore } from '../domain/events/store.js';
import { DEFAULT_CLAIM_LEASE_MS, type JobClaims, type Scheduler } from '../scheduler.js';
import { TICK_JOB, purgeExpiredDeliveries, recordAttempts, writeDeliveriesForEvent, type AttemptMade, type AttemptResult } from '../domain/webhooks/deliveries.js';
import { WebhookHttpSender } from './http-sender.js';
import { UndiciWebhookSender } from './undici-sender.js';
import type { WebhookSender } from './http-post.js';
import { USER_AGENT, deliveryHeaders } from './signing.js';
import { isRetryableStatus, parseRetryAfterMs } from '../domain/webhooks/retry-schedule.js';
import { checkResolvedAddresses, classifyAddress, describeAddressClass, isOwnSinkUrl, urlHost, type AddressClass, type ResolvedAddress } from '../domain/webhooks/url-safety.js';
import { systemResolver, type Resolver } from './resolver.js';
import { postWithChaos } from './chaos-post.js';
import { FairSlots } from './fair-slots.js';
import type { Chaos } from '../world/chaos.js';

/**
 * The worker's claims, renewals and records: each statement guards itself (a claim takes only rows
 * it could lock and finds unclaimed, `FOR UPDATE SKIP LOCKED`; a renewal only its own live claims; a
 * record only the attempt that follows the one recorded; an endpoint's streak as `n = n + 1`), so
 * PostgreSQL runs them at READ COMMITTED (store.ts, WriteOptions). What that leaves: two replicas
 * recording the same attempt (a claim taken over from a live holder) may both count it in the
 * endpoint's streak, and may both schedule the tick that retries it (a tick finds what is due; two
 * find it once between them, by their claims).
 */
const ROW_GUARDED = { rowGuarded: true } as const;

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
/** The longest pause between tries to record attempts while the database cannot be reached. */
const RECORD_RETRY_MAX_MS = 2000;

/** Deliveries queued per sweep for work another process left (takeOverExpired). */
const TAKE_OVER_BATCH = 1000;

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

/** A delivery queued on a lane; `done` once it is recorded, or found not to be this process's to attempt. */
interface Queued {
  deliveryId: string;
  done: () => void;
}

/** A delivery claimed (or, as the sole attempter, read) and due: what its attempt sends, and where. */
interface Ready {
  queued: Queued;
  state: DeliveryAttemptState;
  endpoint: EndpointTarget | undefined;
}

/**
 * One endpoint's queue: ids waiting (from `head` on), those claimed a window ahead (`ready`), whether
 * a claim is being written, and how many of its attempts are in flight.
 */
interface Lane {
  waiting: Queued[];
  head: number;
  ready: Ready[];
  claiming: boolean;
  inFlight: number;
}

/** An attempt made, waiting for its batch's transaction (see recordLater). */
interface PendingRecord extends AttemptMade {
  done: () => void;
}

/** Parsed endpoint URLs kept (an endpoint's URL is parsed once, not per attempt). */
const URL_CACHE_LIMIT = 1000;
interface ParsedTarget {
  url: URL;
  host: string;
  literal: AddressClass | undefined;
}

type Outcome = AttemptResult | { aborted: true };

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
 *   recorded in one transaction (recordLater), before anyone waiting for them is told.
 * - A test delivery and a manual retry are out-of-band probes: sent at once, neither queued on the
 *   endpoint's lane (behind a backlog to a hanging receiver) nor waiting for a slot, each on its own
 *   connection.
 */
export class DeliveryWorker {
  readonly ackTimeoutMs: number;
  private readonly concurrency: number;
  private readonly window: number;
  private readonly resolver: Resolver;
  private readonly userAgent: string;
  private readonly wallNow: () => number;
  private readonly guard: ((address: string) => boolean) | undefined;
  private readonly chaos: Chaos | undefined;
  private readonly elsewhere: boolean;
  private sender: WebhookSender;
  private readonly httpClient: 'node' | 'undici';
  private running = false;
  private unsubscribe: Array<() => void> = [];
  private readonly lanes = new Map<string, Lane>();
  private readonly tracked = new Map<string, Promise<void>>();
  private readonly transient = new Set<Promise<unknown>>();
  /** Attempt slots, shared in fair turns across the endpoints' accounts. */
  private readonly slots: FairSlots;
  private lastPurgeAt = 0;
  private pendingRecords: PendingRecord[] = [];
  /** The batch being recorded, if any: outcomes that end meanwhile wait for the next (one record write at a time). */
  private recording: Promise<void> | undefined;
  /** The pause before recording again while the database cannot be reached (0: the last record went through). */
  private recordRetryMs = 0;
  private readonly sole: boolean;
  /** Where the last look for due work another process wrote ended (resume). */
  private dueCursor: DueCursor | undefined;
  /** Events another process committed, heard and not yet looked up (heardEvent). */
  private heard: string[] = [];
  private readonly parsedUrls = new Map<string, ParsedTarget | undefined>();
  private readonly claims: JobClaims;
  private sweepTimer: NodeJS.Timeout | undefined;
  /** The deliveries whose attempt this process has claimed and not yet recorded (renewHeld). */
  private readonly held = new Set<string>();
  private renewTimer: NodeJS.Timeout | undefined;
  /** The origins this process's HTTP server listens on (servesAt): where its own sinks are. */
  private readonly ownOrigins = new Set<string>();

  constructor(
    private readonly d: Pick<DomainDeps, 'uow' | 'clock' | 'scheduler'> & { events: EventStore },
    opts: WebhookWorkerOptions = {},
    private readonly log: WorkerLog = { error: () => undefined },
  ) {
    this.ackTimeoutMs = opts.ackTimeoutMs ?? DEFAULT_WEBHOOK_OPTIONS.ackTimeoutMs;
    this.concurrency = Math.max(1, opts.concurrency ?? DEFAULT_WEBHOOK_OPTIONS.concurrency);
    this.window = Math.max(1, Math.min(this.concurrency, opts.window ?? DEFAULT_WEBHOOK_OPTIONS.window));
    this.slots = new FairSlots(this.concurrency);
    this.resolver = opts.resolver ?? systemResolver;
    this.userAgent = opts.userAgent ?? USER_AGENT;
    this.wallNow = opts.wallNow ?? Date.now;
    this.guard = opts.destinationGuard;
    this.chaos = opts.chaos;
    this.elsewhere = opts.attemptsElsewhere ?? false;
    this.sole = opts.soleAttempter ?? false;
    this.httpClient = opts.httpClient ?? 'node';
    this.sender = this.newSender();
    this.claims = {
      owner: opts.claims?.owner ?? 'this-process',
      leaseMs: Math.max(opts.claims?.leaseMs ?? DEFAULT_CLAIM_LEASE_MS, this.ackTimeoutMs + 1000),
    };
  }

  private get waitsInJobs(): boolean {
    return attemptsWaitInJobs(this.d);
  }

  private newSender(): WebhookSender {
    const opts = { maxSocketsPerOrigin: this.concurrency };
    return this.httpClient === 'undici' ? new UndiciWebhookSender(opts) : new WebhookHttpSender(opts);
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts listening and resumes every due delivery (those cut off by a stop or a crash). */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.sender = this.newSender();
    this.unsubscribe = [
      this.d.events.subscribe(async () => await this.onEvent()),
      this.d.events.subscribeTransient(async (e) => await this.onTransient(e)),
    ];
    await this.purge();
    await this.dispatchDue();
    // Attempts a process claimed and never recorded (it died) are taken over once their
    // lease has run out (another process's lease may be shorter than this one's: every 5 s at most), and
    // deliveries it wrote and never claimed once they have been due for a lease; looked for twice a
    // lease, on the wall clock (a dead process's lease runs out in real time, whatever the service clock does).
    // The sole attempter holds no claim: nothing to take over nor renew (a restart resumes what is due).
    if (this.sole) return;
    this.sweepTimer = setInterval(() => void this.takeOverExpired(), Math.max(50, Math.min(this.claims.leaseMs / 2, 5000)));
    this.sweepTimer.unref();
    // A claim is renewed while its delivery waits in a lane or its attempt runs (a slow
    // name lookup, a batch waiting for the write lock, a long queue behind a slow receiver), three
    // times a lease: another process takes it over only once this one has stalled for two thirds of
    // a lease, as a dead one would.
    this.renewTimer = setInterval(() => void this.renewHeld(), Math.max(20, this.claims.leaseMs / 3));
    this.renewTimer.unref();
  }

  /** Renews the claims this process holds (see `held`); one lost (run out, taken over) is forgotten. */
  private async renewHeld(): Promise<void> {
    if (!this.running || this.held.size === 0) return;
    const ids = [...this.held.keys()];
    try {
      const renewed = new Set(await this.d.uow.write((tx) => tx.webhookDeliveries.renewClaims(this.claims.owner, ids, this.claims.leaseMs), ROW_GUARDED));
      for (const id of ids) if (!renewed.has(id)) this.held.delete(id);
    } catch (err) {
      this.log.error({ err }, 'renewing the claims on webhook attempts failed');
    }
  }

  /**
   * Queues the deliveries another process left: those whose claim ran out with their attempt
   * unrecorded, and those due for a whole lease that nobody claimed (their writer died after the
   * commit, before its worker reached them: bench/replicas lost 2 to 4 of 76 this way when a replica
   * was killed). A live process that holds one in a long lane loses nothing to this: the claim at the
   * attempt decides who makes it (one attempt, never two).
   */
  private async takeOverExpired(): Promise<void> {
    if (!this.running) return;
    try {
      const dueBy = this.d.clock.nowMs() - this.claims.leaseMs;
      const [expired, orphaned] = await this.d.uow.read(async (tx) => [await tx.webhookDeliveries.leaseExpired(TAKE_OVER_BATCH), await tx.webhookDeliveries.unclaimedDue(dueBy, TAKE_OVER_BATCH)]);
      for (const x of [...expired, ...orphaned]) void this.enqueue(x.id, x.endpointId);
    } catch (err) {
      this.log.error({ err }, 'looking for webhook attempts another process left failed');
    }
  }

  /**
   * Stops sending: no new attempts start, attempts in flight are cut off and NOT recorded (they stay
   * due and are resumed on the next start: at-least-once).
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.sweepTimer);
    clearInterval(this.renewTimer);
    for (const u of this.unsubscribe) u();
    this.unsubscribe = [];
    // Every attempt in flight is cut off (its sender is this run's: one per start).
    this.sender.abortAll();
    await this.idle();
    this.sender.close();
    // Attempts cut off stay due: released now, the next start (or another replica) resumes them at
    // once rather than when their lease runs out.
    if (!this.sole) await this.d.uow.write((tx) => tx.webhookDeliveries.releaseClaims(this.claims.owner), ROW_GUARDED);
    this.held.clear();
    this.dueCursor = undefined;
    this.heard = [];
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

  /**
   * Queues one delivery on its endpoint's lane (deduplicated: a delivery queued or in flight is not
   * queued again); it is attempted only if still due by then. Resolves once its attempt is recorded.
   */
  enqueue(deliveryId: string, endpointId: string): Promise<void> {
    const existing = this.tracked.get(deliveryId);
    if (existing) return existing;
    let lane = this.lanes.get(endpointId);
    if (!lane) {
      lane = { waiting: [], head: 0, ready: [], claiming: false, inFlight: 0 };
      this.lanes.set(endpointId, lane);
    }
    let done!: () => void;
    const run = new Promise<void>((r) => (done = r));
    this.tracked.set(deliveryId, run);
    lane.waiting.push({ deliveryId, done });
    this.pump(endpointId, lane);
    return run;
  }

  /**
   * Starts the lane's ready attempts while its window has room (they then wait for a pool slot), and
   * claims the next ones a window ahead, many in one write, so the window refills without a write
   * per attempt (under API load, a claim per attempt keeps the worker's writes behind the
   * API's). It claims again only once half the window's ready attempts have started: refilling
   * whenever one had started made one claim (or, as the sole attempter, one read) per attempt with
   * a backlog (bench/roles, SQLite: ~4,000 reads of one delivery each per second, and each read
   * after an API commit re-reads its pages). A stopped worker settles what is queued (it stays due:
   * resumed on the next start).
   */
  private pump(endpointId: string, lane: Lane): void {
    if (!this.running) return this.drain(endpointId, lane);
    while (lane.inFlight < this.window && lane.ready.length > 0) this.startAttempt(endpointId, lane, lane.ready.shift()!);
    if (!lane.claiming && lane.ready.length * 2 <= this.window && lane.head < lane.waiting.length) void this.claimAhead(endpointId, lane);
    else if (lane.inFlight === 0 && !lane.claiming && lane.ready.length === 0 && lane.head >= lane.waiting.length && this.lanes.get(endpointId) === lane) this.lanes.delete(endpointId);
  }

  /** Takes up to `n` waiting deliveries off the lane. */
  private take(lane: Lane, n: number): Queued[] {
    const taken = lane.waiting.slice(lane.head, lane.head + n);
    lane.head += taken.length;
    if (lane.head > 1024 && lane.head * 2 > lane.waiting.length) {
      lane.waiting = lane.waiting.slice(lane.head);
      lane.head = 0;
    }
    return taken;
  }

  /** Settles every delivery the lane holds that no attempt runs for (stopping). */
  private drain(endpointId: string, lane: Lane): void {
    const left = [...this.take(lane, lane.waiting.length - lane.head), ...lane.ready.splice(0).map((r) => r.queued)];
    for (const q of left) this.settle(q);
    if (lane.inFlight === 0 && !lane.claiming && this.lanes.get(endpointId) === lane) this.lanes.delete(endpointId);
  }

  /** A delivery leaves this process's hands: no longer tracked (a later look may queue it again). */
  private settle(q: Queued): void {
    this.tracked.delete(q.deliveryId);
    this.held.delete(q.deliveryId);
    q.done();
  }

  /**
   * Claims the lane's next waiting deliveries (up to a window's worth beyond those ready) in one
   * write, reading in it their states, the bytes to send and the endpoint; the sole attempter reads
   * them instead (no claim to write). Those not won (finished, not due yet, another process's, gone)
   * leave the lane.
   */
  private async claimAhead(endpointId: string, lane: Lane): Promise<void> {
    lane.claiming = true;
    const batch = this.take(lane, this.window - lane.ready.length);
    const ids = batch.map((q) => q.deliveryId);
    const now = this.d.clock.nowMs();
    let got: { states: DeliveryAttemptState[]; endpoint: EndpointTarget | undefined } | undefined;
    try {
      got = this.sole
        ? await this.d.uow.read(async (tx) => {
            const states = (await tx.webhookDeliveries.attemptStates(ids)).filter((x) => x.nextAttemptAt !== null && x.nextAttemptAt <= now);
            return { states, endpoint: states.length > 0 ? await tx.webhookEndpoints.targetById(endpointId) : undefined };
          })
        : await this.d.uow.write(async (tx) => {
            const won = await tx.webhookDeliveries.claimAttempts(ids, this.claims.owner, this.claims.leaseMs, now);
            const states = await tx.webhookDeliveries.attemptStates(won);
            return { states, endpoint: states.length > 0 ? await tx.webhookEndpoints.targetById(endpointId) : undefined };
          }, ROW_GUARDED);
    } catch (err) {
      // The write failed (on PostgreSQL, one that lost its race to other replicas' writes ten
      // times in a row): the deliveries are still due and unclaimed, and no one else would look at
      // them again before a restart (bench/replicas: 220 of 3,000 stranded under load, one account).
      this.log.error({ err, count: ids.length }, 'claiming webhook attempts failed; they are queued again');
    }
    lane.claiming = false;
    const byId = new Map(got?.states.map((x) => [x.id, x]));
    for (const q of batch) {
      const state = byId.get(q.deliveryId);
      if (!state || !this.running) {
        this.settle(q);
        if (!got && this.running) this.enqueueLater(q.deliveryId, endpointId);
        continue;
      }
      if (!this.sole) this.held.add(q.deliveryId);
      lane.ready.push({ queued: q, state, endpoint: got!.endpoint });
    }
    this.pump(endpointId, lane);
  }

  /** Starts one ready attempt on the lane's window. */
  private startAttempt(endpointId: string, lane: Lane, r: Ready): void {
    lane.inFlight++;
    // The window and the pool slot are freed as soon as the response is in, not when the batch
    // commits: under API load a turn of the event loop is long, and waiting one more turn per
    // attempt halved what a lane could send. The delivery stays tracked (not queued again)
    // until it is recorded.
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      lane.inFlight--;
      this.pump(endpointId, lane);
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
        this.held.delete(deliveryId);
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
    const now = this.d.clock.nowMs();
    const read = async (tx: Pick<TxDeps, 'webhookDeliveries' | 'webhookEndpoints'>) => {
      const state = await tx.webhookDeliveries.attemptState(deliveryId);
      return state && state.nextAttemptAt !== null ? { state, endpoint: await tx.webhookEndpoints.targetById(state.endpointId) } : undefined;
    };
    try {
      if (this.sole) return await this.d.uow.read(read);
      const claimed = await this.d.uow.write(async (tx) => ((await tx.webhookDeliveries.claimAttempt(deliveryId, this.claims.owner, this.claims.leaseMs, now, true)) ? await read(tx) : undefined), ROW_GUARDED);
      if (claimed) this.held.add(deliveryId);
      return claimed;
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
    this.ownOrigins.add(new URL(origin).origin);
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
      const p = this.slots.with(ep.accountId, () => this.deliver(ep, raw, e.id, e.type, 1)).catch(() => undefined);
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
    const result = await this.deliver(endpoint, raw, delivery.eventId, delivery.eventType, attempt, pooled);
    if ('aborted' in result || !this.running) return; // stopping: stays due, resumed on start
    return { recorded: this.recordLater({ deliveryId, attempt, at: now, result }) };
  }

  /**
   * Records an attempt with the others that ended meanwhile, in ONE transaction (a transaction per
   * attempt was the largest item of the burst profile: 19 % of the CPU in better-sqlite3's
   * transaction wrapper). One batch is written at a time: the outcomes that end while it is in flight
   * go together in the next (on PostgreSQL, concurrent batches race on the endpoint's row
   * and run again). Resolves once it is committed, so whoever waits for the attempt (a job during an
   * advance, attemptNow, idle) sees it recorded.
   */
  private recordLater(r: AttemptMade): Promise<void> {
    return new Promise<void>((done) => {
      this.pendingRecords.push({ ...r, done });
      if (!this.recording) this.recording = this.recordPending();
    });
  }

  private async recordPending(): Promise<void> {
    // One turn of the event loop first: the attempts that end in the same turn join this batch.
    await new Promise((r) => setImmediate(r));
    while (this.pendingRecords.length > 0) {
      const batch = this.pendingRecords;
      this.pendingRecords = [];
      // A stop since the attempt ended: not recorded, it stays due and is resumed on start (stop()).
      const toRecord = this.running ? batch : [];
      try {
        if (toRecord.length > 0) await this.d.uow.write((tx) => recordAttempts(tx, toRecord), ROW_GUARDED);
        this.recordRetryMs = 0;
      } catch (err) {
        if (err instanceof DatabaseUnavailableError && this.running) {
          // The database is away: the outcomes are kept, in order, and recorded once it is back
          // (dropped, each attempt would be made again when its claim ran out: a second delivery).
          if (this.recordRetryMs === 0) this.log.error({ err, count: batch.length }, 'recording webhook attempts failed: the database cannot be reached; they are recorded once it can');
          this.pendingRecords = [...batch, ...this.pendingRecords];
          this.recordRetryMs = Math.min(Math.max(this.recordRetryMs * 2, CLAIM_RETRY_MS), RECORD_RETRY_MAX_MS);
          await new Promise((r) => setTimeout(r, this.recordRetryMs));
          continue;
        }
        // The batch rolled back as a whole: record each on its own, so one failure costs only itself.
        for (const r of toRecord) {
          try {
            await this.d.uow.write((tx) => recordAttempts(tx, [r]), ROW_GUARDED);
          } catch (err) {
            this.log.error({ err, deliveryId: r.deliveryId }, 'webhook delivery attempt could not be recorded');
          }
        }
      }
      for (const r of batch) r.done();
    }
    this.recording = undefined;
  }

  /**
   * An endpoint URL parsed, its host and whether the host is an address literal (and of what class),
   * once per URL (parsing and classifying it for every attempt showed in the worker's
   * profile). Undefined: not a valid URL.
   */
  private parseTarget(raw: string): ParsedTarget | undefined {
    if (this.parsedUrls.has(raw)) return this.parsedUrls.get(raw);
    let parsed: ParsedTarget | undefined;
    try {
      const url = new URL(raw);
      const host = urlHost(url);
      parsed = { url, host, literal: classifyAddress(host) };
    } catch {
      parsed = undefined;
    }
    if (this.parsedUrls.size >= URL_CACHE_LIMIT) this.parsedUrls.clear();
    this.parsedUrls.set(raw, parsed);
    return parsed;
  }

  /** Resolves, checks, signs and POSTs one attempt. Never throws. */
  private async deliver(endpoint: EndpointRoute, rawBody: string, eventId: string, eventType: string, attempt: number, pooled = true): Promise<Outcome> {
    const failed = (error: string, retryable: boolean): AttemptResult => ({ succeeded: false, responseStatus: null, responseBody: null, durationMs: null, error, retryable });
    const parsed = this.parseTarget(endpoint.url);
    if (!parsed) return failed('refused: the endpoint URL is not valid', false);
    const { url, host, literal } = parsed;
    let target: ResolvedAddress;
    if (literal !== undefined) {
      if (literal !== 'public' && literal !== 'loopback' && !isOwnSinkUrl(url, this.ownOrigins)) {
        return failed(`refused: ${host} is ${describeAddressClass(literal as Exclude<AddressClass, 'public'>)}`, false);
      }
      target = { address: host, family: host.includes(':') ? 6 : 4 };
    } else {
      let answers: ResolvedAddress[];
      try {
        answers = await this.resolver.lookup(host);
      } catch (err) {
        // A resolution failure is a connection error: retried.
        return failed(`connection error: could not resolve ${host} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, true);
      }
      const refusal = checkResolvedAddresses(host, answers);
      if (refusal) return failed(`refused: ${refusal}`, false);
      target = answers[0]!;
    }
    if (this.guard && !this.guard(target.address)) return failed(`blocked by the destination guard (${target.address})`, false);
    if (!this.running) return { aborted: true };

    const headers = deliveryHeaders({ rawBody, secret: endpoint.secret, eventId, eventType, attempt, wallNowMs: this.wallNow(), userAgent: this.userAgent });
    const res = await postWithChaos(this.chaos, this.sender, { url, address: target.address, family: target.family, headers, body: rawBody, timeoutMs: this.ackTimeoutMs, pooled }, { accountId: endpoint.accountId, eventId, eventType, number: attempt });
    if (res.kind === 'aborted') return { aborted: true };
    // What was sent, kept with the attempt (the console's delivery inspector): the URL and headers.
    const request = { url: url.href, headers };
    if (res.kind === 'error') return { ...failed(res.error, true), durationMs: res.durationMs, request };
    const base = { responseStatus: res.status, responseBody: res.body, durationMs: res.durationMs, request };
    if (res.status >= 200 && res.status < 300) return { ...base, succeeded: true, error: null, retryable: false };
    if (res.status >= 300 && res.status < 400) return { ...base, succeeded: false, error: `HTTP ${res.status}: redirects are not followed`, retryable: false };
    const retryable = isRetryableStatus(res.status);
    return {
      ...base,
      succeeded: false,
      error: `HTTP ${res.status}`,
      retryable,
      retryAfterMs: res.status === 429 || res.status === 503 ? parseRetryAfterMs(res.headers['retry-after'], this.wallNow()) : undefined,
    };
  }
}
