import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { CliError } from '../../errors.js';
import * as local from '../../local-service.js';

import path from 'node:path';
import { DB_FILE, type ServiceRole } from '../../../api/values/local-service.js';
import { postgresStoreOf } from './postgres-state.js';

/** `role` all stops every process of the data directory (the API's and a worker's). */
export async function runStop(ctx: CliContext, dataDir: string, role: ServiceRole = 'all'): Promise<void> {
  const api = role === 'worker' ? undefined : await stopIfRunning(dataDir);
  const worker = role === 'api' ? undefined : await stopWorkerIfRunning(dataDir);
  const said = [
    ...(api ? [`stopped the local service${api.role === 'api' ? ' API' : ''} (pid ${api.pid})`] : []),
    ...(worker ? [`stopped the local service worker (pid ${worker.pid})`] : []),
  ];
  if (said.length > 0) for (const line of said) notice(ctx, line);
  else notice(ctx, role === 'worker' ? 'no local service worker is running' : 'the local service is not running');
}

/** Whether a `--role worker` process runs on `dataDir`: its pid lives AND it holds the worker's lock (so never another process that got its pid). */
async function workerRuns(dataDir: string, info: local.WorkerInfo): Promise<boolean> {
  const { partInUse } = await import('../../../server/storage/sqlite/data-dir-lock.js');
  return local.isAlive(info.pid) && partInUse(dataDir, 'worker');
}

/** Stops the data directory's worker process when one runs; answers what it stopped. */
export async function stopWorkerIfRunning(dataDir: string): Promise<local.WorkerInfo | undefined> {
  const info = local.readWorkerInfo(dataDir);
  if (!info || !(await workerRuns(dataDir, info))) {
    if (info) local.removeWorkerInfo(dataDir);
    return undefined;
  }
  local.signal(info.pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (local.isAlive(info.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (local.isAlive(info.pid)) throw new CliError(`pid ${info.pid} did not stop within 10 s`);
  return info;
}

/** Stops the service of this data directory when it runs; answers what it stopped (snapshot load, reset restart it). */
export async function stopIfRunning(dataDir: string): Promise<local.PidInfo | undefined> {
  const info = local.readPidInfo(dataDir);
  // Signal only a pid whose service still answers at the recorded address (any answer: a busy
  // service's 429 is an answer); server.json is removed only when that is not so.
  if (!info || !(await local.recordedServiceRuns(info))) {
    if (info) local.removePidInfo(dataDir);
    return undefined;
  }
  local.signal(info.pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (local.isAlive(info.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (local.isAlive(info.pid)) throw new CliError(`pid ${info.pid} did not stop within 10 s`);
  return info;
}

/**
 * `running`: a process of this data directory runs and is healthy: the API answering at its address
 * (busy or not), or the worker alive and holding the worker's lock (a worker-only data directory, as
 * a team's layout has: it answers no HTTP). `pid` is the API's process, `workerPid` the process
 * running the jobs and deliveries (the same one under `--role all`). `roles` lists what
 * runs; `store` is the database they serve (a PostgreSQL URL, password redacted, or the SQLite file).
 */
export async function runStatus(ctx: CliContext, dataDir: string): Promise<void> {
  const info = local.readPidInfo(dataDir);
  const alive = info ? local.isAlive(info.pid) : false;
  // Running = answering at its address, busy (429) or not.
  const healthy = Boolean(info && alive && (await local.probeAnswers(info.baseUrl)));
  const apiRole = healthy ? (info!.role ?? 'all') : undefined;
  const worker = local.readWorkerInfo(dataDir);
  const workerAlive = Boolean(worker && (await workerRuns(dataDir, worker)));
  const roles = [...(healthy ? ['api'] : []), ...(apiRole === 'all' || workerAlive ? ['worker'] : [])];
  const status = {
    running: healthy || workerAlive,
    pid: alive ? info!.pid : null,
    baseUrl: info?.baseUrl ?? null,
    dataDir,
    startedAt: alive ? info!.startedAt : workerAlive ? worker!.startedAt : null,
    roles: roles.join(',') || 'none',
    workerPid: workerAlive ? worker!.pid : apiRole === 'all' ? info!.pid : null,
    store: storeOf(dataDir),
  };
  await printOne(ctx, status);
  if (!status.running) throw new CliError('the local service is not running');
  // A worker alone serves no HTTP: say what it does, and where the API is not.
  if (!healthy) notice(ctx, `the worker (pid ${worker!.pid}) runs the jobs and webhook deliveries of ${status.store}; no API is served from this data directory (svc server start --role api for one)`);
}

/** The database a data directory's service last started on: its PostgreSQL URL (redacted) as recorded, or the SQLite file. */
function storeOf(dataDir: string): string {
  return postgresStoreOf(dataDir, undefined) ?? path.join(dataDir, DB_FILE);
}
