import { join } from 'node:path';
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { CliError, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { DataDirInUseError, partInUse, partsOf } from '../../../server/storage/sqlite/data-dir-lock.js';
import * as local from '../../local-service.js';
import { startService } from '../../../server/main.js';
import { isPostgresUrl, redactStoreUrl } from '../../../server/storage/store-url.js';
import { UnsupportedSchemaError } from '../../../server/storage/storage-errors.js';
import type { CLOCK_MODES } from '../../../api/values/sandbox.js';
import { DB_FILE, type ServiceRole } from '../../../api/values/local-service.js';
import { readChaosProfile } from './chaos-file.js';
import { refuseUnsupportedNode } from '../../../api/values/node-runtime.js';
import type { ChaosProfile } from '../../../api/values/chaos.js';

export interface StartServerOptions {
  host: string;
  port: number;
  dataDir: string;
  clock: (typeof CLOCK_MODES)[number];
  detach: boolean;
  log: boolean;
  rateLimit?: number;
  /** A postgres:// URL (--store, env SVC_STORE); absent: SQLite in the data directory. */
  store?: string;
  /** PostgreSQL connections at most in this process (--pool-size). */
  poolSize?: number;
  /** `--chaos FILE`: a chaos profile (YAML or JSON), read by the run module. */
  chaos?: string;
  /** False in a detached child: its output is the log file, and keys never go to a log. */
  printKeys: boolean;
  /** `--role api|worker|all` (env SVC_ROLE; default all). */
  role: ServiceRole;
}

export async function runStart(ctx: CliContext, opts: StartServerOptions): Promise<void> {
  // Before anything starts, detached or not (a detached child runs on this same Node).
  refuseUnsupportedNode();
  if (opts.store !== undefined && !isPostgresUrl(opts.store)) {
    throw new UsageError(`--store takes a postgres:// URL (or nothing, for SQLite in the data directory); got ${redactStoreUrl(opts.store)}`, '--store');
  }
  if (await alreadyRunning(ctx, opts)) return;
  // A bad profile stops the start here, with the field named (the detached child reads it again).
  const chaos = opts.chaos ? await readChaosProfile(opts.chaos) : undefined;
  if (opts.detach && opts.role === 'worker') {
    const started = await local.spawnDetachedWorker(ctx, opts, () => partInUse(opts.dataDir, 'worker'));
    notice(ctx, `local service worker running in the background (pid ${started.pid}): the jobs and webhook deliveries of ${opts.dataDir}; logs in ${opts.dataDir}/server.log`);
    return;
  }
  if (opts.detach) {
    const started = await local.spawnDetached(ctx, { ...opts, role: opts.role === 'api' ? 'api' : 'all' });
    ctx.io.stdout.write(`${started.baseUrl}\n`);
    notice(ctx, `local service running in the background (pid ${started.pid}); logs in ${opts.dataDir}/server.log`);
    if (started.bootstrap) notice(ctx, bootstrapNotice(started.bootstrap, opts.dataDir));
    return;
  }
  const svc = await listenOrSayWhy(opts, chaos);
  if (opts.role === 'worker') {
    const where = opts.store ? `store ${redactStoreUrl(opts.store)}, data ${opts.dataDir}` : `data ${opts.dataDir}`;
    notice(ctx, `svc local service worker running (pid ${process.pid}; ${where}, ${opts.clock} clock): the jobs and webhook deliveries, no API`);
    await (ctx.environment.waitForInterrupt ?? (() => new Promise<void>(() => undefined)))();
    notice(ctx, 'stopping…');
    await svc.close();
    return;
  }
  const where = opts.store ? `store ${redactStoreUrl(opts.store)}, data ${opts.dataDir}` : `data ${opts.dataDir}`;
  notice(ctx, `svc local service listening on ${svc.baseUrl} (${where}, ${opts.clock} clock${opts.role === 'api' ? '; API only: the jobs and webhook deliveries run in a worker (svc server start --role worker)' : ''})`);
  // contract §1: the keys are printed once; bootstrap.json (0600) keeps them for the local profile.
  if (svc.bootstrapCreated && opts.printKeys) notice(ctx, bootstrapNotice(svc.bootstrap, opts.dataDir));
  if (svc.joined) notice(ctx, svc.joined);
  if (opts.port === 0) ctx.io.stdout.write(`${svc.baseUrl}\n`);
  await (ctx.environment.waitForInterrupt ?? (() => new Promise<void>(() => undefined)))();
  notice(ctx, 'stopping…');
  await svc.close();
}

/**
 * Whether what `opts.role` would run runs already (per half of the data directory, so an
 * `api` and a `worker` share it). With --detach and the same role, that is success (scripts run
 * `svc server start --detach` before their tests without checking first): true, said on stderr.
 * Otherwise a refusal, exit 5, naming what runs and how to stop it.
 */
async function alreadyRunning(ctx: CliContext, opts: StartServerOptions): Promise<boolean> {
  const parts = partsOf(opts.role);
  const api = local.readPidInfo(opts.dataDir);
  if (api && (await local.recordedServiceRuns(api))) {
    const role = api.role ?? 'all';
    if (opts.detach && role === opts.role) {
      ctx.io.stdout.write(`${api.baseUrl}\n`);
      notice(ctx, `the local service is already running at ${api.baseUrl} (pid ${api.pid}); nothing started`);
      return true;
    }
    if (parts.includes('api') || role === 'all') {
      const what = role === 'all' ? '' : '; API only, --role api';
      throw new CliError(`the local service is already running at ${api.baseUrl} (pid ${api.pid}${what}); \`svc server stop\` first`, EXIT.conflict);
    }
  }
  const worker = local.readWorkerInfo(opts.dataDir);
  if (worker && local.isAlive(worker.pid) && partInUse(opts.dataDir, 'worker')) {
    if (opts.detach && opts.role === 'worker') {
      notice(ctx, `the local service worker is already running on ${opts.dataDir} (pid ${worker.pid}); nothing started`);
      return true;
    }
    if (parts.includes('worker')) {
      throw new CliError(`a local service worker is already running on ${opts.dataDir} (pid ${worker.pid}): one worker per data directory; \`svc server stop --role worker\` first`, EXIT.conflict);
    }
  }
  // A service started from code leaves no pid file but holds the directory's lock: say so here,
  // not as a start that failed somewhere in server.log.
  if (parts.some((part) => partInUse(opts.dataDir, part))) {
    throw new CliError(`another svc service is running on ${opts.dataDir} but left no server.json (started from code, not by \`svc server start\`): stop that one, or use another --data`, EXIT.conflict);
  }
  return false;
}

/** Starts the service in this process; a port in use is said in words, not as `listen EADDRINUSE`. */
async function listenOrSayWhy(opts: StartServerOptions, chaos: ChaosProfile | undefined): Promise<Awaited<ReturnType<typeof startService>>> {
  try {
    return await startService({
      host: opts.host,
      port: opts.port,
      dataDir: opts.dataDir,
      clock: opts.clock,
      log: opts.log,
      writePidFile: true,
      ...(chaos ? { chaos } : {}),
      rateLimit: opts.rateLimit ? { ratePerSec: opts.rateLimit, burst: opts.rateLimit * 2 } : undefined,
      ...(opts.store ? { store: opts.store } : {}),
      ...(opts.poolSize ? { poolSize: opts.poolSize } : {}),
      role: opts.role,
      // The CLI's tools at /mcp, loaded on its first request (the SDK never otherwise).
      mcp: async () => await (await import('../mcp/http.run.js')).createMcpHttpEndpoint(),
    });
  } catch (err) {
    // Another process took the same half of the data directory meanwhile.
    if (err instanceof DataDirInUseError) throw new CliError(err.message, EXIT.conflict);
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new CliError(await local.portHeldMessage(opts.host, opts.port, opts.dataDir));
    // A database of another schema version is refused, nothing changed: exit 5 (conflict).
    if (err instanceof UnsupportedSchemaError) throw new CliError(`${opts.store ? redactStoreUrl(opts.store) : join(opts.dataDir, DB_FILE)}: ${err.message}`, EXIT.conflict);
    // The driver's own words name the host and port, never the password; the URL is shown redacted.
    if (opts.store && isConnectionFailure(err)) throw new CliError(`cannot reach PostgreSQL at ${redactStoreUrl(opts.store)}: ${(err as Error).message}`);
    throw err;
  }
}

/** A socket-level failure to reach the database (refused, unknown host, timed out, auth refused). */
function isConnectionFailure(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code ?? '';
  return ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', '28P01', '28000', '3D000'].includes(code);
}

function bootstrapNotice(b: { accountId: string; liveKey: string; testKey: string }, dataDir: string): string {
  return `agency account ${b.accountId}\n  live key: ${b.liveKey}\n  test key: ${b.testKey}\n  (saved in ${dataDir}/bootstrap.json, mode 0600)`;
}
