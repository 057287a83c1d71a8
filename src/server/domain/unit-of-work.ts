import type { DomainDeps, ReadDeps, TxDeps, UnitOfWork } from './deps.js';
import type { Repositories, Store, Transaction } from '../storage/store.js';
import { MAX_OUTSIDE_ACTS, OutsideFirst } from './outside-first.js';

/**
 * The domain's unit of work over a store: `write` and `read` hand the domain its deps
 * with the transaction's repositories beside them, so a domain function typed with a repository
 * can only be called inside a transaction. Inside a write, `tx.uow` nests: `write` is a savepoint of
 * the open transaction and `read` reads within it (a top-level write from inside one would wait for
 * its own commit).
 *
 * Inside a write, `tx.events` and `tx.scheduler` write into the transaction (an event and a job
 * commit with the change that caused them).
 *
 * `deps` is a thunk: the domain's deps hold this unit of work, and are complete before any
 * transaction runs.
 */
export function domainUnitOfWork(store: Store, deps: () => DomainDeps): UnitOfWork {
  type Later = Map<string, (deps: DomainDeps) => Promise<unknown>>;
  // The deps and an engine's repositories joined once, for every transaction to inherit from: a copy
  // of both per write and savepoint was 6 % of a send's CPU (and its garbage). An engine whose
  // transactions hold their repositories as own properties is copied instead.
  const joined = new WeakMap<object, object>();
  const joinedWith = (repos: object): object => {
    let base = joined.get(repos);
    if (!base) joined.set(repos, (base = { ...deps(), ...repos }));
    return base;
  };
  const enterWrite = (t: Transaction, prior: ReadonlyMap<string, unknown>, later: Later): TxDeps => {
    const d = deps();
    const thenOutside = (key: string, act: (deps: DomainDeps) => Promise<unknown>) => {
      if (!later.has(key)) later.set(key, act);
    };
    const proto = Object.getPrototypeOf(t) as object;
    const tx = (proto === Object.prototype ? { ...d, ...t } : Object.create(joinedWith(proto))) as TxDeps;
    tx.afterCommit = t.afterCommit;
    tx.savepoint = t.savepoint;
    tx.prior = prior;
    tx.thenOutside = thenOutside;
    tx.uow = nested(t, prior, later);
    // Events and jobs are written in the transaction: the store and the scheduler bound to it.
    tx.scheduler = d.scheduler.in(t);
    tx.events = d.events.in(tx);
    return tx;
  };
  const nested = (t: Transaction, prior: ReadonlyMap<string, unknown>, later: Later): UnitOfWork => ({
    async write(fn) {
      // The acts a savepoint calls for count only if it is kept.
      const own: Later = new Map();
      const result = await t.savepoint((inner) => fn(enterWrite(inner, prior, own)));
      for (const [key, then] of own) if (!later.has(key)) later.set(key, then);
      return result;
    },
    read: (fn) => fn(enterWrite(t, prior, later)),
  });
  // Outside acts under way, by key: concurrent writes asking for the same one share it.
  const acts = new Map<string, Promise<unknown>>();
  const act = (ask: OutsideFirst): Promise<unknown> => {
    let running = acts.get(ask.key);
    if (!running) {
      running = ask.act(deps()).finally(() => acts.delete(ask.key));
      acts.set(ask.key, running);
    }
    return running;
  };
  return {
    async write(fn, opts) {
      const prior = new Map<string, unknown>();
      for (let attempt = 0; ; attempt++) {
        const later: Later = new Map();
        try {
          const result = await store.write((t) => {
            // An engine may run this function again after rolling it back (PostgreSQL, on a
            // serialization failure): only the acts of the pass that commits count.
            later.clear();
            return fn(enterWrite(t, prior, later));
          }, opts);
          // Committed: the outside acts it called for, one at a time, none inside a transaction.
          for (const [key, then] of later) await act(new OutsideFirst(key, then));
          return result;
        } catch (err) {
          if (!(err instanceof OutsideFirst) || attempt >= MAX_OUTSIDE_ACTS || prior.has(err.key)) throw err;
          prior.set(err.key, await act(err));
        }
      }
    },
    read: (fn, opts) => store.read((r: Repositories) => fn(joinedWith(r) as ReadDeps), opts),
  };
}
