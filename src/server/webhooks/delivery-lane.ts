import type { DeliveryAttemptState } from '../storage/webhook-deliveries-repo.js';
import type { EndpointTarget } from '../storage/webhooks-repo.js';

/** A delivery queued on a lane; `done` once it is recorded, or found not to be this process's to attempt. */
export interface Queued {
  deliveryId: string;
  done: () => void;
}

/** A delivery claimed (or, as the sole attempter, read) and due: what its attempt sends, and where. */
export interface Ready {
  queued: Queued;
  state: DeliveryAttemptState;
  endpoint: EndpointTarget | undefined;
}

/**
 * Whether a lane has a claim being written: `writing` from the moment it takes its next waiting
 * deliveries until their claim (or read) has answered; `none` otherwise. One claim at a time per
 * lane, so a lane never claims the same delivery twice nor outruns its window.
 */
export type LaneClaim = 'none' | 'writing';

/**
 * One endpoint's queue: ids waiting (in the order queued), those claimed a window ahead (ready),
 * its claim's state, and how many of its attempts are in flight (at most `window`). What the lane
 * may do next is read from these, never from flags kept elsewhere; each change asserts the state it
 * leaves (a broken assertion is a bug in the worker, not a condition to handle).
 */
export class Lane {
  private waiting: Queued[] = [];
  private head = 0;
  private readonly readyQueue: Ready[] = [];
  private claimState: LaneClaim = 'none';
  private flying = 0;

  constructor(
    readonly endpointId: string,
    readonly window: number,
  ) {}

  get claim(): LaneClaim {
    return this.claimState;
  }
  get inFlight(): number {
    return this.flying;
  }
  get waitingCount(): number {
    return this.waiting.length - this.head;
  }
  get readyCount(): number {
    return this.readyQueue.length;
  }

  /** A delivery joins the back of the lane. */
  push(q: Queued): void {
    this.waiting.push(q);
  }

  /**
   * Whether to claim now: no claim being written, deliveries waiting, and at most half a window
   * ready (claiming whenever one had started made a claim, or a read, per attempt under a backlog).
   */
  get wantsClaim(): boolean {
    return this.claimState === 'none' && this.readyQueue.length * 2 <= this.window && this.head < this.waiting.length;
  }

  /** Nothing waiting, ready, claimed nor in flight: the lane may be forgotten. */
  get finished(): boolean {
    return this.flying === 0 && this.claimState === 'none' && this.readyQueue.length === 0 && this.head >= this.waiting.length;
  }

  /** `none` → `writing`: takes the waiting deliveries the claim covers (the window beyond those ready). */
  beginClaim(): Queued[] {
    if (this.claimState !== 'none') throw new Error(`lane ${this.endpointId}: a claim began while one is ${this.claimState}`);
    this.claimState = 'writing';
    return this.take(this.window - this.readyQueue.length);
  }

  /** `writing` → `none`: the claim answered; what it won is ready, in the order claimed. */
  endClaim(won: readonly Ready[]): void {
    if (this.claimState !== 'writing') throw new Error(`lane ${this.endpointId}: a claim ended while none was being written`);
    this.claimState = 'none';
    for (const r of won) this.readyQueue.push(r);
  }

  /** The next ready attempt, counted in flight, while the window has room; undefined otherwise. */
  startNext(): Ready | undefined {
    if (this.flying >= this.window || this.readyQueue.length === 0) return undefined;
    this.flying++;
    return this.readyQueue.shift();
  }

  /** An attempt's response is in: its place in the window is free. */
  free(): void {
    if (this.flying <= 0) throw new Error(`lane ${this.endpointId}: an attempt was freed with none in flight`);
    this.flying--;
  }

  /** Everything queued that no attempt runs for, taken off the lane (stopping: each is settled, still due). */
  drain(): Queued[] {
    return [...this.take(this.waiting.length - this.head), ...this.readyQueue.splice(0).map((r) => r.queued)];
  }

  /** Takes up to `n` waiting deliveries off the lane; a long-consumed front is dropped now and then. */
  private take(n: number): Queued[] {
    const taken = this.waiting.slice(this.head, this.head + n);
    this.head += taken.length;
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    return taken;
  }
}
