import { join } from 'node:path';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { openDatabase, type Db } from './storage/sqlite/database.js';
import { restoreClock, saveClock, type SavedClock } from './clock.js';
import { CLOCK_STATE_KEY } from './storage/service-state-repo.js';
import type { ServiceDeps, ServiceOptions } from './deps.js';
import { composeService } from './compose.js';
import { buildApp, type BuildAppOptions } from './app.js';
import { ensureBootstrap } from './bootstrap.js';
import { holdDataDirLock, type DataDirLock } from './storage/sqlite/data-dir-lock.js';
import { scrubSecrets, serviceLoggerOptions } from './http/log-redaction.js';
import type { Bootstrap } from '../config/bootstrap.js';

export interface StartOptions {
  host: string;
  port: number;
  dataDir: string;
  clock: 'system' | 'manual';
  rateLimit?: ServiceOptions['rateLimit'];
  unauthenticatedRate?: ServiceOptions['unauthenticatedRate'];
  /** Webhook delivery options (tests: a stub resolver, a short ack timeout). */
  webhooks?: ServiceOptions['webhooks'];
  /**
   * The store refuses calls to the outside world, and top-level writes and reads, from inside an open
   * transaction (issue 25); test services turn it on.
   */
  guardOutsideCalls?: boolean;
  /** Log requests as JSON lines (the detached server writes them to DATA/server.log). */
  log?: boolean;
  /** Timeouts and connection caps (issue 14; defaults in http/connections.ts); tests lower them. */
  server?: BuildAppOptions['server'];
  /** Write DATA/server.json so `svc server stop|status` can find this process. */
  writePidFile?: boolean;
  /**
   * issue 26: the database. Absent: SQLite in the data directory (DATA/svc.db). A `postgres://…` URL:
   * the PostgreSQL engine on that database, migrated if empty, refused if of another schema version.
   * The data directory still holds bootstrap.json, the media and the lock.
   */
  store?: string;
  /** PostgreSQL's connection pool size (default 10). */
  poolSize?: number;
  /** issue 29: seeded faults of the simulated world from the start (`--chaos FILE`); `PUT /v1/sandbox/chaos` changes them. */
  chaos?: ServiceOptions['chaos'];
}

export interface RunningService {
  app: FastifyInstance;
  deps: ServiceDeps;
  /** The SQLite engine's connection (tests read it); on PostgreSQL, reading it throws. */
  db: Db;
  baseUrl: string;
  bootstrap: Bootstrap;
  bootstrapCreated: boolean;
  close(): Promise<void>;
}

import { DB_FILE, MEDIA_DIR, PID_FILE, STORE_FILE } from '../api/values/local-service.js';
import { redactStoreUrl } from './storage/store-url.js';
import { SqliteStore } from './storage/sqlite/store.js';
import type { Store } from './storage/store.js';

export { DB_FILE, MEDIA_DIR, PID_FILE };

