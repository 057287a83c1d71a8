import type { DomainDeps, ReadDeps, TxDeps, UnitOfWork } from '../deps.js';
import type { Repositories, Store, Transaction } from '../storage/store.js';

/**
 * The domain's unit of work over a store (issue 25): `write` and `read` hand the domain its deps
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
  const enterWrite = (t: Transaction): TxDeps => {
    const d = deps();
    // Events and jobs are written in the transaction: the store and the scheduler bound to it.
    const tx: TxDeps = { ...d, ...t, uow: nested(t), scheduler: d.scheduler.in(t) };
    tx.events = d.events.in(tx);
    return tx;
  };
  const nested = (t: Transaction): UnitOfWork => ({
    write: (fn) => t.savepoint((inner) => fn(enterWrite(inner))),
    read: (fn) => fn(enterWrite(t)),
  });
  return {
    write: (fn) => store.write((t) => fn(enterWrite(t))),
    read: (fn) => store.read((r: Repositories) => fn({ ...deps(), ...r } as ReadDeps)),
  };
}
