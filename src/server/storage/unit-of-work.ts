/**
 * What the domain knows of storage transactions: run writes that belong together atomically, and
 * whether one is open. The domain depends on this, never on SQLite, so another database can be
 * added behind the repositories without touching it.
 */
export interface UnitOfWork {
  /** Runs fn in one transaction; joins the open one when there is one. */
  transaction<T>(fn: () => T): T;
  readonly active: boolean;
}
