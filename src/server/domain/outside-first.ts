import type { DomainDeps, TxDeps } from './deps.js';

/**
 * Nothing outside the process is called while a transaction is open. A write that finds it
 * needs the outside world first (a card charged: a top-up, an auto-recharge, a subscription) asks
 * for it with `outsideFirst`: the first time, that throws `OutsideFirst`; the unit of work rolls the
 * write back, does the act with no transaction open (concurrent writes asking for the same act
 * share one: `key`), and runs the write again, which now finds the act's outcome and goes on.
 * An act should write what it did itself (in a transaction of its own): a write that then refuses
 * for another reason must not lose it.
 */
export class OutsideFirst extends Error {
  override name = 'OutsideFirst';
  constructor(
    readonly key: string,
    readonly act: (deps: DomainDeps) => Promise<unknown>,
  ) {
    super(`the write needs ${key} done first, with no transaction open`);
  }
}

/** The outcome of the outside act `key`, done before this write ran; the first time, asks for it (throws). */
export function outsideFirst<T>(tx: Pick<TxDeps, 'prior'>, key: string, act: (deps: DomainDeps) => Promise<T>): T {
  if (tx.prior.has(key)) return tx.prior.get(key) as T;
  throw new OutsideFirst(key, act);
}

/** A write is run again at most this many times for the outside acts it asks for. */
export const MAX_OUTSIDE_ACTS = 4;
