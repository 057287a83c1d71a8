import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startService, type RunningService, type StartOptions } from '../../src/server/main.js';
export type { StartOptions } from '../../src/server/main.js';
import { startPostgres, type PostgresServer } from './postgres.js';
import { startReplicaProxy, type ReplicaProxy } from './replicas.js';
import { postgresTestSql, sqliteTestSql, type TestSql } from './test-sql.js';
import { writeBootstrap } from '../../src/config/bootstrap.js';
import { staticResolver, type Resolver } from '../../src/server/webhooks/resolver.js';

export interface TestService extends RunningService {
  dataDir: string;
  /** The PostgreSQL database's URL when the service runs on one; undefined on SQLite. */
  storeUrl: string | undefined;
  /** SQL on the service's database, on either engine (test/helpers/test-sql.ts). */
  sql: TestSql;
  /** A raw HTTP call on loopback; `key` defaults to the bootstrap live key, `null` sends none. */
  call(method: string, path: string, opts?: { body?: unknown; key?: string | null; headers?: Record<string, string>; rawBody?: string | Buffer }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any; text: string }>;
  stop(): Promise<void>;
  /** Sends every webhook delivery due now and waits for all attempts in flight. */
  flushWebhooks(): Promise<void>;
  /** The service clock, in epoch milliseconds. */
  now(): number;
  /**
   * Sets a manual clock in process, on every replica (each keeps the clock in memory: `deps.clock.setTo`
   * would move the first one's only). Nothing due runs and nothing is saved, as with `setTo`.
   */
  setClock(ms: number): void;
  /**
   * The first replica's own HTTP server, never the proxy: where a socket-level test of the server
   * (its timeouts, connection caps, what Node's parser refuses) connects. `baseUrl` without replicas.
   */
  serverUrl: string;
  /** With SVC_TEST_REPLICAS=N: every replica (the first one's `RunningService` first); else just this one. */
  replicas: RunningService[];
  /**
   * Walks the service clock forward in process, running due jobs in time order; unlike the sandbox
   * API it takes fractions of a second (carrier steps are 200 ms apart); it saves the clock as it goes.
   */
  advanceJobs(seconds: number): Promise<void>;
}

/**
 * Limits out of a test's way: a test service answers what the test asked, never a `429`
 * from a bucket the test is not about. Only the tests of the limits themselves (http-hardening,
 * security-privilege, api-conventions' rate-limit block) pass limits of their own, and assert them.
 */
export const UNLIMITED = { ratePerSec: 1e9, burst: 1e9 } as const;

/**
 * SVC_TEST_STORE=postgres runs every test service of the run on PostgreSQL: one throwaway
 * server per test process (test/helpers/postgres.ts, gone when the process exits) and a fresh
 * database per service. Unset: SQLite in the service's temporary data directory, as always.
 */
let postgresForRun: Promise<PostgresServer> | undefined;
/** A data directory's database: a service restarted on the same directory finds its data again. */
const databaseOf = new Map<string, string>();
async function storeForTestService(dataDir: string): Promise<string | undefined> {
  if (process.env.SVC_TEST_STORE !== 'postgres' && replicaCount() === 1) return undefined;
  const server = await (postgresForRun ??= startPostgres());
  let url = databaseOf.get(dataDir);
  if (!url) databaseOf.set(dataDir, (url = server.url(await server.createDatabase())));
  return url;
}

/**
 * SVC_TEST_REPLICAS=N (N >= 2) runs each test service as N replicas on one PostgreSQL
 * database (SVC_TEST_STORE=postgres is then implied), each with a data directory of its own holding
 * the first one's bootstrap.json, and `baseUrl` is a loopback proxy that sends each request to the
 * next replica in turn (./replicas.ts). `deps`, `advanceJobs` and `now` are the first replica's
 * (`replicas` has them all); `flushWebhooks` flushes each. CI's PostgreSQL pass runs with two
 * (`npm run test:replicas`).
 */
function replicaCount(): number {
  const n = Number(process.env.SVC_TEST_REPLICAS ?? '1');
  if (!Number.isInteger(n) || n < 1) throw new Error(`SVC_TEST_REPLICAS=${process.env.SVC_TEST_REPLICAS}: give a whole number, 1 or more`);
  return n;
}
/** The extra replicas' data directories, by the first one's (a restarted service finds them again). */
const replicaDirsOf = new Map<string, string[]>();

async function startReplicas(first: RunningService, dataDir: string, opts: Partial<StartOptions>, store: string, port: number, count: number): Promise<{ proxy: ReplicaProxy; others: RunningService[]; dirs: string[] }> {
  let dirs = replicaDirsOf.get(dataDir);
  if (!dirs) replicaDirsOf.set(dataDir, (dirs = Array.from({ length: count - 1 }, () => mkdtempSync(join(tmpdir(), 'svc-test-replica-')))));
  const others: RunningService[] = [];
  try {
    for (const dir of dirs) {
      // The first replica's keys: a replica on a bootstrapped database makes none of its own.
      if (existsSync(join(dataDir, 'bootstrap.json'))) copyFileSync(join(dataDir, 'bootstrap.json'), join(dir, 'bootstrap.json'));
      others.push(await startService({ host: '127.0.0.1', clock: 'manual', rateLimit: UNLIMITED, unauthenticatedRate: UNLIMITED, guardOutsideCalls: true, ...opts, port: 0, dataDir: dir, store }));
    }
    const proxy = await startReplicaProxy([first.baseUrl, ...others.map((o) => o.baseUrl)], port);
    // Limits are shared from the start: each replica counts the others before the test's first request.
    await untilAllReplicas([first, ...others], (r) => r.deps.store.peers?.count() === count, 'each replica counts the others');
    return { proxy, others, dirs };
  } catch (err) {
    for (const o of others) await o.close();
    throw err;
  }
}

