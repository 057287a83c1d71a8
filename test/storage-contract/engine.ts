import { openDatabase } from '../../src/server/storage/sqlite/database.js';
import { SqliteStore } from '../../src/server/storage/sqlite/store.js';
import type { Store } from '../../src/server/storage/store.js';
import { migratePg, openPgPool } from '../../src/server/storage/postgres/database.js';
import { PgStore } from '../../src/server/storage/postgres/store.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres.js';

// The storage contract suite runs against any engine that can hand out a fresh, migrated,
// empty store. SQLite is the first; the PostgreSQL engine adds its own `EngineUnderTest`.

export interface EngineUnderTest {
  name: string;
  /**
   * Whether two writes' functions can run at the same time (PostgreSQL) or only one after the other
   * (SQLite's one connection). A race test holds its first writer until the second has read only
   * where that can happen; elsewhere the second would wait for the first, forever.
   */
  concurrentWrites: boolean;
  /** A new, empty, migrated store; `close` releases it (and whatever backs it). */
  open(): Promise<{ store: Store; close(): Promise<void> }>;
}

export const sqliteEngine: EngineUnderTest = {
  name: 'sqlite',
  concurrentWrites: false,
  async open() {
    // guardOutsideCalls: a contract test that reads or writes from inside a transaction fails loudly.
    const store = new SqliteStore(openDatabase(':memory:'), { guardOutsideCalls: true });
    return { store, close: () => store.close() };
  },
};

/**
 * One throwaway server per test file (its process) with one migrated database; each store opened
 * finds it empty: every row deleted and every identity restarted (a fresh database per test cost
 * ~0.3 s to create and drop, and TRUNCATE of every table ~0.2 s; deleting the few rows a test wrote
 * takes milliseconds).
 */
let server: Promise<{ server: PostgresServer; database: string }> | undefined;
let emptyEveryTable = '';

async function startServerWithDatabase(): Promise<{ server: PostgresServer; database: string }> {
  const started = await startPostgres();
  const database = await started.createDatabase();
  const pool = openPgPool(started.url(database), { max: 1 });
  try {
    await migratePg(pool);
    const { rows } = await pool.query<{ name: string }>(
      `SELECT quote_ident(t.table_name) AS name FROM information_schema.tables t
        WHERE t.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND t.table_name <> 'schema_migrations'`,
    );
    // Every sequence: the identity columns' and the events feed's positions (events_pos).
    const sequences = await pool.query<{ name: string }>('SELECT quote_ident(sequencename) AS name FROM pg_sequences WHERE schemaname = current_schema()');
    // Foreign keys are not checked while emptying (session_replication_role = replica): any order will do.
    emptyEveryTable = [
      'SET session_replication_role = replica',
      ...rows.map((r) => `DELETE FROM ${r.name}`),
      ...sequences.rows.map((r) => `ALTER SEQUENCE ${r.name} RESTART`),
      'SET session_replication_role = DEFAULT',
    ].join(';\n');
  } finally {
    await pool.end();
  }
  return { server: started, database };
}

export const postgresEngine: EngineUnderTest = {
  name: 'postgres',
  concurrentWrites: true,
  async open() {
    const { server: pgServer, database } = await (server ??= startServerWithDatabase());
    const pool = openPgPool(pgServer.url(database), { max: 8 });
    await pool.query(emptyEveryTable);
    const store = new PgStore(pool, { guardOutsideCalls: true });
    return { store, close: () => store.close() };
  },
};

/** Drops the test file's database and stops the server `postgresEngine` started (the file's afterAll). */
export async function stopPostgresEngine(): Promise<void> {
  const running = server;
  server = undefined;
  if (!running) return;
  const { server: pgServer, database } = await running;
  await pgServer.dropDatabase(database);
  await pgServer.stop();
}
