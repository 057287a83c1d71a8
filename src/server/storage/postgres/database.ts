import pg from 'pg';
import { UnsupportedSchemaError } from '../storage-errors.js';
import { PG_SCHEMA } from './migrations.js';
import type { SchemaChange } from '../shared/schema-changes.js';

/** pg's OID for int8 (bigint): COUNT(*), identity columns and every time column. */
const INT8_OID = 20;

/**
 * bigint → JS number, for this engine's pool only (not pg's global parser, which another user of
 * `pg` in the process may rely on). Times are epoch milliseconds and counts are small: both are far
 * inside 2^53, and a value that is not fails loudly rather than losing digits.
 */
function parseInt8(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`a bigint outside JavaScript's safe integers was read: ${text}`);
  return n;
}

const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? parseInt8 : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * How long opening a connection may take before it is given up (a database that is down refuses at
 * once; one whose host does not answer would otherwise hold the request until the OS gives up,
 * minutes): the request is answered 503 instead, well inside the HTTP request timeout.
 */
export const PG_CONNECT_TIMEOUT_MS = 5000;

/**
 * How long a statement may go unanswered before its connection is given up: a link that stops
 * carrying packets (a cut cable, a host that froze) raises no error, and with no bound the statement,
 * and every request queued behind the pool's clients it holds, waited until the link came back or the
 * kernel gave up (~15 minutes). The service's statements take milliseconds; a lock wait of seconds is
 * within this. On expiry the driver destroys the connection (pipeline mode), so the pool never reuses
 * it, and the request is answered 503 (reachability.ts): with a new connection's PG_CONNECT_TIMEOUT_MS
 * after it, still inside a client's 15 s.
 */
export const PG_QUERY_TIMEOUT_MS = 8000;

/** Migrations may run long on a large database: bounded by the hour, not by PG_QUERY_TIMEOUT_MS. */
const MIGRATION_QUERY_TIMEOUT_MS = 3_600_000;

/**
 * The pool's clients, each bounded in connecting by PG_CONNECT_TIMEOUT_MS and in each statement by PG_QUERY_TIMEOUT_MS. Set on the client, not as
 * the pool's `connectionTimeoutMillis`, which would also bound a checkout's wait for a client of a
 * full pool: under a burst (200 sends on one wallet) that wait is long and legitimate.
 */
class BoundedClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS, query_timeout: PG_QUERY_TIMEOUT_MS });
  }
}

/**
 * How long the breaker's probe (reachability.ts) may take to connect and be answered: shorter than
 * a request's bounds, since nothing waits on it but the next probe, and a server that answers at all
 * answers a `SELECT 1` in milliseconds.
 */
export const PG_PROBE_TIMEOUT_MS = 3000;

/**
 * Asks the server once, on a connection of its own (never the pool's: while the link is cut the pool
 * is full of hung connects and waiters), bounded by PG_PROBE_TIMEOUT_MS in connecting and in its
 * statement; resolves on an answer. Not pipelined, so `end` destroys a connection whose statement
 * hangs instead of waiting for it.
 */
export async function probePg(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: PG_PROBE_TIMEOUT_MS, query_timeout: PG_PROBE_TIMEOUT_MS });
  // Always listened to: an 'error' with no listener would end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    // Not waited for: on a hung link the goodbye would wait for the link.
    void client.end().catch(() => undefined);
  }
}

export interface PgPoolOptions {
  /** Connections at most (the pool's size). */
  max?: number;
}

/**
 * A pool on `connectionString`, reading bigint as number. Migrate it (`migratePg`) before use.
 *
 * Its clients run in pipeline mode: a statement is written to the socket when it is asked
 * for, not when the one before it has been answered, so the store sends a transaction's BEGIN with
 * its first statement and its COMMIT with what follows it (store.ts), one wait instead of two. Each
 * statement keeps its own Sync: a failure still fails only its own statement (and, inside a
 * transaction, aborts the transaction as before). No cursor or row-limited query is used (pipeline
 * mode refuses them).
 */
export function openPgPool(connectionString: string, opts: PgPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? 10,
    types,
    pipeline: true,
    Client: BoundedClient,
    // A connection whose peer vanished (a cut link, a host gone) is probed by the kernel after 10 s
    // idle and found dead, rather than kept for the system's default of two hours.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  } as pg.PoolConfig);
  // A connection lost (the server stopped or restarted, the link cut) makes its client emit 'error';
  // with no listener, that error ends the process. The pool listens on idle clients only (and drops
  // them); a client checked out (a transaction, a read, the feed's numbering) has this one, always:
  // its statements fail with the error, and the store releases it broken, so the pool closes it.
  pool.on('connect', (client) => client.on('error', () => undefined));
  pool.on('error', () => undefined);
  return pool;
}

/** Any number: replicas of every build take the same lock. */
const MIGRATION_LOCK = 0x73766301;

/**
 * Brings the database to this engine's newest schema, in one transaction under an advisory lock:
 * replicas starting together on an empty database migrate it once (the others wait, then find it
 * done). PG_SCHEMA.pending says what to run: all of the schema at once on an empty database, else the
 * steps after the version it records. A database newer than this build, older than it migrates, or
 * with another program's tables and no record of ours is refused with UnsupportedSchemaError, nothing
 * changed. `changes` is SCHEMA_CHANGES but in the storage contract's own check.
 */
export async function migratePg(pool: pg.Pool, changes?: readonly SchemaChange[]): Promise<void> {
  const pooled = await pool.connect();
  const client = { query: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => pooled.query<R>({ text, values, query_timeout: MIGRATION_QUERY_TIMEOUT_MS } as pg.QueryConfig) };
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)');
    const applied = (await client.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version);
    const pending = PG_SCHEMA.pending(applied, changes);
    if (applied.length === 0) {
      // No version recorded: only an empty schema is ours to fill (another program's tables are not).
      const { rows } = await client.query<{ n: number }>(
        "SELECT COUNT(*)::int AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'",
      );
      if (rows[0]!.n > 0) throw new UnsupportedSchemaError('unknown (tables without a schema_migrations record)', PG_SCHEMA.version);
    }
    for (const m of pending) {
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, new Date().toISOString()]);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    pooled.release();
  }
}
