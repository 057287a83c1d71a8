// What one client may hold of the service: a body must keep arriving (or its connection is answered
// 408 and closed), held reads and console streams are counted per key, session and account (429 past
// a cap, at once), a hostile body is refused from a scan before anything parses it, and the console's
// pages count in their key's rate-limit bucket. Every socket goes to 127.0.0.1. One replica: the
// counters are each process's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { setMaxListeners } from 'node:events';
import { request } from 'undici';
import { ONE_REPLICA, startTestService, type TestService } from './helpers/service.js';
import { openConsole, consoleGet } from './console-fixtures.js';
import { SERVER_LIMITS } from '../src/api/values/http.js';
import { HOLD_LIMITS } from '../src/server/http/client-holds.js';
import { REFUSED_BODY_READ_MAX_BYTES } from '../src/api/values/http.js';
import { MAX_JSON_MEMBERS } from '../src/server/http/json-body.js';
import { MAX_ERROR_DETAILS } from '../src/api/schemas/errors.js';

/** Long enough for any of the bounds here on a loaded machine; far short of the 60 s request timeout. */
const BOUND_MS = 25_000;

let svc: TestService;
let port: number;
beforeAll(async () => {
  // The service's own body bounds, checked every 100 ms (rather than every second) so a cut is seen sooner.
  svc = await startTestService({ ...ONE_REPLICA, server: { timeoutCheckIntervalMs: 100 } });
  port = Number(new URL(svc.serverUrl).port);
});
afterAll(async () => {
  await svc?.stop();
});

interface RawConnection {
  socket: Socket;
  /** Everything the service wrote so far. */
  text: () => string;
  closed: Promise<string>;
}

function rawConnection(): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    const closed = new Promise<string>((done) => socket.on('close', () => done(text)));
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, text: () => text, closed }));
    socket.once('error', reject);
  });
}

