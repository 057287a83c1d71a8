import { join } from 'node:path';
import { refuseUnsupportedNode } from '../api/values/node-runtime.js';
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
import { ownOrigin } from './http/own-origin.js';
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
   * transaction; test services turn it on.
   */
  guardOutsideCalls?: boolean;
  /** Log requests as JSON lines (the detached server writes them to DATA/server.log). */
  log?: boolean;
  /** Timeouts and connection caps (defaults: SERVER_LIMITS in api/values/http.ts); tests lower them. */
  server?: BuildAppOptions['server'];
  /** Write DATA/server.json so `svc server stop|status` can find this process. */
  writePidFile?: boolean;
  /**
   * The database. Absent: SQLite in the data directory (DATA/svc.db). A `postgres://…` URL:
   * the PostgreSQL engine on that database, migrated if empty, refused if of another schema version.
   * The data directory still holds bootstrap.json, the media and the lock.
   */
  store?: string;
  /** PostgreSQL's connection pool size (default 10). */
  poolSize?: number;
  /** Claims' lease (ServiceOptions.claimLeaseMs); tests shorten it. */
  claimLeaseMs?: number;
  /** How often a PostgreSQL replica notes itself among the others (default 2 s); tests shorten it. */
  heartbeatMs?: number;
  /** Seeded faults of the simulated world from the start (`--chaos FILE`); `PUT /v1/sandbox/chaos` changes them. */
  chaos?: ServiceOptions['chaos'];
  /**
   * Whether the sandbox endpoints are served (ServiceOptions.sandbox; default yes: contract §1, they
   * exist on the local service). Without them the service answers as the hosted platform would; tests
   * use that to check what is the sandbox's alone.
   */
  sandbox?: boolean;
  /**
   * `api` serves HTTP and runs no job nor delivery; `worker` runs the scheduler and the
   * deliveries and listens nowhere (DATA/worker.json says it runs); `all` (the default) both. One
   * `api` and one `worker` may share a data directory (and its SQLite file).
   */
  role?: ServiceRole;
  /** Real time (ServiceOptions.wallNow): console links and sessions age on it; tests move it. */
  wallNow?: ServiceOptions['wallNow'];
  /** What serves /mcp (BuildAppOptions.mcp): `svc server start` passes the CLI's tools. */
  mcp?: BuildAppOptions['mcp'];
}

export interface RunningService {
  /** The HTTP app; a `--role worker` process has none (reading it throws). */
  app: FastifyInstance;
  role: ServiceRole;
  deps: ServiceDeps;
  /** The SQLite engine's connection (tests read it); on PostgreSQL, reading it throws. */
  db: Db;
  /** Where the API answers; empty for a `--role worker` process. */
  baseUrl: string;
  /** The bootstrap keys; reading it throws on a replica that joined a database another bootstrapped (`joined`), or on a worker started before any API process made them. */
  bootstrap: Bootstrap;
  bootstrapCreated: boolean;
  /**
   * Set when this replica found its database bootstrapped by another replica and made no
   * keys: the sentence to show the person who started it (where the keys come from).
   */
  joined: string | undefined;
  close(): Promise<void>;
}

import { DB_FILE, MEDIA_DIR, PID_FILE, STORE_FILE, WORKER_PID_FILE, type ServiceRole } from '../api/values/local-service.js';
import { partInUse } from './storage/sqlite/data-dir-lock.js';
import { settleCutAdvance, startWorkerLink } from './worker-link.js';
import { readBootstrap } from '../config/bootstrap.js';
import { redactStoreUrl } from './storage/store-url.js';
import { SqliteStore } from './storage/sqlite/store.js';
import type { Store } from './storage/store.js';

export { DB_FILE, MEDIA_DIR, PID_FILE };

