import { migratePg, openPgPool } from './database.js';
import { PgStore } from './store.js';

export interface OpenPgStoreOptions {
  /** Connections at most (the pool's size). */
  poolSize?: number;
  /** As for SqliteStore: refuse outside calls from inside a transaction (tests). */
  guardOutsideCalls?: boolean;
}

/**
 * The PostgreSQL engine's entry point (the service reaches it with a dynamic import, so `pg` is
 * loaded only when a `postgres://` store is asked for): a pool on `url`, the database migrated (or
 * refused with UnsupportedSchemaError, nothing changed), and the store over it.
 */
export async function openPgStore(url: string, opts: OpenPgStoreOptions = {}): Promise<PgStore> {
  const pool = openPgPool(url, { max: opts.poolSize });
  try {
    await migratePg(pool);
  } catch (err) {
    await pool.end();
    throw err;
  }
  return new PgStore(pool, { guardOutsideCalls: opts.guardOutsideCalls });
}

export { isPostgresUrl } from '../store-url.js';
