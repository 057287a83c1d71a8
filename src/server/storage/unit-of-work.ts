/**
 * What the domain knows of storage transactions: run writes that belong together atomically, and
 * whether one is open. The domain depends on this, never on SQLite, so another database can be
 * added behind the repositories without touching it.
 */
export interface UnitOfWork {
  /** Runs fn in one transaction; joins the open one when there is one. */
  transaction<T>(fn: () => T): T;
  /**
   * Runs fn in a transaction shared with the other writes queued in this turn of the event loop
   * (group commit, `storage/group-commit.ts`); resolves with its result once that transaction has
   * committed. A throw rolls back fn's own writes only.
   */
  grouped<T>(fn: () => T): Promise<T>;
  readonly active: boolean;
}
