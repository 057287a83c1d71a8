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
/**
 * Once one request has been answered 503 the database is known lost: every request sent after that
 * must be answered within this (at once, not after a place in a queue behind connects that hang).
 */
const KNOWN_LOST_ANSWER_MS = 3_000;
/** How long the link stays cut under the steady stream: longer than a statement's and a connect's bounds together. */
const STREAM_CUT_MS = 16_000;
/** The stream's pace: about as many reads a second as the hosts bench sends to one replica. */
const STREAM_EVERY_MS = 100;
/** After the link is back, the replica serves again by itself within this: a few seconds, not a restart. */
const STREAM_RECOVERY_MS = 10_000;

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

describe('the link to PostgreSQL carries nothing under a steady stream of requests', () => {
  it('every request is answered within a client timeout (503 with Retry-After at once once the loss is known), and the replica serves again by itself soon after the link is back', async () => {
    await until('serving before the cut', async () => ((await call('/v1/messages?limit=1', bootstrap.testKey)).status === 200 ? true : undefined), RECOVERY_BOUND_MS);
    type Answer = Awaited<ReturnType<typeof call>> & { sentAt: number };
    const answers: Array<Promise<Answer>> = [];
    const send = () => {
      const sentAt = Date.now();
      answers.push(call('/v1/messages?limit=1', bootstrap.testKey).then((a) => ({ ...a, sentAt })));
    };
    // The stream keeps its pace whatever the answers do: a client of the service does not wait for
    // the one before it.
    relay.cut();
    const cutAt = Date.now();
    while (Date.now() - cutAt < STREAM_CUT_MS) {
      send();
      await new Promise((r) => setTimeout(r, STREAM_EVERY_MS));
    }
    const ready = await call('/healthz', null);
    expect(ready.status, ready.text).toBe(503);
    expect(JSON.parse(ready.text)).toEqual({ ok: false, database: 'unreachable' });
    relay.restore();
    const restoredAt = Date.now();
    // The stream goes on until the replica answers a read again, bounded.
    let servedAt: number | undefined;
    while (servedAt === undefined && Date.now() - restoredAt < STREAM_RECOVERY_MS) {
      const answer = await call('/v1/messages?limit=1', bootstrap.testKey);
      if (answer.status === 200) servedAt = Date.now();
      else send();
    }
    const during = await Promise.all(answers);
    const failedAt = Math.min(...during.filter((a) => a.status === 503).map((a) => a.sentAt + a.ms));
    const late = during.filter((a) => a.ms >= CLIENT_TIMEOUT_MS).map((a) => `${a.status} after ${a.ms} ms, sent ${a.sentAt - cutAt} ms after the cut`);
    expect(late, 'answers past a client timeout').toEqual([]);
    const slowOnceKnown = during
      .filter((a) => a.sentAt > failedAt && a.ms >= KNOWN_LOST_ANSWER_MS)
      .map((a) => `${a.status} after ${a.ms} ms, sent ${a.sentAt - cutAt} ms after the cut`);
    expect(slowOnceKnown, 'answers held once the loss was known').toEqual([]);
    for (const answer of during.filter((a) => a.sentAt < restoredAt)) {
      expect(answer.status, answer.text).toBe(503);
      expect(JSON.parse(answer.text).error.code).toBe('service_unavailable');
      expect(answer.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    }
    expect(servedAt, `a read served within ${STREAM_RECOVERY_MS} ms of the link's return`).toBeDefined();
    await until('ready again', async () => ((await call('/healthz', null)).status === 200 ? true : undefined), STREAM_RECOVERY_MS);
  }, 120_000);
});
