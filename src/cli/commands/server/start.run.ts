import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { CliError, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { dataDirInUse } from '../../../server/storage/sqlite/data-dir-lock.js';
import * as local from '../../local-service.js';
import { startService } from '../../../server/main.js';
import { isPostgresUrl, redactStoreUrl } from '../../../server/storage/store-url.js';
import { UnsupportedSchemaError } from '../../../server/storage/storage-errors.js';
import type { StartServerOptions } from './index.js';
import { readChaosProfile } from './chaos-file.js';
import type { ChaosProfile } from '../../../api/values/chaos.js';

export async function runStart(ctx: CliContext, opts: StartServerOptions): Promise<void> {
  if (opts.store !== undefined && !isPostgresUrl(opts.store)) {
    throw new UsageError(`--store takes a postgres:// URL (or nothing, for SQLite in the data directory); got ${redactStoreUrl(opts.store)}`, '--store');
  }
  const running = local.readPidInfo(opts.dataDir);
  if (running && (await local.recordedServiceRuns(running))) {
    // --detach asks for a service running in the background: one already is, so that is success
    // (scripts run `svc server start --detach` before their tests without checking first).
    if (opts.detach) {
      ctx.io.stdout.write(`${running.baseUrl}\n`);
      notice(ctx, `the local service is already running at ${running.baseUrl} (pid ${running.pid}); nothing started`);
      return;
    }
    throw new CliError(`the local service is already running at ${running.baseUrl} (pid ${running.pid}); \`svc server stop\` first`);
  }
  // A service started from code leaves no server.json but holds the directory's lock: say so here,
  // not as a start that failed somewhere in server.log.
  if (dataDirInUse(opts.dataDir)) {
    throw new CliError(`another svc service is running on ${opts.dataDir} but left no server.json (started from code, not by \`svc server start\`): stop that one, or use another --data`, EXIT.conflict);
  }
  // A bad profile stops the start here, with the field named (the detached child reads it again).
  const chaos = opts.chaos ? await readChaosProfile(opts.chaos) : undefined;
  if (opts.detach) {
    const started = await local.spawnDetached(ctx, opts);
    ctx.io.stdout.write(`${started.baseUrl}\n`);
    notice(ctx, `local service running in the background (pid ${started.pid}); logs in ${opts.dataDir}/server.log`);
    if (started.bootstrap) notice(ctx, bootstrapNotice(started.bootstrap, opts.dataDir));
    return;
  }
  const svc = await listenOrSayWhy(opts, chaos);
  const where = opts.store ? `store ${redactStoreUrl(opts.store)}, data ${opts.dataDir}` : `data ${opts.dataDir}`;
  notice(ctx, `svc local service listening on ${svc.baseUrl} (${where}, ${opts.clock} clock)`);
  // contract §1: the keys are printed once; bootstrap.json (0600) keeps them for the local profile.
  if (svc.bootstrapCreated && opts.printKeys) notice(ctx, bootstrapNotice(svc.bootstrap, opts.dataDir));
  if (svc.joined) notice(ctx, svc.joined);
  if (opts.port === 0) ctx.io.stdout.write(`${svc.baseUrl}\n`);
  await (ctx.environment.waitForInterrupt ?? (() => new Promise<void>(() => undefined)))();
  notice(ctx, 'stopping…');
  await svc.close();
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
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new CliError(await local.portHeldMessage(opts.host, opts.port, opts.dataDir));
    // issue 26: a database of another schema version is refused, nothing changed: exit 5 (conflict).
    if (err instanceof UnsupportedSchemaError) throw new CliError(`${redactStoreUrl(opts.store ?? '')}: ${err.message}`, EXIT.conflict);
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
