import type { Db } from './database.js';
import type { HeldReads } from '../shared/statements.js';

/** Entries held at most; past it the holder starts again (a bound, not an eviction policy). */
const MAX_ENTRIES = 10_000;

/**
 * The SQLite engine's held reads (Dialect.heldReads): kept between transactions, true to the
 * database on its one connection. A write forgets everything at once, and until the transaction that
 * wrote has ended (it may roll back) nothing read is kept: the end is seen on the connection itself,
 * so this holds with or without the store around it. The store also settles it after every batch and
 * forgets it when another process wrote the file (store.ts).
 */
export class SqliteHeldReads implements HeldReads {
  private readonly entries = new Map<string, unknown>();
  private unsettled = false;

  constructor(private readonly db: Db) {}

  async get<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (this.entries.has(key)) return this.entries.get(key) as T;
    const value = await read();
    if (value !== undefined && !this.unsettled) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }

  changed(): void {
    this.entries.clear();
    if (this.unsettled) return;
    this.unsettled = true;
    const settle = () => {
      if (this.db.inTransaction) {
        setImmediate(settle);
        return;
      }
      this.settle();
    };
    setImmediate(settle);
  }

  /** The writing transaction has ended (committed or rolled back): what a read finds now is the database's. */
  settle(): void {
    if (!this.unsettled) return;
    this.entries.clear();
    this.unsettled = false;
  }
}
