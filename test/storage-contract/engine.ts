import { openDatabase } from '../../src/server/storage/sqlite/database.js';
import { SqliteStore } from '../../src/server/storage/sqlite/store.js';
import type { Store } from '../../src/server/storage/store.js';

// Issue 25: the storage contract suite runs against any engine that can hand out a fresh, migrated,
// empty store. SQLite is the first; the PostgreSQL engine (issue 26) adds its own `EngineUnderTest`.

export interface EngineUnderTest {
  name: string;
  /** A new, empty, migrated store; `close` releases it (and whatever backs it). */
  open(): Promise<{ store: Store; close(): Promise<void> }>;
}

export const sqliteEngine: EngineUnderTest = {
  name: 'sqlite',
  async open() {
    // guardOutsideCalls: a contract test that reads or writes from inside a transaction fails loudly.
    const store = new SqliteStore(openDatabase(':memory:'), { guardOutsideCalls: true });
    return { store, close: () => store.close() };
  },
};