function parseAnswer(text: string): { status: number; headers: Record<string, string>; body: any } {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  let body: unknown;
  try {
    body = JSON.parse(rest.join('\r\n\r\n'));
  } catch {
    body = rest.join('\r\n\r\n');
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

const postHead = (path: string, length: number, key: string | null) =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\n${key ? `Authorization: Bearer ${key}\r\n` : ''}Content-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

/** Writes `bytes` bytes every `everyMs` until the connection closes (or `stop` is called). */
function trickle(c: RawConnection, bytes: number, everyMs: number): () => void {
  const chunk = 'x'.repeat(bytes);
  const timer = setInterval(() => {
    if (!c.socket.destroyed && c.socket.writable) c.socket.write(chunk);
  }, everyMs);
  c.socket.on('close', () => clearInterval(timer));
  return () => clearInterval(timer);
}

async function newKey(name: string, headers: Record<string, string> = {}, mode: 'live' | 'test' = 'test'): Promise<string> {
  const res = await svc.call('POST', '/v1/keys', { body: { name, mode }, headers });
  expect(res.status, res.text).toBe(201);
  return res.body.key as string;
}

/** A held read (`wait=30`) on the first replica's own server, abortable. */
function heldRead(key: string, signal: AbortSignal): Promise<{ status: number; retryAfter: string | undefined; body: any }> {
  return request(`${svc.serverUrl}/v1/events?after=now&wait=30`, { headers: { authorization: `Bearer ${key}` }, signal }).then(async (res) => ({
    status: res.statusCode,
    retryAfter: res.headers['retry-after'] as string | undefined,
    body: await res.body.json().catch(() => undefined),
  }));
}

/** Of held reads that would each wait 30 s, the first answers: the ones refused at once. */
async function firstAnswers<T>(pending: Array<Promise<T>>): Promise<T> {
  return await Promise.race(pending);
}

describe('a body must keep arriving', () => {
  it(`a trickled body (100 bytes a second) is answered 408 and closed (under ${SERVER_LIMITS.bodyMinBytesPerSec / 1024} KB/s), not held for the request timeout; /healthz answers meanwhile`, async () => {
    const c = await rawConnection();
    c.socket.write(postHead('/v1/messages', 1_000_000, svc.bootstrap.liveKey));
    trickle(c, 20, 200);
    const health = await svc.call('GET', '/healthz', { key: null });
    expect(health.status).toBe(200);
    const answer = parseAnswer(await c.closed);
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe('close');
    expect(answer.body.error.code).toBe('request_timeout');
    expect(answer.body.error.message).toContain(`${SERVER_LIMITS.bodyMinBytesPerSec / 1024} KB/s`);
  }, BOUND_MS);

  it(`a refused body (declared ${REFUSED_BODY_READ_MAX_BYTES / (1024 * 1024)} MB: answered 400 at once, its rest read and dropped) that trickles is closed, with and without a key`, async () => {
    for (const key of [svc.bootstrap.liveKey, null]) {
      const c = await rawConnection();
      c.socket.write(postHead('/v1/messages', REFUSED_BODY_READ_MAX_BYTES, key));
      trickle(c, 20, 200);
      const answer = parseAnswer(await c.closed);
      expect(answer.status).toBe(key ? 400 : 401);
      expect(answer.body.error.code).toBe(key ? 'validation_error' : 'unauthorized');
    }
  }, BOUND_MS);
});

describe('held reads and console streams are counted per key, session and account', () => {
  it(`held reads: ${HOLD_LIMITS.heldReadsPerKey} per key, the next answered 429 at once with Retry-After`, async () => {
    const key = await newKey('held reads per key');
    const ac = new AbortController();
    setMaxListeners(1000, ac.signal);
    try {
      const reads = Array.from({ length: HOLD_LIMITS.heldReadsPerKey + 1 }, () => heldRead(key, ac.signal));
      const first = await firstAnswers(reads);
      expect(first.status).toBe(429);
      expect(first.body.error.code).toBe('rate_limited');
      expect(first.body.error.message).toContain('held reads');
      expect(Number(first.retryAfter)).toBeGreaterThanOrEqual(1);
      // The others are held (each waits 30 s for an event that does not come).
      const settled = await Promise.race([Promise.allSettled(reads).then(() => 'all answered'), new Promise((r) => setTimeout(() => r('still held'), 300))]);
      expect(settled).toBe('still held');
    } finally {
      ac.abort();
    }
  }, BOUND_MS);

  it(`an account holds at most ${HOLD_LIMITS.perAccount} (new test keys do not add room); another account is served meanwhile, and a slow body of the full account is refused`, async () => {
    const perKey = HOLD_LIMITS.heldReadsPerKey;
    const keys = await Promise.all(Array.from({ length: Math.ceil(HOLD_LIMITS.perAccount / perKey) + 1 }, (_, i) => newKey(`account cap ${i}`)));
    const ac = new AbortController();
    setMaxListeners(1000, ac.signal);
    try {
      // Each key under its own cap; together one over the account's.
      const reads = Array.from({ length: HOLD_LIMITS.perAccount + 1 }, (_, i) => heldRead(keys[Math.floor(i / perKey)]!, ac.signal));
      const first = await firstAnswers(reads);
      expect(first.status).toBe(429);
      expect(first.body.error.message).toContain('this account');

      // Another account (a sub-account with its own key) is served: its held read runs its course.
      const child = await svc.call('POST', '/v1/subaccounts', { body: { name: 'another account' } });
      expect(child.status, child.text).toBe(201);
      const childKey = await newKey('child', { 'service-subaccount': child.body.id }, 'live');
      const served = await request(`${svc.serverUrl}/v1/events?after=now&wait=1`, { headers: { authorization: `Bearer ${childKey}` } });
      expect(served.statusCode).toBe(200);
      expect(((await served.body.json()) as { data: unknown[] }).data).toEqual([]);

      // A body of the full account still arriving a window after its headers (fast enough not to be
      // cut for its rate) counts with them: 429 and closed.
      const c = await rawConnection();
      c.socket.write(postHead('/v1/messages', 3_000_000, keys[0]!));
      trickle(c, 32 * 1024, 250);
      const answer = parseAnswer(await c.closed);
      expect(answer.status).toBe(429);
      expect(answer.body.error.code).toBe('rate_limited');
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.headers.connection).toBe('close');
    } finally {
      ac.abort();
    }
  }, BOUND_MS);

  it(`console streams: ${HOLD_LIMITS.streamsPerSession} per session, the next answered 429`, async () => {
    const { cookie } = await openConsole(svc);
    const ac = new AbortController();
    setMaxListeners(1000, ac.signal);
    try {
      const opened = await Promise.all(
        Array.from({ length: HOLD_LIMITS.streamsPerSession + 1 }, () => request(`${svc.serverUrl}/console/stream`, { headers: { cookie }, signal: ac.signal })),
      );
      const statuses = opened.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([...Array(HOLD_LIMITS.streamsPerSession).fill(200), 429]);
      const refused = opened.find((r) => r.statusCode === 429)!;
      expect(refused.headers['retry-after']).toBe('1');
      expect(await refused.body.text()).toContain('console streams');
    } finally {
      ac.abort();
    }
  }, BOUND_MS);
});

describe('a hostile body is refused from a scan, before anything parses it', () => {
  it('250,000 unknown fields: the first named, the rest counted', async () => {
    const fields = 250_000;
    const body: Record<string, number> = {};
    for (let i = 0; i < fields; i++) body[`k${i}`] = 1;
    const res = await svc.call('POST', '/v1/messages', { body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    const details = res.body.error.details as Array<{ path: unknown[]; message: string; omitted?: number }>;
    expect(details[0]).toEqual({ path: ['body', 'k0'], message: 'is not a field of this request' });
    expect(details).toHaveLength(MAX_ERROR_DETAILS + 1);
    expect(details[MAX_ERROR_DETAILS]!.omitted).toBe(fields - MAX_ERROR_DETAILS);
  });

  it(`more than ${MAX_JSON_MEMBERS} object members in all (in a field that takes any names) is refused on ["body"]`, async () => {
    const metadata: Record<string, string> = {};
    for (let i = 0; i <= MAX_JSON_MEMBERS; i++) metadata[`m${i}`] = 'v';
    const res = await svc.call('POST', '/v1/emails', { body: { from: 'a@example.com', to: 'b@example.com', subject: 's', text: 't', metadata } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: ['body'], message: `holds more than ${MAX_JSON_MEMBERS} object members in all` }]);
  });
});

describe("the console counts in its key's rate-limit bucket", () => {
  let limited: TestService;
  beforeAll(async () => {
    // A token back every 5 s: the burst cannot refill mid-test.
    limited = await startTestService({ ...ONE_REPLICA, rateLimit: { ratePerSec: 0.2, burst: 10 } });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('console pages past the burst are answered 429 with Retry-After, and so is the key on the API', async () => {
    const key = (await limited.call('POST', '/v1/keys', { body: { name: 'console limited', mode: 'test' } })).body.key as string;
    const { cookie } = await openConsole(limited, key);
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof consoleGet>> | undefined;
    for (let i = 0; i < 12 && !refused; i++) {
      const page = await consoleGet(limited, '/console/keys', cookie);
      statuses.push(page.status);
      if (page.status === 429) refused = page;
    }
    expect(refused, `statuses: ${statuses.join(',')}`).toBeDefined();
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused!.headers['content-type']).toMatch(/^text\/html/);
    const api = await limited.call('GET', '/v1/keys?limit=1', { key });
    expect(api.status).toBe(429);
  });
});
