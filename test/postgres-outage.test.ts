import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { assertBuilt, runSvcProcess, type CliResult } from './helpers/cli.js';
import { startPostgres, type PostgresServer, type ShutdownMode } from './helpers/postgres.js';
import { until } from './helpers/started-service.js';
import { startReceiver, type Receiver } from './webhooks-receiver.js';
import type { Bootstrap } from '../src/config/bootstrap.js';

// The database going away under a team's processes: two API replicas and a `--role worker`, each a
// real process of the built CLI, on a PostgreSQL server of this file's own that is stopped as
// `pg_ctl stop -m immediate` (sessions cut, as by a crash or a lost link) and `-m fast` (sessions
// ended with admin_shutdown), idle and under a stream of sends. Every process lives through it;
// meanwhile a request is answered at once with 503 and Retry-After, and the readiness check says the
// database is unreachable; once the server is back, each replica accepts sends again by itself and
// the worker delivers their webhooks. Nothing answered 201 is lost or stored twice.

/**
 * A request during the outage is answered well within this (a bound against a hang on a dead
 * connection: the pool gives up reaching the server after a few seconds), not a timing.
 */
const OUTAGE_ANSWER_BOUND_MS = 15_000;
/** How long after the server is back a replica may take to serve again (a bound, not a timing). */
const RECOVERY_BOUND_MS = 30_000;

let pgServer: PostgresServer;
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
const ok = (res: CliResult): CliResult => {
  expect(res.code, `${res.stdout}\n${res.stderr}`).toBe(0);
  return res;
};
// One connection pool for the file; no keep-alive, so no request is sent on a socket a replica closed.
const agent = new Agent({ pipelining: 0, headersTimeout: 2 * OUTAGE_ANSWER_BOUND_MS, bodyTimeout: 2 * OUTAGE_ANSWER_BOUND_MS });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
  ms: number;
}

