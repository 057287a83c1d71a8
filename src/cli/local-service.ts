// The CLI's side of the local service (contract §1): probe it, start it detached, find and stop it.
// This module spawns and signals processes, so it is the one CLI module besides main.ts that uses
// Node's process APIs; commands reach it through the context.
import { spawn } from 'node:child_process';
import { openSync, readFileSync, mkdirSync, closeSync, existsSync, rmSync, statSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { request } from 'node:http';
import { readBootstrap, type Bootstrap } from '../config/bootstrap.js';
import { CliError } from './errors.js';
import { refuseUnsupportedNode } from '../api/values/node-runtime.js';

import { PID_FILE, WORKER_PID_FILE, type ServiceRole } from '../api/values/local-service.js';
export { PID_FILE, WORKER_PID_FILE };
export const LOG_FILE = 'server.log';

/**
 * What starting the local service needs of the CLI's context. A shape of its own rather than
 * CliContext: context.ts loads this module when a command first needs the local service, and a type
 * import back would close an import circle (none in src/cli).
 */
export interface LaunchContext {
  readonly environment: { readonly binPath: string };
  readonly env: Record<string, string | undefined>;
  readonly dataDir: string;
  readonly io: { readonly stderr: { write(text: string): unknown } };
}
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export interface PidInfo {
  pid: number;
  baseUrl: string;
  startedAt: string;
  /** The clock mode it was started with (absent in files written before clock modes: system). */
  clock?: 'system' | 'manual';
  /** `api` or `all` (absent in files written before roles: all). */
  role?: ServiceRole;
}

/** DATA/worker.json: a `--role worker` process (it has no address; its lock says it runs). */
export interface WorkerInfo {
  pid: number;
  startedAt: string;
  clock?: 'system' | 'manual';
  role: 'worker';
}

/** A process record (server.json, worker.json) in the data directory; absent or unreadable: undefined. */
function readRecord<T>(dataDir: string, file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, file), 'utf8')) as T;
  } catch {
    return undefined;
  }
}

const removeRecord = (dataDir: string, file: string): void => rmSync(join(dataDir, file), { force: true });

export const readWorkerInfo = (dataDir: string): WorkerInfo | undefined => readRecord<WorkerInfo>(dataDir, WORKER_PID_FILE);
export const removeWorkerInfo = (dataDir: string): void => removeRecord(dataDir, WORKER_PID_FILE);

/**
 * GET /healthz with a short timeout: the HTTP status it got, or null when nothing answered (refused,
 * reset, timed out). Any status means a service is there: a busy one answers 429 once a client holds
 * all the connections its address may open (SERVER_LIMITS); a 503 or any other status is an answer too.
 */
