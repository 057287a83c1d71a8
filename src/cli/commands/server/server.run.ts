import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { CliError } from '../../errors.js';
import * as local from '../../local-service.js';

export async function runStop(ctx: CliContext, dataDir: string): Promise<void> {
  const stopped = await stopIfRunning(dataDir);
  notice(ctx, stopped ? `stopped the local service (pid ${stopped.pid})` : 'the local service is not running');
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

export async function runStatus(ctx: CliContext, dataDir: string): Promise<void> {
  const info = local.readPidInfo(dataDir);
  const alive = info ? local.isAlive(info.pid) : false;
  // Running = answering at its address, busy (429) or not.
  const healthy = info && alive ? await local.probeAnswers(info.baseUrl) : false;
  const status = { running: Boolean(healthy), pid: alive ? info!.pid : null, baseUrl: info?.baseUrl ?? null, dataDir, startedAt: alive ? info!.startedAt : null };
  await printOne(ctx, status);
  if (!healthy) {
    throw new CliError('the local service is not running');
  }
}
