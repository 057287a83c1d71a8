import type { TxDeps, UnitOfWork } from '../domain/deps.js';
import type { DeliveryAttemptState } from '../storage/webhook-deliveries-repo.js';
import type { EndpointTarget } from '../storage/webhooks-repo.js';
import type { JobClaims } from '../scheduler.js';

/**
 * The worker's claims, renewals and records: each statement guards itself (a claim takes only rows
 * it could lock and finds unclaimed, `FOR UPDATE SKIP LOCKED`; a renewal only its own live claims; a
 * record only the attempt that follows the one recorded; an endpoint's streak as `n = n + 1`), so
 * PostgreSQL runs them at READ COMMITTED (store.ts, WriteOptions). What that leaves: two replicas
 * recording the same attempt (a claim taken over from a live holder) may both count it in the
 * endpoint's streak, and may both schedule the tick that retries it (a tick finds what is due; two
 * find it once between them, by their claims).
 */
export const ROW_GUARDED = { rowGuarded: true } as const;

/** Deliveries queued per sweep for work another process left (the sweep). */
const TAKE_OVER_BATCH = 1000;

/** What an attempt needs once its delivery is this process's to attempt: its state, the bytes, where. */
export interface Claimed {
  state: DeliveryAttemptState;
  endpoint: EndpointTarget | undefined;
}

/** What a lane's claim won: the states of the deliveries to attempt now, and their endpoint. */
export interface ClaimedBatch {
  states: DeliveryAttemptState[];
  endpoint: EndpointTarget | undefined;
}

export interface ClaimLog {
  error(obj: object, msg: string): void;
}

/**
 * How a delivery becomes this process's to attempt. Two forms, chosen once at construction:
 * `SoleAttempter` (the only process that attempts on its database: reads the states, writes no
 * claim) and `LeasedClaims` (replicas: a claim with a lease, renewed while held, released at stop,
 * and a sweep for what a dead process left). A delivery is `held` from its claim until it leaves
 * the process (`forget`); a write that fails throws, and the caller queues the deliveries again.
 */
export interface AttemptClaims {
  /** A lane's next deliveries, claimed in one write (read, for the sole attempter): only those due at `now` are won. */
  claimBatch(endpointId: string, ids: string[], now: number): Promise<ClaimedBatch>;
  /** A probe's delivery (the user asked for it now: due or not); undefined when not to be attempted. */
  claimOne(deliveryId: string, now: number): Promise<Claimed | undefined>;
  /** The delivery's claim is held until `forget` (renewed meanwhile). */
  hold(deliveryId: string): void;
  forget(deliveryId: string): void;
  /** Starts the lease's timers: renewals, and the sweep that hands `left` what a dead process left. */
  start(left: (deliveryId: string, endpointId: string) => void): void;
  /** Stops the timers (no renewal, no sweep from now on). */
  stopTimers(): void;
  /** Every claim this process holds given back (its attempts were cut off: they stay due). */
  releaseAll(): Promise<void>;
}

type Uow = Pick<UnitOfWork, 'read' | 'write'>;
type DeliveryTx = Pick<TxDeps, 'webhookDeliveries' | 'webhookEndpoints'>;

/** The state of `deliveryId` and its endpoint, when it still has an attempt to make. */
async function readOne(tx: DeliveryTx, deliveryId: string): Promise<Claimed | undefined> {
  const state = await tx.webhookDeliveries.attemptState(deliveryId);
  return state && state.nextAttemptAt !== null ? { state, endpoint: await tx.webhookEndpoints.targetById(state.endpointId) } : undefined;
}

/**
 * The only process that makes attempts on its database (SQLite: the data directory's lock admits
 * one worker): an attempt reads its delivery's state instead of writing a claim. Exactly once still
 * holds: within the process a delivery is attempted by one lane at a time, and its outcome is
 * recorded before it leaves the process's hands, so a later look reads it recorded.
 */
export class SoleAttempter implements AttemptClaims {
  constructor(private readonly uow: Uow) {}

  async claimBatch(endpointId: string, ids: string[], now: number): Promise<ClaimedBatch> {
    return await this.uow.read(async (tx) => {
      const states = (await tx.webhookDeliveries.attemptStates(ids)).filter((x) => x.nextAttemptAt !== null && x.nextAttemptAt <= now);
      return { states, endpoint: states.length > 0 ? await tx.webhookEndpoints.targetById(endpointId) : undefined };
    });
  }

  async claimOne(deliveryId: string): Promise<Claimed | undefined> {
    return await this.uow.read((tx) => readOne(tx, deliveryId));
  }

  hold(): void {}
  forget(): void {}
  start(): void {}
  stopTimers(): void {}
  async releaseAll(): Promise<void> {}
}

