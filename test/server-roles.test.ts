import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertBuilt, runSvcProcess, type CliResult } from './helpers/cli.js';
import { startPostgres, type PostgresServer } from './helpers/postgres.js';
import { startReceiver, type Receiver } from './webhooks-receiver.js';
import { buy, liveNumber } from './messages-fixtures.js';
import type { Bootstrap } from '../src/config/bootstrap.js';
import { startTestService } from './helpers/service.js';
import { serviceAt, until } from './helpers/started-service.js';
import { DB_FILE } from '../src/api/values/local-service.js';
import { revokeKeyFromAnotherConnection } from './helpers/inspect.js';

// `svc server start --role api|worker|all`, as a user runs it: an API process and a
// worker process on one data directory (SQLite: the worker a second process on the same file) and on
// PostgreSQL. The API process alone serves requests; the worker makes every webhook attempt and runs
// every job (a clock advance through the API is run by the worker and answered after it); stopping
// the worker stops deliveries, starting it again resumes them, nothing lost.

let pgServer: PostgresServer;
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  assertBuilt();
  pgServer = await startPostgres();
});
afterAll(async () => {
  await pgServer?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ok = (res: CliResult): CliResult => {
  expect(res.code, `${res.stdout}\n${res.stderr}`).toBe(0);
  return res;
};

const eventIds = (rx: Receiver) => new Set(rx.received.map((r) => r.body?.id as string));

describe.each(['sqlite', 'postgres'] as const)('an API process and a worker process (%s)', (engine) => {
  it('the API alone serves; the worker delivers; stopping the worker stops deliveries, starting it again resumes them, nothing lost', async () => {
    const dataDir = tempDir('svc-roles-');
    const env: Record<string, string> = { SVC_DATA_DIR: dataDir, HOME: tempDir('svc-roles-home-') };
    if (engine === 'postgres') env.SVC_STORE = pgServer.url(await pgServer.createDatabase());
    const svc = (args: string[]) => runSvcProcess(args, { env });
    const rx = await startReceiver();
    try {
      const api = ok(await svc(['server', 'start', '--detach', '--role', 'api', '--port', '0', '--clock', 'manual']));
      const baseUrl = api.stdout.trim();
      ok(await svc(['server', 'start', '--detach', '--role', 'worker', '--clock', 'manual']));
      const status = JSON.parse(ok(await svc(['server', 'status', '-o', 'json'])).stdout);
      expect(status).toMatchObject({ running: true, baseUrl, roles: 'api,worker' });
      expect(status.workerPid).toEqual(expect.any(Number));
      expect(status.workerPid).not.toBe(status.pid);

      const bootstrap = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as Bootstrap;
      const s = serviceAt(baseUrl, bootstrap);
      expect((await s.call('POST', '/v1/webhooks', { body: { url: rx.url } })).status).toBe(201);
      // The campaign's approval is a job: the advances it takes are run by the worker.
      const sender = await liveNumber(s);
      const sent = await s.call('POST', '/v1/messages', { body: { to: '+14155550100', from: sender.phoneNumber, body: 'through the api' } });
      expect(sent.status, sent.text).toBe(201);
      // The carrier's reports are jobs; the advance returns once the worker has run them and made their attempts.
      const advanced = await s.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 2 } });
      expect(advanced.status, advanced.text).toBe(200);
      expect(advanced.body.ran.map((r: { kind: string }) => r.kind)).toContain('webhooks.first_attempt');
      const delivered = await until('the first send delivered', () =>
        rx.received.some((r) => r.body?.type === 'message.status' && r.body?.messageId === sent.body.id && r.body?.status === 'delivered') ? true : undefined,
      );
      expect(delivered).toBe(true);

      // The worker stops: the API still accepts, nothing is attempted.
      expect(ok(await svc(['server', 'stop', '--role', 'worker'])).stderr).toContain('stopped the local service worker');
      expect(JSON.parse(ok(await svc(['server', 'status', '-o', 'json'])).stdout)).toMatchObject({ running: true, roles: 'api', workerPid: null });
      const before = rx.received.length;
      const inboundNumber = await buy(s);
      const inbound = await s.call('POST', '/v1/sandbox/inbound-messages', { body: { to: inboundNumber.phoneNumber, from: '+14155550123', body: 'while the worker is down' } });
      expect(inbound.status, inbound.text).toBe(201);
      const second = await s.call('POST', '/v1/messages', { body: { to: '+14155550101', from: sender.phoneNumber, body: 'queued while the worker is down' } });
      expect(second.status, second.text).toBe(201);
      const endpoints = (await s.call('GET', '/v1/webhooks')).body.data as Array<{ id: string }>;
      const pending = (await s.call('GET', `/v1/webhooks/${endpoints[0]!.id}/deliveries?status=pending`)).body.data as Array<{ eventType: string; attempt: number }>;
      expect(pending).toEqual([expect.objectContaining({ eventType: 'message.received', attempt: 0 })]);
      expect(rx.received.length).toBe(before);
      if (engine === 'sqlite') {
        // The API can tell no worker holds the data directory: the advance is refused, not left waiting.
        const refused = await s.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 2 } });
        expect(refused.status).toBe(409);
        expect(refused.body.error.message).toContain('svc server start --role worker');
      }

      // The worker again: what waited is delivered, and the second send's reports after an advance.
      ok(await svc(['server', 'start', '--detach', '--role', 'worker', '--clock', 'manual']));
      await until('the inbound message delivered', () => (rx.received.some((r) => r.body?.type === 'message.received') ? true : undefined));
      expect((await s.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 2 } })).status).toBe(200);
      await until('the second send delivered', () =>
        rx.received.some((r) => r.body?.type === 'message.status' && r.body?.messageId === second.body.id && r.body?.status === 'delivered') ? true : undefined,
      );
      // Nothing lost: every event of the feed reached the receiver.
      const feed = (await s.call('GET', '/v1/events?limit=100')).body.data as Array<{ eventId: string }>;
      const got = eventIds(rx);
      expect(feed.length).toBeGreaterThan(0);
      expect(feed.filter((e) => !got.has(e.eventId))).toEqual([]);
    } finally {
      await svc(['server', 'stop']);
      await rx.close();
    }
  });
});