/** Opens SQLite, builds the app, listens, starts the scheduler; `close()` undoes it in order. */
export async function startService(opts: StartOptions): Promise<RunningService> {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  // One service per data directory (two would both run every job); refused before anything opens.
  const lock = holdDataDirLock(opts.dataDir);
  try {
    return await startOnLockedDir(opts, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** The engine `opts.store` names: SQLite in the data directory, or PostgreSQL (loaded only then). */
async function openStore(opts: StartOptions): Promise<{ store: Store; db: Db | undefined }> {
  if (opts.store === undefined) {
    const db = openDatabase(join(opts.dataDir, DB_FILE));
    return { store: new SqliteStore(db, { guardOutsideCalls: opts.guardOutsideCalls }), db };
  }
  // A dynamic import: `pg` is never loaded by a service (or a CLI) that does not use it.
  const postgres = await import('./storage/postgres/open.js');
  if (!postgres.isPostgresUrl(opts.store)) throw new Error(`--store takes a postgres:// URL (or nothing, for SQLite in the data directory); got ${opts.store.split('://')[0]}://…`);
  return { store: await postgres.openPgStore(opts.store, { poolSize: opts.poolSize, guardOutsideCalls: opts.guardOutsideCalls }), db: undefined };
}

/** Says in the data directory which engine holds its data (STORE_FILE), for the CLI's snapshot and reset. */
function recordEngine(opts: StartOptions): void {
  const file = join(opts.dataDir, STORE_FILE);
  if (opts.store === undefined) rmSync(file, { force: true });
  else writeFileSync(file, `${JSON.stringify({ engine: 'postgres', url: redactStoreUrl(opts.store) })}\n`, { mode: 0o600 });
}

async function startOnLockedDir(opts: StartOptions, lock: DataDirLock): Promise<RunningService> {
  const { store, db } = await openStore(opts);
  recordEngine(opts);
  const savedClock = await store.read(async (r) => await r.serviceState.get<SavedClock>(CLOCK_STATE_KEY));
  const clock = restoreClock(opts.clock, savedClock);
  // contract §1, issue 15: the clock is in the database from the first start, not only after an
  // advance, so a manual clock resumes where it stood and a snapshot carries its time.
  if (!savedClock) await store.write(async (tx) => await tx.serviceState.set(CLOCK_STATE_KEY, saveClock(clock)));
  // issue 14: credentials are redacted from every logged URL, header and message (http/log-redaction.ts).
  const logger = opts.log ? serviceLoggerOptions() : false;
  // Background failures (jobs, deliveries) are always reported on stderr, as one JSON line with the
  // error's message and stack (JSON.stringify of an Error alone prints {}).
  const schedulerLog = {
    error: (obj: object, msg: string) => {
      const fields = Object.fromEntries(
        Object.entries(obj).map(([k, v]) => [k, v instanceof Error ? { message: v.message, stack: v.stack } : v]),
      );
      // issue 14: a job's error may quote a URL or a body; no key or signing secret reaches the log.
      process.stderr.write(`${scrubSecrets(JSON.stringify({ level: 'error', time: new Date().toISOString(), msg, ...fields }))}\n`);
    },
  };
  const deps = await composeService(store, clock, schedulerLog, { mediaDir: join(opts.dataDir, MEDIA_DIR), ...(opts.rateLimit ? { rateLimit: opts.rateLimit } : {}), ...(opts.unauthenticatedRate ? { unauthenticatedRate: opts.unauthenticatedRate } : {}), ...(opts.webhooks ? { webhooks: opts.webhooks } : {}), ...(opts.chaos ? { chaos: opts.chaos } : {}) });
  const app = await buildApp(deps, { logger, ...(opts.server ? { server: opts.server } : {}) });
  await app.listen({ host: opts.host, port: opts.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  const baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  const { bootstrap, created } = await ensureBootstrap(deps, opts.dataDir, baseUrl);
  await deps.scheduler.start();
  await deps.webhooks.start();
  const pidFile = join(opts.dataDir, PID_FILE);
  if (opts.writePidFile) writeFileSync(pidFile, JSON.stringify({ pid: process.pid, baseUrl, startedAt: new Date().toISOString(), clock: opts.clock }), { mode: 0o600 });

  let closed = false;
  return {
    app,
    deps,
    get db(): Db {
      if (!db) throw new Error('this service runs on PostgreSQL: it has no SQLite connection');
      return db;
    },
    baseUrl,
    bootstrap,
    bootstrapCreated: created,
    async close() {
      if (closed) return;
      closed = true;
      await deps.webhooks.stop();
      // A decision webhook in flight is dropped: its call stays `decision.awaiting` and fails open on
      // the next start, never sending twice (spec: Routing decision request — sent once).
      deps.decisions.stop();
      await deps.scheduler.stop();
      await app.close();
      await deps.store.close();
      if (opts.writePidFile) rmSync(pidFile, { force: true });
      lock.release();
    },
  };
}
