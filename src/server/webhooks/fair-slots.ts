/**
 * The webhook worker's pool of attempt slots, shared in fair turns across accounts (the tenant that
 * owns the endpoint), so that one account's slow receivers never hold up another's deliveries.
 *
 * An attempt holds its slot until its receiver answers or the ack timeout (10 s) runs out, and a
 * slot in use cannot be taken back. So fairness at hand-over alone is not enough: an account with
 * many hanging endpoints (50 per account, an agency's sub-accounts each as many) would fill every
 * slot, and any other account would wait a whole ack timeout for the first to free. Two rules:
 *
 * - A reserve: the last `reserve` free slots (RESERVE_DIVISOR: an eighth of the pool) go only to an
 *   account holding fewer than RESERVE_PER_ACCOUNT slots. An account that arrives while others hold
 *   the rest gets its first slots at once; as slots free they refill the reserve before anyone
 *   borrows beyond it. The price: an account alone uses the pool less its reserve (224 of 256).
 * - Turns: a freed slot goes to the waiting account that holds the fewest (ties in turn), so
 *   accounts with backlogs converge on equal shares. Within an account, attempts start in the order
 *   they asked (a lane's deliveries start in the order they were queued).
 *
 * The bound: however long one account's receivers take, accounts arriving beside it get their first
 * RESERVE_PER_ACCOUNT slots at once, at least reserve / RESERVE_PER_ACCOUNT of them (8 with 256
 * slots). Beyond that, or with many accounts' receivers hanging at once, an account waits for slots
 * to free, and gets them before anyone holding more.
 */

/** An eighth of the slots are kept for accounts that hold few (see above); none in a pool under 8. */
export const RESERVE_DIVISOR = 8;
/** Slots an account may take from the reserve: enough for a fast receiver's steady flow. */
export const RESERVE_PER_ACCOUNT = 4;

export function reservedSlots(total: number): number {
  return Math.floor(total / RESERVE_DIVISOR);
}

export class FairSlots {
  private used = 0;
  private readonly held = new Map<string, number>();
  /** Accounts waiting, each with its waiters in order; Map order is the order of turns among ties. */
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(
    readonly total: number,
    readonly reserve = reservedSlots(total),
  ) {}

  /** Slots in use. */
  get inUse(): number {
    return this.used;
  }

  /** Slots `account` holds. */
  heldBy(account: string): number {
    return this.held.get(account) ?? 0;
  }

  /**
   * Takes a slot for `account`: undefined when taken at once, else a promise resolved when one is
   * handed over. Every slot taken is given back with `release(account)`.
   */
  acquire(account: string): Promise<void> | undefined {
    const queue = this.waiting.get(account);
    if (!queue && this.mayTake(account)) {
      this.take(account);
      return undefined;
    }
    return new Promise<void>((resolve) => {
      if (queue) queue.push(resolve);
      else this.waiting.set(account, [resolve]);
    });
  }

  release(account: string): void {
    const n = this.heldBy(account) - 1;
    if (n > 0) this.held.set(account, n);
    else this.held.delete(account);
    this.used--;
    this.handOver();
  }

  /** Runs `fn` holding a slot of `account`'s. */
  async with<T>(account: string, fn: () => Promise<T>): Promise<T> {
    const wait = this.acquire(account);
    if (wait) await wait;
    try {
      return await fn();
    } finally {
      this.release(account);
    }
  }

  private mayTake(account: string): boolean {
    const free = this.total - this.used;
    return free > this.reserve || (free > 0 && this.heldBy(account) < RESERVE_PER_ACCOUNT);
  }

  private take(account: string): void {
    this.held.set(account, this.heldBy(account) + 1);
    this.used++;
  }

  /**
   * Hands free slots to waiting accounts, the one holding the fewest first. If that one may not take
   * one, no other may (the reserve rule favours whoever holds fewer).
   */
  private handOver(): void {
    while (this.used < this.total && this.waiting.size > 0) {
      let next: string | undefined;
      for (const account of this.waiting.keys()) if (next === undefined || this.heldBy(account) < this.heldBy(next)) next = account;
      if (!this.mayTake(next!)) return;
      const queue = this.waiting.get(next!)!;
      const resolve = queue.shift()!;
      // Its turn taken: behind the other waiting accounts among ties.
      this.waiting.delete(next!);
      if (queue.length > 0) this.waiting.set(next!, queue);
      this.take(next!);
      resolve();
    }
  }
}
