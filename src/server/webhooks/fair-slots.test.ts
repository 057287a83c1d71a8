import { describe, expect, it } from 'vitest';
import { FairSlots, RESERVE_PER_ACCOUNT, reservedSlots } from './fair-slots.js';

/** Takes `n` slots for `account`, recording the order in which they are granted. */
function ask(pool: FairSlots, account: string, n: number, granted: string[]): void {
  for (let i = 0; i < n; i++) {
    const wait = pool.acquire(account);
    if (wait) void wait.then(() => granted.push(account));
    else granted.push(account);
  }
}

const settle = () => new Promise((r) => setImmediate(r));

describe('FairSlots', () => {
  it('an account alone takes every slot but the reserve; the rest wait', async () => {
    const pool = new FairSlots(16);
    expect(pool.reserve).toBe(reservedSlots(16));
    const granted: string[] = [];
    ask(pool, 'slow', 40, granted);
    await settle();
    expect(granted).toHaveLength(16 - pool.reserve);
    expect(pool.inUse).toBe(16 - pool.reserve);
  });

  it('an account arriving while another holds the rest gets its first slots at once from the reserve', async () => {
    const pool = new FairSlots(256);
    const granted: string[] = [];
    ask(pool, 'slow', 1000, granted);
    ask(pool, 'fast', 10, granted);
    await settle();
    expect(granted.filter((a) => a === 'fast')).toHaveLength(RESERVE_PER_ACCOUNT);
    // Its own slots freed go back to it: a fast receiver keeps its flow while the slow ones hang.
    for (let i = 0; i < 6; i++) pool.release('fast');
    await settle();
    expect(granted.filter((a) => a === 'fast')).toHaveLength(10);
    expect(pool.heldBy('slow')).toBe(256 - pool.reserve);
  });

  it('the reserve serves several newcomers at once, RESERVE_PER_ACCOUNT each', async () => {
    const pool = new FairSlots(256);
    const granted: string[] = [];
    ask(pool, 'slow', 1000, granted);
    const newcomers = pool.reserve / RESERVE_PER_ACCOUNT;
    for (let i = 0; i < newcomers; i++) ask(pool, `new${i}`, 100, granted);
    await settle();
    for (let i = 0; i < newcomers; i++) expect(pool.heldBy(`new${i}`)).toBe(RESERVE_PER_ACCOUNT);
    expect(pool.inUse).toBe(256);
  });

  it('freed slots refill the reserve first, then go in turns to whoever holds the fewest', async () => {
    const pool = new FairSlots(16); // reserve 2
    const granted: string[] = [];
    ask(pool, 'a', 100, granted); // holds 14
    ask(pool, 'b', 100, granted); // takes the 2 reserved
    await settle();
    expect([pool.heldBy('a'), pool.heldBy('b')]).toEqual([14, 2]);
    // a's slots free one by one: b takes two more from the reserve (up to RESERVE_PER_ACCOUNT), the
    // next two refill the reserve, then b's turns come (it holds fewer) until the two hold alike.
    const steps: Array<[number, number]> = [];
    for (let i = 0; i < 8; i++) {
      pool.release('a');
      await settle();
      steps.push([pool.heldBy('a'), pool.heldBy('b')]);
    }
    expect(steps).toEqual([[13, 3], [12, 4], [11, 4], [10, 4], [9, 5], [8, 6], [7, 7], [7, 7]]);
    expect(pool.inUse).toBe(14);
    for (let i = 0; i < 4; i++) {
      pool.release('b');
      pool.release('a');
      await settle();
    }
    expect(Math.abs(pool.heldBy('a') - pool.heldBy('b'))).toBeLessThanOrEqual(1);
  });

  it('an account’s waiters are served in the order they asked', async () => {
    const pool = new FairSlots(1);
    const order: number[] = [];
    expect(pool.acquire('a')).toBeUndefined();
    const waits = [1, 2, 3].map((n) => pool.acquire('a')!.then(() => order.push(n)));
    for (let i = 0; i < 3; i++) {
      pool.release('a');
      await settle();
    }
    await Promise.all(waits);
    expect(order).toEqual([1, 2, 3]);
  });

  it('a small pool keeps no reserve: one account uses every slot', async () => {
    const pool = new FairSlots(4);
    const granted: string[] = [];
    ask(pool, 'a', 6, granted);
    await settle();
    expect(pool.reserve).toBe(0);
    expect(granted).toHaveLength(4);
  });

  it('with: the slot is given back when the work ends or throws', async () => {
    const pool = new FairSlots(2);
    await pool.with('a', async () => expect(pool.heldBy('a')).toBe(1));
    await expect(pool.with('a', () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(pool.inUse).toBe(0);
  });
});