/**
 * Waits until `holds` is true of every replica (a notification from another replica arrives a few
 * milliseconds after its commit). Polls every 5 ms; a bound for a hang, not a timing check.
 */
async function untilAllReplicas(all: RunningService[], holds: (r: RunningService) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!all.every(holds)) {
    if (Date.now() > deadline) throw new Error(`replicas: waited 30 s for this and it never held: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * What only one replica can show (test/helpers/sqlite-only.ts SINGLE_REPLICA_TESTS says which tests
 * and why): a service started with this is one process even in the replicas pass, on PostgreSQL
 * there all the same, so the test still runs on that engine (with `itOnOneReplica`, which checks it).
 */
export const ONE_REPLICA = { replicas: 1 } as const;

/** The real local service on 127.0.0.1, port 0, a temp SQLite file (or `store`: a PostgreSQL database) and (by default) a manual clock. */
export async function startTestService(opts: Partial<StartOptions> & { keysFrom?: { dataDir: string }; replicas?: number } = {}): Promise<TestService> {
  const { keysFrom, replicas: replicasAsked, ...startOpts } = opts;
  opts = startOpts;
  // The run's (SVC_TEST_REPLICAS), unless the test asked for one (ONE_REPLICA).
  const count = replicasAsked ?? replicaCount();
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-test-'));
  // Another replica on the same database: its keys (a replica joining a bootstrapped database makes none).
  if (keysFrom) copyFileSync(join(keysFrom.dataDir, 'bootstrap.json'), join(dataDir, 'bootstrap.json'));
  const store = opts.store ?? (await storeForTestService(dataDir));
  // With replicas, a port asked for is the proxy's (the service's address); each replica takes any.
  const replicated = store !== undefined && count > 1;
  const svc = await startService({ host: '127.0.0.1', port: 0, dataDir, clock: 'manual', rateLimit: UNLIMITED, unauthenticatedRate: UNLIMITED, guardOutsideCalls: true, ...opts, ...(replicated ? { port: 0 } : {}), ...(store ? { store } : {}) });
  const replicas = replicated ? await startReplicas(svc, dataDir, opts, store, opts.port ?? 0, count) : undefined;
  const baseUrl = replicas?.proxy.baseUrl ?? svc.baseUrl;
  const call: TestService['call'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const key = o.key === undefined ? svc.bootstrap.liveKey : o.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | Buffer | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await request(`${baseUrl}${path}`, { method: method as 'GET', headers, body });
    const text = await res.body.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.statusCode, headers: res.headers as Record<string, string>, body: parsed, text };
  };
  // The running service's own properties, getters kept as getters (`db` throws on PostgreSQL when read).
  const base = Object.defineProperties({}, Object.getOwnPropertyDescriptors(svc)) as RunningService;
  const sql = store ? postgresTestSql(store) : sqliteTestSql(() => svc.db);
  const all = [svc, ...(replicas?.others ?? [])];
  if (replicas) {
    // The service's address is the proxy's, as a team's is its load balancer's: in the keys the
    // test reads and in bootstrap.json, where the CLI finds the service.
    const bootstrap = { ...svc.bootstrap, baseUrl };
    writeBootstrap(dataDir, bootstrap);
    Object.defineProperty(base, 'baseUrl', { value: baseUrl, enumerable: true });
    Object.defineProperty(base, 'bootstrap', { value: bootstrap, enumerable: true });
  }
  // The manual clock moved in this process (advanceJobs) is the one clock: the call returns once
  // every replica has followed it, so the test's next request finds it wherever it lands.
  const clockFollowed = () => untilAllReplicas(all, (r) => r.deps.clock.nowMs() >= svc.deps.clock.nowMs(), "every replica's clock reaches the first one's");
  let closed = false;
  // The service stops as a whole: every replica and the proxy (a test that restarts on the same
  // data directory starts them all again, on their data directories).
  const close = async () => {
    if (closed) return;
    closed = true;
    for (const other of replicas?.others ?? []) await other.close();
    await svc.close();
    await replicas?.proxy.close();
  };
  return Object.assign(base, {
    dataDir,
    serverUrl: svc.baseUrl,
    storeUrl: store,
    sql,
    call,
    // Every replica's: an attempt another replica claimed is in flight there, not here.
    flushWebhooks: async () => {
      for (const r of all) await r.deps.webhooks.flush();
    },
    now: () => svc.deps.clock.nowMs(),
    setClock: (ms) => {
      for (const r of all) r.deps.clock.setTo(ms);
    },
    replicas: all,
    advanceJobs: async (seconds) => {
      await svc.deps.scheduler.advance(seconds);
      await clockFollowed();
    },
    close,
    async stop() {
      await sql.close();
      await close();
      if (!opts.dataDir) for (const dir of replicas?.dirs ?? []) rmSync(dir, { recursive: true, force: true });
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  } satisfies Omit<TestService, keyof RunningService> & Pick<RunningService, 'close'>);
}

const isLoopback = (address: string) => address.startsWith('127.') || address === '::1';

/**
 * Start options for webhook delivery (and decision requests) that can only reach loopback: a stub
 * resolver (names resolve from `dns` and `localhost`, nothing goes to real DNS) and a loopback-only
 * destination guard (a bug cannot send traffic off the machine).
 */
export function loopbackOnlyWebhooks(dns: Record<string, string | string[]> = {}): { resolver: Resolver; destinationGuard: (address: string) => boolean } {
  return { resolver: staticResolver({ localhost: '127.0.0.1', ...dns }), destinationGuard: isLoopback };
}
