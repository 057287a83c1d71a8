import Database from 'better-sqlite3';
import { migrate, openDatabase } from '../../src/server/storage/sqlite/database.js';
import { sqliteMigrations } from '../../src/server/storage/sqlite/migrations.js';
import { pgMigrations } from '../../src/server/storage/postgres/migrations.js';
import { SCHEMA_CHANGES, type SchemaChange } from '../../src/server/storage/shared/schema-changes.js';
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
  /** A new database of its own, migrated to this build's schema (the schema contract's subject). */
  database(): Promise<SchemaUnderTest>;
}

/** A database as the schema contract sees it: what `migrate` recorded and built, and a store over it. */
export interface SchemaUnderTest {
  /** Runs this engine's migrations with `changes` after the changes written once this build ships. */
  migrate(changes: readonly SchemaChange[]): Promise<void>;
  versions(): Promise<number[]>;
  /** A table's columns, in their order. */
  columns(table: string): Promise<string[]>;
  /** A store on this database (closed with it). */
  store(): Store;
  close(): Promise<void>;
}

export const sqliteEngine: EngineUnderTest = {
  name: 'sqlite',
  concurrentWrites: false,
  async open() {
    // guardOutsideCalls: a contract test that reads or writes from inside a transaction fails loudly.
    const store = new SqliteStore(openDatabase(':memory:'), { guardOutsideCalls: true });
    return { store, close: () => store.close() };
  },
  async database() {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, sqliteMigrations());
    let store: SqliteStore | undefined;
    return {
      migrate: async (changes) => migrate(db, sqliteMigrations([...SCHEMA_CHANGES, ...changes])),
      versions: async () => db.prepare('SELECT version FROM schema_migrations ORDER BY version').all().map((r) => (r as { version: number }).version),
      columns: async (table) => db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').all(table).map((r) => (r as { name: string }).name),
      store: () => (store ??= new SqliteStore(db)),
      close: async () => {
        if (store) await store.close();
        else db.close();
      },
    };
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
  async database() {
    const { server: pgServer } = await (server ??= startServerWithDatabase());
    const name = await pgServer.createDatabase();
    const pool = openPgPool(pgServer.url(name), { max: 4 });
    await migratePg(pool, pgMigrations());
    let store: PgStore | undefined;
    return {
      migrate: (changes) => migratePg(pool, pgMigrations([...SCHEMA_CHANGES, ...changes])),
      versions: async () => (await pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).rows.map((r) => r.version),
      columns: async (table) =>
        (await pool.query<{ name: string }>('SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position', [table])).rows.map((r) => r.name),
      store: () => (store ??= new PgStore(pool)),
      close: async () => {
        await (store ? store.close() : pool.end());
        await pgServer.dropDatabase(name);
      },
    };
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
