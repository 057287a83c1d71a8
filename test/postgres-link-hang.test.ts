import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { assertBuilt, runSvcProcess } from './helpers/cli.js';
import { startPostgres, type PostgresServer } from './helpers/postgres.js';
import { until } from './helpers/started-service.js';
import type { Bootstrap } from '../src/config/bootstrap.js';

// The link to PostgreSQL stops carrying packets while the connections stay open (a cut cable, a
// frozen host behind a switch): no error, no reset, nothing answers. A TCP relay between the service
// and its server plays the link: `cut()` keeps every socket open and passes nothing on, either way,
// new connections included. A request then is answered 503 with Retry-After within a client's
// patience, not held until the link comes back; readiness says the database is unreachable; and once
// the link carries again the service serves by itself.

/** A client's patience: the answer must come well inside it. */
const CLIENT_TIMEOUT_MS = 15_000;
/** How long after the link is back the service may take to serve again (a bound, not a timing). */
const RECOVERY_BOUND_MS = 30_000;

interface Relay {
  port: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** A TCP relay to `target`; while cut, bytes from either side are held back (not dropped, not refused). */
async function startRelay(target: number): Promise<Relay> {
  let cut = false;
  const held: Array<() => void> = [];
  const sockets = new Set<net.Socket>();
  const pass = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk) => {
      if (cut) held.push(() => to.write(chunk));
      else to.write(chunk);
    });
  };
  const server = net.createServer((down) => {
    const up = net.connect(target, '127.0.0.1');
    for (const s of [down, up]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        sockets.delete(s);
        down.destroy();
        up.destroy();
      });
    }
    pass(down, up);
    pass(up, down);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () => {
      cut = true;
    },
    restore: () => {
      cut = false;
      for (const send of held.splice(0)) send();
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let pgServer: PostgresServer;
let relay: Relay;
let dir: string;
let baseUrl: string;
let bootstrap: Bootstrap;
const agent = new Agent({ pipelining: 0, headersTimeout: 4 * CLIENT_TIMEOUT_MS, bodyTimeout: 4 * CLIENT_TIMEOUT_MS });

async function call(path: string, key: string | null) {
  const started = Date.now();
  const res = await request(`${baseUrl}${path}`, { dispatcher: agent, headers: key ? { authorization: `Bearer ${key}` } : {} });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, ms: Date.now() - started };
}

beforeAll(async () => {
  assertBuilt();
  pgServer = await startPostgres();
  const database = await pgServer.createDatabase();
  relay = await startRelay(pgServer.port);
  dir = mkdtempSync(join(tmpdir(), 'svc-link-hang-'));
  const store = pgServer.url(database).replace(`:${pgServer.port}/`, `:${relay.port}/`);
  const started = await runSvcProcess(['server', 'start', '--detach', '--port', '0', '--rate-limit', '100000', '--store', store], { env: { SVC_DATA_DIR: dir, HOME: dir } });
  expect(started.code, `${started.stdout}\n${started.stderr}`).toBe(0);
  baseUrl = started.stdout.trim();
  bootstrap = JSON.parse(readFileSync(join(dir, 'bootstrap.json'), 'utf8')) as Bootstrap;
}, 120_000);

afterAll(async () => {
  relay?.restore();
  if (dir) await runSvcProcess(['server', 'stop'], { env: { SVC_DATA_DIR: dir, HOME: dir } });
  await relay?.close();
  await agent.close();
  await pgServer?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('the link to PostgreSQL carries nothing, with its connections open', () => {
  it('a request is answered 503 with Retry-After inside a client timeout, readiness says unreachable, and the service serves again once the link is back', async () => {
    expect((await call('/v1/messages?limit=1', bootstrap.testKey)).status).toBe(200);
    relay.cut();
    // Several at once: the pool's clients all wait on the link, and the requests queued behind them too.
    const during = await Promise.all(Array.from({ length: 12 }, () => call('/v1/messages?limit=1', bootstrap.testKey)));
    for (const answer of during) {
      expect(answer.status, answer.text).toBe(503);
      expect(JSON.parse(answer.text).error.code).toBe('service_unavailable');
      expect(answer.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(answer.ms).toBeLessThan(CLIENT_TIMEOUT_MS);
    }
    const ready = await call('/healthz', null);
    expect(ready.status, ready.text).toBe(503);
    expect(JSON.parse(ready.text)).toEqual({ ok: false, database: 'unreachable' });

    relay.restore();
    await until('a read served again', async () => ((await call('/v1/messages?limit=1', bootstrap.testKey)).status === 200 ? true : undefined), RECOVERY_BOUND_MS);
    await until('ready again', async () => ((await call('/healthz', null)).status === 200 ? true : undefined), RECOVERY_BOUND_MS);
  }, 120_000);
});
