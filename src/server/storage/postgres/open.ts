import { migratePg, openPgPool, probePg } from './database.js';
import { PgStore } from './store.js';
import { PgPeers } from './peers.js';
import { Reachability } from './reachability.js';
import { monitorEventLoopDelay } from 'node:perf_hooks';

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
  const watch: (() => void) | undefined = process.env.SVC_DEBUG_POOL === '1' ? watchPool((): object => store.poolState()) : undefined;
  const store: PgStore = new PgStore(pool, { guardOutsideCalls: opts.guardOutsideCalls, peers, reachability, onClose: watch });
  return store;
}

/**
 * SVC_DEBUG_POOL=1: once a second, a JSON line on stderr with the pool's clients (all, idle, and
 * checkouts waiting for one), whether the breaker lets traffic through, the store's reads and writes
 * under way, its write groups (the writes each has taken, those waiting for one, and the age of the
 * oldest unanswered write), and how late this process's event loop ran timers in that second (ms,
 * max and p99): to tell a replica starved of CPU from one waiting on its pool, its groups or its
 * server. Off, it costs nothing but the clock read each write's place in the queue keeps. Returns
 * its stop.
 */
function watchPool(state: () => object): () => void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const timer = setInterval(() => {
    const ms = (ns: number) => Math.round(ns / 1e5) / 10;
    process.stderr.write(`${JSON.stringify({ level: 'debug', time: new Date().toISOString(), msg: 'pool', ...state(), loopDelayMaxMs: ms(delay.max), loopDelayP99Ms: ms(delay.percentile(99)) })}\n`);
    delay.reset();
  }, 1000);
  timer.unref();
  return () => {
    clearInterval(timer);
    delay.disable();
  };
}

export { isPostgresUrl } from '../store-url.js';