async function call(baseUrl: string, method: string, path: string, key: string | null, body?: unknown): Promise<Answer> {
  const started = Date.now();
  const res = await request(`${baseUrl}${path}`, {
    method: method as 'GET',
    dispatcher: agent,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body: parsed, text, ms: Date.now() - started };
}

interface Team {
  replicas: string[];
  /** The API processes' and the worker's pids, from the records the CLI wrote. */
  pids: number[];
  bootstrap: Bootstrap;
  from: string;
  rx: Receiver;
  /** The data directories whose server.log the processes write (the first holds the worker's too). */
  logDirs: string[];
  stop(): Promise<void>;
}
let team: Team;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function startTeam(store: string): Promise<Team> {
  const home = tempDir('svc-outage-home-');
  const a = tempDir('svc-outage-a-');
  const b = tempDir('svc-outage-b-');
  const svc = (dir: string, args: string[]) => runSvcProcess(args, { env: { SVC_DATA_DIR: dir, HOME: home, SVC_STORE: store } });
  // The rate limit out of the way: the load below is about the outage, not throttling.
  const api = ['server', 'start', '--detach', '--role', 'api', '--port', '0', '--rate-limit', '100000'];
  const stop = async () => {
    await svc(a, ['server', 'stop', '--role', 'worker']);
    for (const dir of [a, b]) await svc(dir, ['server', 'stop']);
  };
  const first = ok(await svc(a, api)).stdout.trim();
  copyFileSync(join(a, 'bootstrap.json'), join(b, 'bootstrap.json'));
  const second = ok(await svc(b, api)).stdout.trim();
  ok(await svc(a, ['server', 'start', '--detach', '--role', 'worker']));
  const record = (dir: string, file: string) => (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { pid: number }).pid;
  const pids = [record(a, 'server.json'), record(b, 'server.json'), record(a, 'worker.json')];
  const bootstrap = JSON.parse(readFileSync(join(a, 'bootstrap.json'), 'utf8')) as Bootstrap;
  const rx = await startReceiver();
  const endpoint = await call(first, 'POST', '/v1/webhooks', bootstrap.liveKey, { url: rx.url, events: ['message.status'] });
  expect(endpoint.status, endpoint.text).toBe(201);
  const search = await call(first, 'POST', '/v1/numbers/search', bootstrap.testKey, { areaCode: '415', limit: 1 });
  expect(search.status, search.text).toBe(200);
  const bought = await call(first, 'POST', '/v1/numbers/buy', bootstrap.testKey, { phoneNumber: search.body.data[0].phoneNumber });
  expect(bought.status, bought.text).toBe(201);
  return { replicas: [first, second], pids, bootstrap, from: bought.body.phoneNumber as string, rx, logDirs: [a, b], stop };
}

let sends = 0;
/** A test send (the stub plays its course in the write: `sent` and `delivered` events, for the worker to deliver). */
const send = (baseUrl: string, label: string): Promise<Answer> =>
  call(baseUrl, 'POST', '/v1/messages', team.bootstrap.testKey, { to: '+14155550100', from: team.from, body: `${label} ${++sends}` });

/** Waits until the receiver got the `delivered` event of each message id; if not, says which and what the logs say. */
async function delivered(ids: string[]): Promise<void> {
  const missing = () => {
    const got = new Set(team.rx.received.filter((r) => r.body?.status === 'delivered').map((r) => r.body.messageId as string));
    return ids.filter((id) => !got.has(id));
  };
  try {
    await until(`the delivered events of ${ids.length} messages`, () => (missing().length === 0 ? true : undefined), RECOVERY_BOUND_MS);
  } catch (err) {
    const logs = team.logDirs.map((dir) => `${dir}/server.log:\n${readFileSync(join(dir, 'server.log'), 'utf8').split('\n').slice(-40).join('\n')}`);
    throw new Error(`${(err as Error).message}: ${missing().length} not delivered (${missing().slice(0, 5).join(', ')})\n${logs.join('\n')}`);
  }
}

/** What the database's absence must look like on an API replica: 503, Retry-After, our words only. */
function expectUnavailable(answer: Answer): void {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  expect(answer.body.error.code).toBe('service_unavailable');
  expect(answer.text).not.toMatch(/postgres|ECONN|terminat|shutdown|57P0|pg_|sql/i);
  expect(answer.ms).toBeLessThan(OUTAGE_ANSWER_BOUND_MS);
}

beforeAll(async () => {
  assertBuilt();
  // What a 201 promised must survive the immediate stop: commits flushed before they are acknowledged.
  pgServer = await startPostgres({ synchronousCommit: true });
  team = await startTeam(pgServer.url(await pgServer.createDatabase()));
}, 120_000);

afterAll(async () => {
  await team?.stop();
  await team?.rx.close();
  await agent.close();
  await pgServer?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('the PostgreSQL server stopped under two API replicas and a worker', () => {
  it.each(['immediate', 'fast'] as const)('idle, stopped -m %s: every process lives, answers 503 with Retry-After and not ready, and serves again by itself once the server is back', async (mode: ShutdownMode) => {
    for (const baseUrl of team.replicas) expect((await send(baseUrl, `before ${mode}`)).status).toBe(201);
    await pgServer.halt(mode);
    for (const baseUrl of team.replicas) {
      expectUnavailable(await send(baseUrl, `during ${mode}`));
      // A read too: no transaction to open is no less unavailable.
      expectUnavailable(await call(baseUrl, 'GET', '/v1/messages?limit=1', team.bootstrap.testKey));
      // Readiness says so (a load balancer stops routing here); liveness is that it answers at all.
      const ready = await until('readiness to say the database is unreachable', async () => {
        const r = await call(baseUrl, 'GET', '/healthz', null);
        return r.status === 503 ? r : undefined;
      }, OUTAGE_ANSWER_BOUND_MS);
      expect(ready.body).toEqual({ ok: false, database: 'unreachable' });
      expect(ready.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    }
    expect(team.pids.filter((pid) => !alive(pid))).toEqual([]);

    await pgServer.restart();
    const back = Date.now();
    const ids: string[] = [];
    for (const baseUrl of team.replicas) {
      const accepted = await until('a send accepted again', async () => {
        const r = await send(baseUrl, `after ${mode}`);
        return r.status === 201 ? r : undefined;
      }, RECOVERY_BOUND_MS);
      ids.push(accepted.body.id as string);
      console.log(`-m ${mode}: ${baseUrl} accepted a send ${((Date.now() - back) / 1000).toFixed(1)} s after the server was back`);
      expect((await until('ready again', async () => ((await call(baseUrl, 'GET', '/healthz', null)).status === 200 ? true : undefined), RECOVERY_BOUND_MS))).toBe(true);
    }
    // The worker delivers what was accepted after the outage.
    await delivered(ids);
    expect(team.pids.filter((pid) => !alive(pid))).toEqual([]);
  }, 90_000);

  it('under a stream of sends, stopped -m immediate: no process exits, every answer is 201 or 503, and every send answered 201 is stored once and delivered', async () => {
    const outcomes: Array<{ replica: number; status: number | string; ms: number; id?: string; at: number }> = [];
    let running = true;
    let haltedAt = Infinity;
    let backAt = Infinity;
    // Four clients, each sending to the replicas in turn, as fast as they are answered.
    const clients = Array.from({ length: 4 }, async (_, c) => {
      for (let i = c; running; i++) {
        const replica = i % team.replicas.length;
        const started = Date.now();
        try {
          const r = await send(team.replicas[replica]!, 'load');
          outcomes.push({ replica, status: r.status, ms: r.ms, at: started, ...(r.status === 201 ? { id: r.body.id as string } : {}) });
          if (r.status !== 201 && r.status !== 503) console.log(`unexpected answer ${r.status}: ${r.text}`);
        } catch (err) {
          outcomes.push({ replica, status: (err as Error).message, ms: Date.now() - started, at: started });
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    });
    const seen = (replica: number, status: number, after: number, times = 1) => outcomes.filter((o) => o.replica === replica && o.status === status && o.at >= after).length >= times;
    await until('sends accepted on both replicas', () => (seen(0, 201, 0) && seen(1, 201, 0) && outcomes.length >= 40 ? true : undefined), RECOVERY_BOUND_MS);
    await pgServer.halt('immediate');
    haltedAt = Date.now();
    // Down for a while: a few refusals each, while the worker's attempts end with no database to record them in.
    await until('both replicas answering 503', () => (seen(0, 503, haltedAt, 10) && seen(1, 503, haltedAt, 10) ? true : undefined), OUTAGE_ANSWER_BOUND_MS);
    await pgServer.restart();
    backAt = Date.now();
    await until('both replicas accepting again', () => (seen(0, 201, backAt) && seen(1, 201, backAt) ? true : undefined), RECOVERY_BOUND_MS);
    running = false;
    await Promise.all(clients);

    const during = outcomes.filter((o) => o.at >= haltedAt && o.at < backAt);
    const firstBack = Math.min(...outcomes.filter((o) => o.at >= backAt && o.status === 201).map((o) => o.at + o.ms));
    console.log(
      `under load: ${outcomes.length} sends, ${outcomes.filter((o) => o.status === 201).length} × 201, ${outcomes.filter((o) => o.status === 503).length} × 503; ` +
        `longest answer while down ${Math.max(...during.map((o) => o.ms))} ms; first 201 ${((firstBack - backAt) / 1000).toFixed(1)} s after the server was back`,
    );
    expect(outcomes.filter((o) => o.status !== 201 && o.status !== 503)).toEqual([]);
    expect(Math.max(...outcomes.map((o) => o.ms))).toBeLessThan(OUTAGE_ANSWER_BOUND_MS);
    expect(team.pids.filter((pid) => !alive(pid))).toEqual([]);

    // Every 201 is stored, once; a 503 may or may not have committed (its answer was lost with the
    // connection), but nothing is stored twice.
    const accepted = outcomes.flatMap((o) => (o.id ? [o.id] : []));
    const stored: Array<{ id: string; body: string }> = [];
    for (let cursor: string | undefined; ; ) {
      const page = await call(team.replicas[0]!, 'GET', `/v1/messages?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, team.bootstrap.testKey);
      expect(page.status, page.text).toBe(200);
      stored.push(...(page.body.data as Array<{ id: string; body: string }>));
      if (!page.body.hasMore) break;
      cursor = page.body.nextCursor ?? page.body.cursor;
    }
    const load = stored.filter((m) => m.body.startsWith('load '));
    expect(new Set(load.map((m) => m.body)).size).toBe(load.length);
    const storedIds = new Set(load.map((m) => m.id));
    expect(accepted.filter((id) => !storedIds.has(id))).toEqual([]);
    await delivered(accepted);
  }, 90_000);
});
