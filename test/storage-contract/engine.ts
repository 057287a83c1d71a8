import Database from 'better-sqlite3';
import pg from 'pg';
import { readFileSync } from 'node:fs';
import { migrate, openDatabase } from '../../src/server/storage/sqlite/database.js';
import { normalizeSql } from '../../src/server/storage/sqlite/snapshot-schema.js';
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
  /**
   * A new database of its own (the schema contract's subject): migrated to this build's schema, or,
   * given one of `dumps`, made from that dump as an earlier build left it (not migrated).
   */
  database(dump?: string): Promise<SchemaUnderTest>;
  /** Databases earlier builds made, with the rows their service wrote: test/fixtures/databases/<name>.sql. */
  dumps: string[];
}

/** A database as the schema contract sees it: what `migrate` recorded and built, and a store over it. */
export interface SchemaUnderTest {
  /** Runs this engine's migrations with `changes` after the changes written once this build ships. */
  migrate(changes?: readonly SchemaChange[]): Promise<void>;
  versions(): Promise<number[]>;
  /** A table's columns, in their order. */
  columns(table: string): Promise<string[]>;
  /** Its tables, by name. */
  tables(): Promise<string[]>;
  /** Every row of a table, ordered by all its columns. */
  rows(table: string): Promise<Array<Record<string, unknown>>>;
  /** Its schema as lines to compare with another database's: every table, column, constraint, index and function. */
  schema(): Promise<string[]>;
  /** Runs SQL on it (a test's own change to what it records). */
  run(sql: string): Promise<void>;
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
  dumps: ['sqlite-20', 'sqlite-22'],
  async database(dump) {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    if (dump) db.exec(readDump(dump));
    else migrate(db);
    let store: SqliteStore | undefined;
    const all = <R>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as R[];
    const columns = async (table: string) => all<{ name: string }>('SELECT name FROM pragma_table_info(?) ORDER BY cid', table).map((r) => r.name);
    return {
      migrate: async (changes = []) => migrate(db, [...SCHEMA_CHANGES, ...changes]),
      versions: async () => all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version').map((r) => r.version),
      columns,
      tables: async () => all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").map((r) => r.name),
      rows: async (table) => all(`SELECT * FROM ${table} ORDER BY ${(await columns(table)).map((_, i) => i + 1).join(', ')}`),
      schema: async () =>
        all<{ type: string; name: string; sql: string | null }>('SELECT type, name, sql FROM sqlite_master')
          .map((o) => `${o.type} ${o.name}: ${o.sql === null ? '(automatic)' : normalizeSql(o.sql)}`)
          .sort(),
      run: async (sql) => void db.exec(sql),
      store: () => (store ??= new SqliteStore(db)),
      close: async () => {
        if (store) await store.close();
        else db.close();
      },
    };
  },
};

/** A dump of a database an earlier build made (its header says how it was made). */
const readDump = (name: string): string => readFileSync(new URL(`../fixtures/databases/${name}.sql`, import.meta.url), 'utf8');

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
  dumps: ['postgres-5', 'postgres-7'],
  async database(dump) {
    const { server: pgServer } = await (server ??= startServerWithDatabase());
    const name = await pgServer.createDatabase();
    if (dump) {
      // One connection of its own: the dump sets its session's search_path.
      const loader = new pg.Client({ connectionString: pgServer.url(name) });
      await loader.connect();
      await loader.query(readDump(dump)).finally(() => loader.end());
    }
    const pool = openPgPool(pgServer.url(name), { max: 4 });
    if (!dump) await migratePg(pool);
    let store: PgStore | undefined;
    const all = async <R extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await pool.query<R>(sql, params)).rows;
    const columns = async (table: string) =>
      (await all<{ name: string }>('SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position', [table])).map((r) => r.name);
    return {
      migrate: (changes = []) => migratePg(pool, [...SCHEMA_CHANGES, ...changes]),
      versions: async () => (await all<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version),
      columns,
      tables: async () =>
        (await all<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1")).map((r) => r.name),
      rows: async (table) => all(`SELECT * FROM ${table} ORDER BY ${(await columns(table)).map((_, i) => i + 1).join(', ')}`),
      schema: async () => {
        const lines = await all<{ line: string }>(`
          SELECT 'column ' || table_name || ' ' || string_agg(column_name || ' ' || data_type || ' ' || is_nullable || ' ' || COALESCE(column_default, '-') || ' ' || COALESCE(collation_name, '-') || ' ' || is_identity, ', ' ORDER BY ordinal_position) AS line
            FROM information_schema.columns WHERE table_schema = current_schema() GROUP BY table_name
          UNION ALL SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
          UNION ALL SELECT 'index ' || indexname || ' ' || indexdef FROM pg_indexes WHERE schemaname = current_schema()
          UNION ALL SELECT 'sequence ' || sequencename || ' ' || data_type FROM pg_sequences WHERE schemaname = current_schema()
          UNION ALL SELECT 'function ' || proname || ' ' || pg_get_functiondef(oid) FROM pg_proc WHERE pronamespace = current_schema()::regnamespace`);
        return lines.map((r) => r.line).sort();
      },
      run: async (sql) => void (await pool.query(sql)),
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