/**
 * Claims with a lease, for processes sharing a database: a claim names this process and runs out
 * after `leaseMs` unless renewed. Held claims are renewed three times a lease; the ones found lost
 * (run out, taken over) are forgotten.
 */
export class LeasedClaims implements AttemptClaims {
  /** The deliveries whose attempt this process has claimed and not yet recorded. */
  private readonly held = new Set<string>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private renewTimer: NodeJS.Timeout | undefined;
  private left: ((deliveryId: string, endpointId: string) => void) | undefined;

  constructor(
    private readonly uow: Uow,
    private readonly claims: JobClaims,
    private readonly nowMs: () => number,
    private readonly log: ClaimLog,
  ) {}

  /** How many claims are held now. */
  get heldCount(): number {
    return this.held.size;
  }

  async claimBatch(endpointId: string, ids: string[], now: number): Promise<ClaimedBatch> {
    return await this.uow.write(async (tx) => {
      const won = await tx.webhookDeliveries.claimAttempts(ids, this.claims.owner, this.claims.leaseMs, now);
      const states = await tx.webhookDeliveries.attemptStates(won);
      return { states, endpoint: states.length > 0 ? await tx.webhookEndpoints.targetById(endpointId) : undefined };
    }, ROW_GUARDED);
  }

  async claimOne(deliveryId: string, now: number): Promise<Claimed | undefined> {
    const claimed = await this.uow.write(async (tx) => ((await tx.webhookDeliveries.claimAttempt(deliveryId, this.claims.owner, this.claims.leaseMs, now, true)) ? await readOne(tx, deliveryId) : undefined), ROW_GUARDED);
    if (claimed) this.held.add(deliveryId);
    return claimed;
  }

  hold(deliveryId: string): void {
    this.held.add(deliveryId);
  }

  forget(deliveryId: string): void {
    this.held.delete(deliveryId);
  }

  /**
   * Attempts a process claimed and never recorded (it died) are taken over once their lease has run
   * out (another process's lease may be shorter than this one's: every 5 s at most), and deliveries
   * it wrote and never claimed once they have been due for a lease; looked for twice a lease, on the
   * wall clock (a dead process's lease runs out in real time, whatever the service clock does).
   * A claim is renewed while its delivery waits in a lane or its attempt runs (a slow name lookup, a
   * batch waiting for the write lock, a long queue behind a slow receiver), three times a lease:
   * another process takes it over only once this one has stalled for two thirds of a lease, as a
   * dead one would.
   */
  start(left: (deliveryId: string, endpointId: string) => void): void {
    this.left = left;
    this.sweepTimer = setInterval(() => void this.sweep(), Math.max(50, Math.min(this.claims.leaseMs / 2, 5000)));
    this.sweepTimer.unref();
    this.renewTimer = setInterval(() => void this.renew(), Math.max(20, this.claims.leaseMs / 3));
    this.renewTimer.unref();
  }

  stopTimers(): void {
    clearInterval(this.sweepTimer);
    clearInterval(this.renewTimer);
    this.left = undefined;
  }

  async releaseAll(): Promise<void> {
    await this.uow.write((tx) => tx.webhookDeliveries.releaseClaims(this.claims.owner), ROW_GUARDED);
    this.held.clear();
  }

  /** Renews the claims held; one lost (run out, taken over) is forgotten. */
  async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const ids = [...this.held.keys()];
    try {
      const renewed = new Set(await this.uow.write((tx) => tx.webhookDeliveries.renewClaims(this.claims.owner, ids, this.claims.leaseMs), ROW_GUARDED));
      for (const id of ids) if (!renewed.has(id)) this.held.delete(id);
    } catch (err) {
      this.log.error({ err }, 'renewing the claims on webhook attempts failed');
    }
  }

  /**
   * Hands on the deliveries another process left: those whose claim ran out with their attempt
   * unrecorded, and those due for a whole lease that nobody claimed (their writer died after the
   * commit, before its worker reached them: bench/replicas lost 2 to 4 of 76 this way when a replica
   * was killed). A live process that holds one in a long lane loses nothing to this: the claim at the
   * attempt decides who makes it (one attempt, never two).
   */
  async sweep(): Promise<void> {
    const left = this.left;
    if (!left) return;
    try {
      const dueBy = this.nowMs() - this.claims.leaseMs;
      const [expired, orphaned] = await this.uow.read(async (tx) => [await tx.webhookDeliveries.leaseExpired(TAKE_OVER_BATCH), await tx.webhookDeliveries.unclaimedDue(dueBy, TAKE_OVER_BATCH)]);
      for (const x of [...expired, ...orphaned]) left(x.id, x.endpointId);
    } catch (err) {
      this.log.error({ err }, 'looking for webhook attempts another process left failed');
    }
  }
}
