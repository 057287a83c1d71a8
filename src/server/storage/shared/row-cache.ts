/**
 * Rows read by every request and held between transactions where that is correct: SQLite's one
 * connection (sqlite/read-cache.ts `ReadCache` says why, and the store empties it). An engine whose
 * other processes write the same rows reads through `uncached`.
 */
export interface RowCache<V> {
  get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined>;
  /** A write to the table. */
  changed(): void;
}

/** Every read goes to the database. */
export function uncached<V>(): RowCache<V> {
  return { get: async (_key, load) => await load(), changed: () => undefined };
}