export function probeStatus(baseUrl: string, timeoutMs = 1000): Promise<number | null> {
  return new Promise((resolve) => {
    const req = request(new URL('/healthz', baseUrl), { method: 'GET', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
}

/** True when the service answers 200: ready for requests (a start waits for this). */
export async function probeHealth(baseUrl: string, timeoutMs = 1000): Promise<boolean> {
  return (await probeStatus(baseUrl, timeoutMs)) === 200;
}

/**
 * True when anything answers HTTP at the address: a service is there, healthy or busy. Deciding
 * whether a recorded service still runs takes this, never probeHealth: a 429 read as "not running"
 * would make `svc server stop` delete server.json and leave a busy service running with no record.
 */
export async function probeAnswers(baseUrl: string, timeoutMs = 1000): Promise<boolean> {
  return (await probeStatus(baseUrl, timeoutMs)) !== null;
}

/**
 * Whether the service server.json records still runs: its pid lives AND something answers at its
 * address. Both, because a server.json left by a crash may name a pid the system has since given to
 * another process, which must never be signalled.
 */
export async function recordedServiceRuns(info: PidInfo): Promise<boolean> {
  return isAlive(info.pid) && (await probeAnswers(info.baseUrl));
}

export async function waitForHealth(baseUrl: string, totalMs: number): Promise<boolean> {
  const deadline = Date.now() + totalMs;
  while (Date.now() < deadline) {
    if (await probeHealth(baseUrl, 500)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

export const readPidInfo = (dataDir: string): PidInfo | undefined => readRecord<PidInfo>(dataDir, PID_FILE);
export const removePidInfo = (dataDir: string): void => removeRecord(dataDir, PID_FILE);

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function signal(pid: number, sig: NodeJS.Signals): void {
  process.kill(pid, sig);
}

export interface SpawnOptions {
  host: string;
  port: number;
  dataDir: string;
  clock?: 'system' | 'manual';
  rateLimit?: number;
  store?: string;
  poolSize?: number;
  /** `--chaos FILE`, passed on to the child. */
  chaos?: string;
  /** `api` or `all` (default); a worker is started with spawnDetachedWorker. */
  role?: 'api' | 'all';
}

/**
 * Starts `svc server start` in the background, logging to DATA/server.log; resolves when healthy.
 * On a first start it returns the bootstrap keys for the caller to show: the child never prints
 * them, because its output is a log file.
 */
export async function spawnDetached(ctx: LaunchContext, opts: SpawnOptions): Promise<{ pid: number; baseUrl: string; bootstrap?: Bootstrap }> {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const firstStart = !existsSync(join(opts.dataDir, 'bootstrap.json'));
  const logPath = join(opts.dataDir, LOG_FILE);
  // The log is appended to: what this start wrote begins here.
  const logStart = existsSync(logPath) ? statSync(logPath).size : 0;
  const log = openSync(logPath, 'a', 0o600);
  const args = [ctx.environment.binPath, 'server', 'start', '--host', opts.host, '--port', String(opts.port), '--data', opts.dataDir, '--log', '--detached-child'];
  if (opts.clock === 'manual') args.push('--clock', 'manual');
  if (opts.rateLimit) args.push('--rate-limit', String(opts.rateLimit));
  if (opts.poolSize) args.push('--pool-size', String(opts.poolSize));
  if (opts.chaos) args.push('--chaos', resolvePath(opts.chaos));
  if (opts.role === 'api') args.push('--role', 'api');
  // The store's URL may hold a password: it goes to the child in its environment, not its argv
  // (which any user can read in `ps`).
  const env = { ...ctx.env, ...(opts.store ? { SVC_STORE: opts.store } : {}) };
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], env });
  closeSync(log);
  child.unref();
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const info = readPidInfo(opts.dataDir);
    if (info && info.pid === child.pid && (await probeHealth(info.baseUrl, 500))) {
      const bootstrap = firstStart ? readBootstrap(opts.dataDir) : undefined;
      return { pid: child.pid, baseUrl: info.baseUrl, ...(bootstrap ? { bootstrap } : {}) };
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new CliError(whyNotStarted(logPath, logStart));
}

/**
 * Starts `svc server start --role worker` in the background (log in DATA/server.log);
 * resolves once it has written worker.json and holds the worker's lock (`runs` checks it: the CLI
 * loads the lock module lazily). A worker listens nowhere, so no health probe.
 */
export async function spawnDetachedWorker(
  ctx: LaunchContext,
  opts: Omit<SpawnOptions, 'host' | 'port' | 'role' | 'rateLimit'>,
  runs: (info: WorkerInfo) => boolean,
): Promise<{ pid: number }> {
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const logPath = join(opts.dataDir, LOG_FILE);
  const logStart = existsSync(logPath) ? statSync(logPath).size : 0;
  const log = openSync(logPath, 'a', 0o600);
  const args = [ctx.environment.binPath, 'server', 'start', '--role', 'worker', '--data', opts.dataDir, '--log', '--detached-child'];
  if (opts.clock === 'manual') args.push('--clock', 'manual');
  if (opts.poolSize) args.push('--pool-size', String(opts.poolSize));
  if (opts.chaos) args.push('--chaos', resolvePath(opts.chaos));
  const env = { ...ctx.env, ...(opts.store ? { SVC_STORE: opts.store } : {}) };
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], env });
  closeSync(log);
  child.unref();
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const info = readWorkerInfo(opts.dataDir);
    if (info && info.pid === child.pid && runs(info)) return { pid: child.pid };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new CliError(whyNotStarted(logPath, logStart));
}

/**
 * Why a detached child did not start: its own `error:` line in server.log (the child is `svc server
 * start` in the foreground, whose errors main.ts writes), so both ways say the same words.
 */
function whyNotStarted(logPath: string, from: number): string {
  let written = '';
  try {
    written = readFileSync(logPath).subarray(from).toString('utf8');
  } catch {
    // no log: nothing to quote
  }
  const said = written.split('\n').filter((line) => line.startsWith('error: ')).pop();
  return said ? said.slice('error: '.length) : `the local service did not start; see ${logPath}`;
}

const FREE_PORT_HINT = 'start it on a free port with `svc server start --detach --port 0`';

/**
 * Says what holds a port this data directory's service cannot have (the same words in the
 * foreground, detached, and when a command would start the service).
 */
export async function portHeldMessage(host: string, port: number, dataDir: string): Promise<string> {
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const holder = (await probeAnswers(origin, 500)) ? 'another svc local service (one with another data directory)' : 'another program';
  return `port ${port} on ${host} is in use by ${holder}, so the local service of ${dataDir} cannot listen there; ${FREE_PORT_HINT}`;
}

/**
 * contract §1: when the active profile is `local` and nothing answers, start the service detached,
 * say so on stderr in one line, and go on. Returns true when it started one.
 */
export async function ensureLocalService(ctx: LaunchContext, baseUrl: string): Promise<boolean> {
  const url = new URL(baseUrl);
  if (!LOOPBACK.has(url.hostname)) return false;
  const port = Number(url.port || 80);
  if (await probeAnswers(baseUrl, 1000)) {
    // Something answers (a busy service's 429 too: starting another on its port would fail), but this data directory has never started a service: it is another one's
    // (a second HOME or SVC_DATA_DIR on the same port). Its keys are not ours; say so now rather
    // than fail later for want of bootstrap.json.
    if (!existsSync(join(ctx.dataDir, 'bootstrap.json'))) throw new CliError(await portHeldMessage(url.hostname, port, ctx.dataDir));
    return false;
  }
  // Said here rather than from the child's log: it would run on this same Node.
  refuseUnsupportedNode();
  const started = await spawnDetached(ctx, { host: url.hostname === 'localhost' ? '127.0.0.1' : url.hostname.replace(/^\[|\]$/g, ''), port, dataDir: ctx.dataDir });
  const keys = started.bootstrap ? `; new account, keys in ${ctx.dataDir}/bootstrap.json` : '';
  ctx.io.stderr.write(`svc: started the local service at ${started.baseUrl} (pid ${started.pid}, data ${ctx.dataDir}${keys})\n`);
  return true;
}
