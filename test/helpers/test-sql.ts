import type pg from 'pg';
import type { Db } from '../../src/server/storage/sqlite/database.js';

/**
 * SQL a test runs on its service's database, whichever engine holds it: the same text
 * (positional `?`, SQL both engines read) on SQLite through the service's own connection, on
 * PostgreSQL through a small pool of the test's own. Rows read alike on both: bigint as a number
 * (the engine's own parser), a boolean as 1 or 0 (SQLite has no booleans), bytes as a Buffer.
 *
 * Write no `@` in the text (PostgreSQL's side reads `@name` as a parameter): pass such values as parameters.
 *
 * For reading what the service stored and planting rows a test needs that no API makes (a row of an
 * older version). Inside a service transaction use its repositories (`tx.<repo>`), which run on that
 * transaction's connection on either engine.
 */
export interface TestSql {
  readonly engine: 'sqlite' | 'postgres';
  get<T = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<T | undefined>;
  all<T = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<T[]>;
  run(text: string, ...params: unknown[]): Promise<{ changes: number }>;
  /** The service's own tables (not the migrations' bookkeeping of either engine). */
  tables(): Promise<string[]>;
  /**
   * A value that moves whenever the database may have been written since it was last read, so a
   * test proving "nothing changed" thousands of times reads every row only when it did. SQLite: the
   * service connection's count of changed rows (it is the only writer). PostgreSQL: the next
   * transaction id (one is assigned only to a transaction that writes or locks rows; a read-only one
   * takes none), which also moves with the replicas' heartbeats, every few seconds.
   */
  changeMark(): Promise<string>;
  close(): Promise<void>;
}

const BOOKKEEPING = new Set(['sqlite_sequence', 'schema_migrations']);

export function sqliteTestSql(db: () => Db): TestSql {
  return {
    engine: 'sqlite',
    get: async (text, ...params) => db().prepare(text).get(...params) as never,
    all: async (text, ...params) => db().prepare(text).all(...params) as never,
    run: async (text, ...params) => ({ changes: db().prepare(text).run(...params).changes }),
    tables: async () =>
      (db().prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>)
        .map((t) => t.name)
        .filter((t) => !BOOKKEEPING.has(t)),
    changeMark: async () => String((db().prepare('SELECT total_changes() AS n').get() as { n: number }).n),
    close: async () => undefined,
  };
}

export function postgresTestSql(url: string): TestSql {
  let pool: Promise<pg.Pool> | undefined;
  const open = () =>
    (pool ??= (async () => {
      // The engine's own pool: bigint read as a number, as the service reads it.
      const { openPgPool } = await import('../../src/server/storage/postgres/database.js');
      return openPgPool(url, { max: 2 });
    })());
  const query = async (text: string, params: unknown[]) => {
    const { toPositional } = await import('../../src/server/storage/postgres/sql.js');
    const result = await (await open()).query({ text: toPositional(text).text, values: params.map((v) => (v === undefined ? null : v)) });
    return { rows: result.rows.map(asSqliteRow), changes: result.rowCount ?? 0 };
  };
  return {
    engine: 'postgres',
    get: async (text, ...params) => (await query(text, params)).rows[0] as never,
    all: async (text, ...params) => (await query(text, params)).rows as never,
    run: async (text, ...params) => ({ changes: (await query(text, params)).changes }),
    tables: async () =>
      ((await query("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY name", [])).rows as Array<{ name: string }>)
        .map((t) => t.name)
        .filter((t) => !BOOKKEEPING.has(t)),
    changeMark: async () => String((await query('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS mark', [])).rows[0]!.mark),
    async close() {
      if (pool) await (await pool).end();
      pool = undefined;
    },
  };
}

/** A PostgreSQL row as SQLite would give it: booleans as 1 or 0. */
function asSqliteRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = typeof v === 'boolean' ? Number(v) : v;
  return out;
}