// The README's team layout: a worker in a data directory of its own (~/svc-w), the API elsewhere.
// Its status is a running, healthy worker and the database it serves, exit 0; stopped, exit 1.
describe.each(['sqlite', 'postgres'] as const)('svc server status of a worker-only data directory (%s)', (engine) => {
  it('reports the worker running, healthy, and the database whose jobs and deliveries it runs', async () => {
    const apiDir = tempDir('svc-status-api-');
    const workerDir = tempDir('svc-status-w-');
    const env: Record<string, string> = { HOME: tempDir('svc-status-home-') };
    let store = join(workerDir, DB_FILE);
    if (engine === 'postgres') {
      env.SVC_STORE = pgServer.url(await pgServer.createDatabase());
      store = env.SVC_STORE;
    }
    const svc = (args: string[]) => runSvcProcess(args, { env });
    try {
      // On PostgreSQL the API runs elsewhere on the same database; on SQLite a worker alone has its file.
      if (engine === 'postgres') ok(await svc(['server', 'start', '--detach', '--data', apiDir, '--port', '0', '--role', 'api']));
      ok(await svc(['server', 'start', '--detach', '--data', workerDir, '--role', 'worker']));
      const res = ok(await svc(['server', 'status', '--data', workerDir, '-o', 'json']));
      const status = JSON.parse(res.stdout);
      expect(status).toMatchObject({ running: true, pid: null, roles: 'worker', workerPid: expect.any(Number), dataDir: workerDir, startedAt: expect.any(String) });
      // The URL as the data directory recorded it: a password would read "redacted".
      expect(status.store).toBe(store.replace(/:[^:@/]+@/, ':redacted@'));
      expect(res.stderr).toContain(`the worker (pid ${status.workerPid}) runs the jobs and webhook deliveries of`);
      expect(res.stderr).not.toContain('--role api:');

      ok(await svc(['server', 'stop', '--data', workerDir]));
      const stopped = await svc(['server', 'status', '--data', workerDir, '-o', 'json']);
      expect(stopped.code).toBe(1);
      expect(JSON.parse(stopped.stdout)).toMatchObject({ running: false, roles: 'none', workerPid: null });
    } finally {
      await svc(['server', 'stop', '--data', workerDir]);
      await svc(['server', 'stop', '--data', apiDir]);
    }
  });
});

describe('one process per half of a data directory', () => {
  it('refuses a second worker, a second API, and a worker beside `all`, naming what runs (exit 5)', async () => {
    const dataDir = tempDir('svc-roles-lock-');
    const env = { SVC_DATA_DIR: dataDir, HOME: tempDir('svc-roles-home-') };
    const svc = (args: string[]) => runSvcProcess(args, { env });
    try {
      ok(await svc(['server', 'start', '--detach', '--role', 'worker']));
      const worker = await svc(['server', 'start', '--role', 'worker']);
      expect(worker.code).toBe(5);
      expect(worker.stderr).toContain('a local service worker is already running');
      const all = await svc(['server', 'start', '--port', '0']);
      expect(all.code).toBe(5);
      expect(all.stderr).toContain('svc server stop --role worker');
      ok(await svc(['server', 'start', '--detach', '--role', 'api', '--port', '0']));
      const api = await svc(['server', 'start', '--role', 'api', '--port', '0']);
      expect(api.code).toBe(5);
      expect(api.stderr).toContain('already running');
      ok(await svc(['server', 'stop']));
      ok(await svc(['server', 'start', '--detach', '--port', '0']));
      const beside = await svc(['server', 'start', '--role', 'worker']);
      expect(beside.code).toBe(5);
      expect(JSON.parse(ok(await svc(['server', 'status', '-o', 'json'])).stdout)).toMatchObject({ roles: 'api,worker' });
    } finally {
      await svc(['server', 'stop']);
    }
  });

  it('refuses a role that is not one, from the flag or SVC_ROLE, naming the flag (exit 2)', async () => {
    const dataDir = tempDir('svc-roles-bad-');
    const flag = await runSvcProcess(['server', 'start', '--role', 'web', '--data', dataDir]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--role');
    const fromEnv = await runSvcProcess(['server', 'start', '--data', dataDir], { env: { SVC_ROLE: 'web' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('--role');
  });
});

describe('an API process beside another process on the same SQLite file', () => {
  it('refuses a key revoked by the other process on its very next request (the key it held is forgotten)', async () => {
    const svc = await startTestService({ role: 'api' });
    try {
      const made = await svc.call('POST', '/v1/keys', { body: { name: 'ci', mode: 'live' } });
      expect(made.status, made.text).toBe(201);
      const key = made.body.key as string;
      expect((await svc.call('GET', '/v1/numbers', { key })).status).toBe(200);
      expect((await svc.call('GET', '/v1/numbers', { key })).status).toBe(200);
      // The other process: its own connection on the same file (a worker, a second tool).
      await revokeKeyFromAnotherConnection(svc.dataDir, made.body.id, Date.now());
      const refused = await svc.call('GET', '/v1/numbers', { key });
      expect(refused.status).toBe(401);
    } finally {
      await svc.stop();
    }
  });
});