/** Opens SQLite, builds the app, listens, starts the scheduler; `close()` undoes it in order. */
export async function startService(opts: StartOptions): Promise<RunningService> {
  refuseUnsupportedNode();
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  // One service per data directory (two would both run every job); refused before anything opens.
  // Per role, so one `api` and one `worker` share it and a second of either is refused.
  const lock = holdDataDirLock(opts.dataDir, opts.role ?? 'all');
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
  return { store: await postgres.openPgStore(opts.store, { poolSize: opts.poolSize, guardOutsideCalls: opts.guardOutsideCalls, heartbeatMs: opts.heartbeatMs }), db: undefined };
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
  // contract §1: the clock is in the database from the first start, not only after an
  // advance, so a manual clock resumes where it stood and a snapshot carries its time.
  if (!savedClock) await store.write(async (tx) => await tx.serviceState.set(CLOCK_STATE_KEY, saveClock(clock)));
  // Credentials are redacted from every logged URL, header and message (http/log-redaction.ts).
  const logger = opts.log ? serviceLoggerOptions() : false;
  // Background failures (jobs, deliveries) are always reported on stderr, as one JSON line with the
  // error's message and stack (JSON.stringify of an Error alone prints {}).
  const schedulerLog = {
    error: (obj: object, msg: string) => {
      const fields = Object.fromEntries(
        Object.entries(obj).map(([k, v]) => [k, v instanceof Error ? { message: v.message, stack: v.stack } : v]),
      );
      // A job's error may quote a URL or a body; no key or signing secret reaches the log.
      process.stderr.write(`${scrubSecrets(JSON.stringify({ level: 'error', time: new Date().toISOString(), msg, ...fields }))}\n`);
    },
  };
  const role = opts.role ?? 'all';
  const deps = await composeService(store, clock, schedulerLog, { role, mediaDir: join(opts.dataDir, MEDIA_DIR), ...(opts.rateLimit ? { rateLimit: opts.rateLimit } : {}), ...(opts.unauthenticatedRate ? { unauthenticatedRate: opts.unauthenticatedRate } : {}), ...(opts.webhooks ? { webhooks: opts.webhooks } : {}), ...(opts.chaos ? { chaos: opts.chaos } : {}), ...(opts.sandbox === false ? { sandbox: false } : {}), ...(opts.claimLeaseMs ? { claimLeaseMs: opts.claimLeaseMs } : {}), ...(opts.wallNow ? { wallNow: opts.wallNow } : {}) });
  let app: FastifyInstance | undefined;
  let baseUrl = '';
  let bootstrap: Bootstrap | undefined;
  let created = false;
  let joined: string | undefined;
  if (role !== 'worker') {
    app = await buildApp(deps, { logger, ...(opts.server ? { server: opts.server } : {}), ...(opts.mcp ? { mcp: opts.mcp } : {}) });
    await app.listen({ host: opts.host, port: opts.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : opts.port;
    const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
    baseUrl = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
    // A sink's URL is this address (routes/sandbox-sinks.ts): the worker beside it may deliver there.
    const origin = ownOrigin(app.server);
    if (origin) deps.webhooks.servesAt(origin);
    ({ bootstrap, created, joined } = await ensureBootstrap(deps, opts.dataDir, baseUrl, { shared: store.peers.shared }));
  } else {
    // The worker serves no request: the API process bootstraps (and records its address).
    bootstrap = readBootstrap(opts.dataDir);
  }
  if (role !== 'api') {
    // A worker that crashed mid-advance left it taken: its asker is answered (worker-link.ts).
    if (role === 'worker') await settleCutAdvance(deps);
    await deps.scheduler.start();
    await deps.webhooks.start();
  }
  // A process beside another on the same data learns of its writes only through the database.
  const link =
    role === 'all'
      ? undefined
      : startWorkerLink(deps, { role, log: schedulerLog, ...(opts.store === undefined ? { workerRuns: () => partInUse(opts.dataDir, 'worker') } : {}) });
  const pidFile = join(opts.dataDir, role === 'worker' ? WORKER_PID_FILE : PID_FILE);
  if (opts.writePidFile) writeFileSync(pidFile, JSON.stringify({ pid: process.pid, ...(role === 'worker' ? {} : { baseUrl }), startedAt: new Date().toISOString(), clock: opts.clock, role }), { mode: 0o600 });

  let closed = false;
  return {
    get app(): FastifyInstance {
      if (!app) throw new Error('this process runs the worker role: it serves no HTTP');
      return app;
    },
    role,
    deps,
    get db(): Db {
      if (!db) throw new Error('this service runs on PostgreSQL: it has no SQLite connection');
      return db;
    },
    baseUrl,
    get bootstrap(): Bootstrap {
      if (!bootstrap) throw new Error(joined ?? `no bootstrap keys in ${opts.dataDir} yet: an API process (--role api or all) makes them on its first start`);
      return bootstrap;
    },
    bootstrapCreated: created,
    joined,
    async close() {
      if (closed) return;
      closed = true;
      await link?.stop();
      await deps.webhooks.stop();
      // A decision webhook in flight is dropped: its call stays `decision.awaiting` and fails open on
      // the next start, never sending twice (spec: Routing decision request — sent once).
      deps.decisions.stop();
      await deps.scheduler.stop();
      await app?.close();
      await deps.store.close();
      if (opts.writePidFile) rmSync(pidFile, { force: true });
      lock.release();
    },
  };
}
