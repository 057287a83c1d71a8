import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertBuilt, runSvcProcess, type CliResult } from './helpers/cli.js';
import { startPostgres, type PostgresServer } from './helpers/postgres.js';
import { buy } from './messages-fixtures.js';
import type { Bootstrap } from '../src/config/bootstrap.js';
import { serviceAt, until } from './helpers/started-service.js';
import { deliveryAttempts, deliveryClaimOwners, settledDeliveryCount, workerWindow } from './helpers/inspect.js';

// "every webhook delivery attempt is claimed by exactly one replica". An API process and
// TWO `--role worker` processes on one PostgreSQL database, each a real process of the built CLI
// with a data directory of its own. Events written before the workers start (a backlog both find)
// and while they run (heard through PostgreSQL's notifications) each reach a loopback receiver
// exactly once, and both workers are seen holding attempts at once: they share the work, rather than
// one doing it all beside an idle other.

const BACKLOG = 200;
const WHILE_RUNNING = 100;
/** Below the workers' 10 s acknowledgement timeout: a held request is answered before it times out. */
const HOLD_AT_MOST_MS = 7_000;

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

/**
 * A loopback receiver that holds every request unanswered while `holding` (then answers them all,
 * and every later one at once, 204), keeping each event id it received.
 */
async function holdingReceiver() {
  const ids: string[] = [];
  const held: http.ServerResponse[] = [];
  let holding = true;
  let releaseTimer: NodeJS.Timeout | undefined;
  const release = () => {
    holding = false;
    clearTimeout(releaseTimer);
    for (const res of held.splice(0)) res.writeHead(204).end();
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      ids.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id);
      if (!holding) return void res.writeHead(204).end();
      // However slow the test, no held attempt reaches its acknowledgement timeout.
      releaseTimer ??= setTimeout(release, HOLD_AT_MOST_MS);
      held.push(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    ids,
    get held() {
      return held.length;
    },
    get holding() {
      return holding;
    },
    release,
    async close() {
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('an API process and two worker processes on one PostgreSQL database', () => {
  it('every event delivered exactly once, the attempts claimed by both workers', async () => {
    const store = pgServer.url(await pgServer.createDatabase());
    const home = tempDir('svc-workers-home-');
    const roles = { api: tempDir('svc-workers-api-'), w1: tempDir('svc-workers-w1-'), w2: tempDir('svc-workers-w2-') };
    const svc = (dir: string, args: string[]) => runSvcProcess(args, { env: { SVC_DATA_DIR: dir, HOME: home, SVC_STORE: store } });
    const rx = await holdingReceiver();
    try {
      const step = (what: string) => console.log(`${new Date().toISOString()} ${what}`);
      // 300 writes as fast as the machine takes them: the default limit (contract §2, 100 a second
      // after a burst of 200) would refuse some on a fast one, and limits are not what this tests.
      const baseUrl = ok(await svc(roles.api, ['server', 'start', '--detach', '--role', 'api', '--port', '0', '--rate-limit', '100000'])).stdout.trim();
      const s = serviceAt(baseUrl, JSON.parse(readFileSync(join(roles.api, 'bootstrap.json'), 'utf8')) as Bootstrap);
      expect((await s.call('POST', '/v1/webhooks', { body: { url: rx.url, events: ['message.received'] } })).status).toBe(201);
      const to = (await buy(s)).phoneNumber as string;
      const inbound = async (n: number) => {
        const res = await s.call('POST', '/v1/sandbox/inbound-messages', { body: { to, from: '+14155550123', body: `inbound ${n}` } });
        expect(res.status, res.text).toBe(201);
      };
      const send = async (from: number, count: number) => {
        // Eight at a time: the API process writes them concurrently, as clients would.
        for (let i = from; i < from + count; i += 8) await Promise.all(Array.from({ length: Math.min(8, from + count - i) }, (_, k) => inbound(i + k)));
      };

      // A backlog, then both workers: each takes at most a window in flight and claims a window
      // ahead, all held by the receiver; what one has claimed is left to it by the other.
      await send(0, BACKLOG);
      step('backlog written');
      // Started together: the receiver holds the first one's requests until the second sends too.
      await Promise.all([roles.w1, roles.w2].map(async (dir) => ok(await svc(dir, ['server', 'start', '--detach', '--role', 'worker']))));
      step(`workers started; ${rx.held} held`);
      const window = workerWindow;
      // More requests open at once than one worker's window to the endpoint: two workers are sending.
      const open = await until('both workers sending', () => (rx.held > window || !rx.holding ? rx.held : undefined), HOLD_AT_MOST_MS);
      const owners = await deliveryClaimOwners(store);
      rx.release();
      step(`released ${open}; owners ${JSON.stringify(owners)}`);
      expect(open).toBeGreaterThan(window);
      expect(owners).toHaveLength(2);

      // Events while both run: heard through the notifications, each claimed by one of them.
      await send(BACKLOG, WHILE_RUNNING);
      const total = BACKLOG + WHILE_RUNNING;
      await until('every delivery recorded', async () => ((await settledDeliveryCount(store)) === total ? true : undefined), 60_000);
      // Stopped: no attempt of theirs is still on its way.
      ok(await svc(roles.w1, ['server', 'stop', '--role', 'worker']));
      ok(await svc(roles.w2, ['server', 'stop', '--role', 'worker']));

      const rows = await deliveryAttempts(store);
      expect(rows).toHaveLength(total);
      expect(rows.every((r) => Number(r.attempt) === 1)).toBe(true);
      expect(rx.ids).toHaveLength(total);
      expect([...rx.ids].sort()).toEqual(rows.map((r) => r.event_id).sort());
    } finally {
      for (const dir of [roles.w1, roles.w2]) await svc(dir, ['server', 'stop', '--role', 'worker']);
      await svc(roles.api, ['server', 'stop']);
      await rx.close();
    }
  }, 300_000);
});
