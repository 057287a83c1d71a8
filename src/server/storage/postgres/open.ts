import { migratePg, openPgPool, probePg } from './database.js';
import { PgStore } from './store.js';
import { PgPeers } from './peers.js';
import { Reachability } from './reachability.js';

export interface OpenPgStoreOptions {
  /** Connections at most (the pool's size). */
  poolSize?: number;
  /** As for SqliteStore: refuse outside calls from inside a transaction (tests). */
  guardOutsideCalls?: boolean;
  /** How often the replica notes itself among the others (default 2 s; tests shorten it). */
  heartbeatMs?: number;
}

/**
 * The PostgreSQL engine's entry point (the service reaches it with a dynamic import, so `pg` is
 * loaded only when a `postgres://` store is asked for): a pool on `url`, the database migrated (or
 * refused with UnsupportedSchemaError, nothing changed), and the store over it.
 */
export async function openPgStore(url: string, opts: OpenPgStoreOptions = {}): Promise<PgStore> {
  const pool = openPgPool(url, { max: opts.poolSize });
  // The other replicas on this database: notifications (LISTEN on a client of its own)
  // and heartbeats, started once the schema is there.
  // Once the server is lost, one probe at a time asks whether it answers again (the breaker, reachability.ts).
  const reachability = new Reachability(() => probePg(url));
  const peers = new PgPeers(url, pool, { heartbeatMs: opts.heartbeatMs, reachability });
  try {
    await migratePg(pool);
    await peers.start();
  } catch (err) {
    reachability.close();
    await peers.close();
    await pool.end();
    throw err;
  }
  return new PgStore(pool, { guardOutsideCalls: opts.guardOutsideCalls, peers, reachability });
}

export { isPostgresUrl } from '../store-url.js';
