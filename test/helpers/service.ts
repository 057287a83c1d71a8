import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startService, type RunningService, type StartOptions } from '../../src/server/main.js';
import { startPostgres, type PostgresServer } from './postgres.js';
import { postgresTestSql, sqliteTestSql, type TestSql } from './test-sql.js';

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
   * Walks the service clock forward in process, running due jobs in time order; unlike the sandbox
   * API it takes fractions of a second (carrier steps are 200 ms apart); it saves the clock as it goes.
   */
  advanceJobs(seconds: number): Promise<void>;
}

/**
 * Limits out of a test's way (issue 22): a test service answers what the test asked, never a `429`
 * from a bucket the test is not about. Only the tests of the limits themselves (http-hardening,
 * security-privilege, api-conventions' rate-limit block) pass limits of their own, and assert them.
 */
export const UNLIMITED = { ratePerSec: 1e9, burst: 1e9 } as const;

/**
 * SVC_TEST_STORE=postgres runs every test service of the run on PostgreSQL (issue 26): one throwaway
 * server per test process (test/helpers/postgres.ts, gone when the process exits) and a fresh
 * database per service. Unset: SQLite in the service's temporary data directory, as always.
 */
let postgresForRun: Promise<PostgresServer> | undefined;
/** A data directory's database: a service restarted on the same directory finds its data again. */
const databaseOf = new Map<string, string>();
async function storeForTestService(dataDir: string): Promise<string | undefined> {
  if (process.env.SVC_TEST_STORE !== 'postgres') return undefined;
  const server = await (postgresForRun ??= startPostgres());
  let url = databaseOf.get(dataDir);
  if (!url) databaseOf.set(dataDir, (url = server.url(await server.createDatabase())));
  return url;
}

/** The real local service on 127.0.0.1, port 0, a temp SQLite file (or `store`: a PostgreSQL database) and (by default) a manual clock. */
export async function startTestService(opts: Partial<StartOptions> = {}): Promise<TestService> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-test-'));
  const store = opts.store ?? (await storeForTestService(dataDir));
  const svc = await startService({ host: '127.0.0.1', port: 0, dataDir, clock: 'manual', rateLimit: UNLIMITED, unauthenticatedRate: UNLIMITED, guardOutsideCalls: true, ...opts, ...(store ? { store } : {}) });
  const call: TestService['call'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const key = o.key === undefined ? svc.bootstrap.liveKey : o.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | Buffer | undefined = o.rawBody;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await request(`${svc.baseUrl}${path}`, { method: method as 'GET', headers, body });
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
  return Object.assign(base, {
    dataDir,
    storeUrl: store,
    sql,
    call,
    flushWebhooks: () => svc.deps.webhooks.flush(),
    now: () => svc.deps.clock.nowMs(),
    advanceJobs: async (seconds) => void (await svc.deps.scheduler.advance(seconds)),
    async stop() {
      await sql.close();
      await svc.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  } satisfies Omit<TestService, keyof RunningService>);
}
