/** Entries held at most; past it the cache starts again (a bound, not an eviction policy). */
const MAX_ENTRIES = 10_000;

/**
 * Rows every request reads and few change (the request's key and its account: 3.6 % and
 * 2.0 % of a send's CPU; a number by phone, read by every send and inbound message), held between
 * transactions. Correct on this engine's one connection: a
 * write to the table empties the cache at once, and so does the end (commit or rollback) of a
 * transaction that wrote to it, since what a write read back inside its transaction may be rolled
 * back. Reads outside a write wait for its commit (SqliteStore), so nothing stale can be read in
 * between. A revoked key or a suspended account is therefore refused on the very next request.
 * Values are copied out: a caller may change the record it got.
 */
export class ReadCache<V extends object> {
  private readonly entries = new Map<string, V>();
  private wrote = false;

  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const held = this.entries.get(key);
    if (held) return { ...held };
    const value = await load();
    if (value === undefined) return undefined;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { ...value });
    return value;
  }

  /** A write to the table: forget everything now, and again when the transaction ends. */
  changed(): void {
    this.entries.clear();
    this.wrote = true;
  }

  /** The transaction ended (SqliteStore calls it after every batch). */
  settle(): void {
    if (this.wrote) this.entries.clear();
    this.wrote = false;
  }
}
