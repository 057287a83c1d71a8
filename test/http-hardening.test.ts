// HTTP hardening and the "Abuse" proof. Every socket goes to 127.0.0.1; the
// abusive clients connect from 127.0.0.2 (also loopback) so the per-address cap can be told apart
// from the well-behaved client's address. The service runs with lowered timeouts and caps (the
// `server` start option) so each bound is seen in about a second.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { Agent, request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { Client } from 'undici';
import { startTestService, type TestService } from './helpers/service.js';
import { createEndpoint, startReceiver, startWebhookService, type Receiver } from './webhooks-receiver.js';
import { verifyWebhookSignature } from '../src/webhooks/verify.js';
import { BODYLESS_READ_MAX_BYTES, MAX_HEADER_BYTES, MAX_JSON_DEPTH, REFUSED_BODY_READ_MAX_BYTES, SERVER_LIMITS, type ServerLimits } from '../src/api/values/http.js';

// Lowered so the proofs take seconds, yet wide enough that a loaded CI machine pausing a second
// between two steps of a test does not see a timeout fire early.
const LIMITS: ServerLimits = {
  headersTimeoutMs: 2_500,
  requestTimeoutMs: 6_000,
  keepAliveTimeoutMs: 1_500,
  timeoutCheckIntervalMs: 100,
  maxConnections: 40,
  maxConnectionsPerAddress: 12,
  // Past the headers timeout: the caps here are proven as plain caps (eviction has its own service below).
  slowHeadersGraceMs: 10_000,
  // The service's own: the slow-body bound has its tests in client-bounds.test.ts.
  bodyMinBytesPerSec: SERVER_LIMITS.bodyMinBytesPerSec,
  bodyRateWindowMs: SERVER_LIMITS.bodyRateWindowMs,
};
const ABUSER = '127.0.0.2';
/** "In time" for a well-behaved client while abusers are held: generous, this is not a benchmark. */
const ANSWER_WITHIN_MS = 5_000;
/** How late past its timeout a stalled connection may be seen closed (timer checks, a loaded machine). */
const CLOSE_SLACK_MS = 3_000;

let svc: TestService;
let rx: Receiver;
let port: number;

beforeAll(async () => {
  svc = await startWebhookService({ server: LIMITS });
  rx = await startReceiver();
  // Socket-level tests talk to the HTTP server itself (with SVC_TEST_REPLICAS, not the proxy before it).
  port = Number(new URL(svc.serverUrl).port);
});
afterAll(async () => {
  await svc?.stop();
  await rx?.close();
});

interface RawConnection {
  socket: Socket;
  /** Everything the service wrote, once it closed the connection. */
  closed: Promise<{ text: string; afterMs: number }>;
}

/** A raw TCP client: what it sends is exactly what the test writes. */
function rawConnection(opts: { from?: string; port?: number } = {}): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({ host: '127.0.0.1', port: opts.port ?? port, ...(opts.from ? { localAddress: opts.from } : {}) });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    const closed = new Promise<{ text: string; afterMs: number }>((done) => socket.on('close', () => done({ text, afterMs: Date.now() - started })));
    socket.on('error', () => {});
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** A raw HTTP/1.1 answer: status, lower-cased headers, the JSON body. */
function parseAnswer(text: string): { status: number; headers: Record<string, string>; body: any } {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  const raw = rest.join('\r\n\r\n');
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    body = raw;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/** The envelope a client error must be: the code, a Request-Id, and the connection closed after it. */
function expectEnvelope(text: string, status: number, code: string) {
  const answer = parseAnswer(text);
  expect(answer.status).toBe(status);
  expect(answer.headers['request-id']).toMatch(/^req_/);
  expect(new Date(answer.headers['service-time']!).getTime()).toBe(svc.now());
  expect(answer.headers.connection).toBe('close');
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.body.error.code).toBe(code);
  expect(typeof answer.body.error.message).toBe('string');
  return answer;
}

/** The service still answers others: a public read and an authenticated one, in time. */
async function othersAreServed(): Promise<void> {
  const started = Date.now();
  const [health, keys] = await Promise.all([svc.call('GET', '/healthz', { key: null }), svc.call('GET', '/v1/keys')]);
  expect(health.status).toBe(200);
  expect(health.body).toEqual({ ok: true });
  expect(keys.status).toBe(200);
  expect(keys.body.data.length).toBeGreaterThan(0);
  expect(Date.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
}

const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number): string => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

/**
 * Whether the endpoint signs with `secret` now, as its receiver sees it: the secret is shown only on
 * create and rotate (contract §10), so a sample delivery (POST /v1/webhooks/{id}/test, answered after
 * its one attempt, so the receiver has it) is checked with the library's own verifier.
 */
async function signsWith(endpointId: string, secret: string): Promise<boolean> {
  const res = await svc.call('POST', `/v1/webhooks/${endpointId}/test`);
  expect(res.status, res.text).toBe(200);
  expect(res.body.status).toBe('succeeded');
  const got = rx.received.find((r) => r.body?.id === res.body.eventId);
  expect(got, 'the sample delivery reached the receiver').toBeDefined();
  return verifyWebhookSignature(got!.rawBody, got!.headers['x-service-signature'] as string, secret);
}

describe('framework client errors get the envelope', () => {
  it('headers over the limit: 400 validation_error, Request-Id, Connection: close', async () => {
    const c = await rawConnection();
    c.socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(MAX_HEADER_BYTES + 1024)}\r\n\r\n`);
    const { text } = await c.closed;
    const answer = expectEnvelope(text, 400, 'validation_error');
    expect(answer.body.error.details).toEqual([{ path: ['headers'], message: expect.stringContaining('too large') }]);
  });

  it('a URL over the limit: the same envelope', async () => {
    const c = await rawConnection();
    c.socket.write(`GET /v1/messages/${'m'.repeat(MAX_HEADER_BYTES + 10)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectEnvelope((await c.closed).text, 400, 'validation_error');
  });

  it('a malformed request line: 400 validation_error in the envelope', async () => {
    const c = await rawConnection();
    c.socket.write('THIS IS NOT HTTP\r\n\r\n');
    const answer = expectEnvelope((await c.closed).text, 400, 'validation_error');
    expect(answer.body.error.details[0].path).toEqual(['request']);
  });

  it('a keep-alive client is told to close, so its next request goes out on a new connection and succeeds', async () => {
    const client = new Client(svc.serverUrl, { pipelining: 1 });
    try {
      const bad = await client.request({ method: 'GET', path: '/healthz', headers: { 'x-big': 'b'.repeat(MAX_HEADER_BYTES + 1024) } });
      const badBody = (await bad.body.json()) as any;
      expect(bad.statusCode).toBe(400);
      expect(bad.headers['request-id']).toMatch(/^req_/);
      expect(badBody.error.code).toBe('validation_error');
      for (let i = 0; i < 3; i++) {
        const ok = await client.request({ method: 'GET', path: '/healthz' });
        expect(ok.statusCode).toBe(200);
        expect(await ok.body.json()).toEqual({ ok: true });
      }
    } finally {
      await client.close();
    }
  });
});

describe('a body over the limit, written whole before the answer is read', () => {
  /**
   * Node's own http client: it writes the whole body, then reads. One keep-alive connection, to the
   * server itself (with SVC_TEST_REPLICAS, not the test's proxy: this is the server's connection).
   */
  const post = (agent: Agent, bytes: number) =>
    new Promise<{ status: number; body: any; port: number | undefined }>((resolve, reject) => {
      const req = httpRequest(
        `${svc.serverUrl}/v1/messages`,
        { agent, method: 'POST', headers: { authorization: `Bearer ${svc.bootstrap.liveKey}`, 'content-type': 'application/json', 'content-length': bytes } },
        (res) => {
          let text = '';
          const port = res.socket.localPort;
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), port }));
        },
      );
      req.on('error', reject);
      req.end(Buffer.alloc(bytes, 0x20));
    });

  it('is answered with the envelope, not a reset (the rest is read and dropped), and the connection serves the next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // Twice the 3 MB limit: more than the socket buffers hold, so closing with it unread reset the connection (EPIPE).
      const first = await post(agent, 6 * 1024 * 1024);
      expect(first.status).toBe(400);
      expect(first.body.error).toMatchObject({ code: 'validation_error', message: 'request body is larger than 3 MB', details: [{ path: ['body'] }] });
      const second = await post(agent, 6 * 1024 * 1024);
      expect(second.status).toBe(400);
      // The same connection (its client-side port): it was kept, not closed after the answer.
      expect(second.port).toBe(first.port);
    } finally {
      agent.destroy();
    }
  });

  it(`one declared over ${REFUSED_BODY_READ_MAX_BYTES / (1024 * 1024)} MB is not read: answered, and the connection closed at once`, async () => {
    const raw = await rawConnection();
    raw.socket.write(`POST /v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${svc.bootstrap.liveKey}\r\nContent-Type: application/json\r\nContent-Length: ${REFUSED_BODY_READ_MAX_BYTES + 1}\r\n\r\n`);
    const { text, afterMs } = await raw.closed;
    expectEnvelope(text, 400, 'validation_error');
    expect(afterMs).toBeLessThan(LIMITS.requestTimeoutMs);
  });
});

describe('JSON depth is bounded before anything walks the body', () => {
  it('a deep body with an Idempotency-Key to a body-less POST is a validation_error, not a 500', async () => {
    const endpoint = await createEndpoint(svc, { url: rx.url });
    for (const body of [nested(100_000), nestedObject(MAX_JSON_DEPTH + 1)]) {
      const res = await svc.call('POST', `/v1/webhooks/${endpoint.id}/rotate-secret`, {
        rawBody: body,
        headers: { 'content-type': 'application/json', 'idempotency-key': `deep-${body.length}` },
      });
      expect(res.status).toBe(400);
      expect(res.headers['request-id']).toMatch(/^req_/);
      expect(res.body.error.code).toBe('validation_error');
    }
    expect(await signsWith(endpoint.id, endpoint.secret)).toBe(true);
  });

  it(`a body nested deeper than ${MAX_JSON_DEPTH} levels is refused on ["body"]; at the limit it reaches the schema`, async () => {
    const deep = await svc.call('POST', '/v1/messages', { rawBody: `{"to":"+15550100","body":${nested(MAX_JSON_DEPTH)}}`, headers: { 'content-type': 'application/json' } });
    expect(deep.status).toBe(400);
    expect(deep.body.error).toMatchObject({ code: 'validation_error', details: [{ path: ['body'], message: `nested deeper than ${MAX_JSON_DEPTH} levels` }] });
    // One level less fits: the schema judges it (a message body is a string), naming the field.
    const atLimit = await svc.call('POST', '/v1/messages', { rawBody: `{"to":"+15550100","body":${nested(MAX_JSON_DEPTH - 1)}}`, headers: { 'content-type': 'application/json' } });
    expect(atLimit.status).toBe(400);
    const paths = atLimit.body.error.details.map((d: { path: unknown[] }) => d.path.join('.'));
    expect(paths.length).toBeGreaterThan(0);
    expect(paths).toContain('body.body');
    // Brackets inside strings are text, not nesting.
    const text = await svc.call('POST', `/v1/webhooks`, { body: { url: rx.url, description: '['.repeat(200).slice(0, 100) } });
    expect(text.status).toBe(201);
  });
});

describe('body-less POSTs and DELETEs refuse a body (contract §2)', () => {
  it('rotate-secret with an unknown field or a text body changes nothing; {} and no body rotate', async () => {
    const endpoint = await createEndpoint(svc, { url: rx.url });
    const path = `/v1/webhooks/${endpoint.id}/rotate-secret`;

    const unknown = await svc.call('POST', path, { body: { unknownField: 1 }, headers: { 'idempotency-key': 'rot-1' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'validation_error', details: [{ path: ['body', 'unknownField'], message: 'unknown field' }] });
    const text = await svc.call('POST', path, { rawBody: 'rotate please', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(400);
    expect(text.body.error).toMatchObject({ code: 'validation_error', details: [{ path: ['body'], message: 'this endpoint takes no request body' }] });
    const bytes = await svc.call('POST', path, { rawBody: Buffer.from([1, 2, 3]), headers: { 'content-type': 'application/octet-stream' } });
    expect(bytes.status).toBe(400);
    expect(bytes.body.error.details).toEqual([{ path: ['body'], message: 'this endpoint takes no request body' }]);
    const array = await svc.call('POST', path, { body: [] });
    expect(array.status).toBe(400);
    const long = await svc.call('POST', path, { body: { pad: 'p'.repeat(BODYLESS_READ_MAX_BYTES) } });
    expect(long.body.error).toMatchObject({ code: 'validation_error', details: [{ path: ['body'], message: 'this endpoint takes no request body' }] });
    expect(await signsWith(endpoint.id, endpoint.secret)).toBe(true);

    // The key of the refused request stays free: the same key with no body now rotates.
    const rotated = await svc.call('POST', path, { headers: { 'idempotency-key': 'rot-1' } });
    expect(rotated.status).toBe(200);
    expect(await signsWith(endpoint.id, rotated.body.secret)).toBe(true);
    expect(await signsWith(endpoint.id, endpoint.secret)).toBe(false);
    const withEmpty = await svc.call('POST', path, { body: {} });
    expect(withEmpty.status).toBe(200);
    expect(await signsWith(endpoint.id, withEmpty.body.secret)).toBe(true);
    expect(await signsWith(endpoint.id, rotated.body.secret)).toBe(false);
    // An empty body labelled JSON is no body either.
    const emptyJson = await svc.call('POST', path, { rawBody: '', headers: { 'content-type': 'application/json' } });
    expect(emptyJson.status).toBe(200);
    expect(await signsWith(endpoint.id, emptyJson.body.secret)).toBe(true);
    expect(await signsWith(endpoint.id, withEmpty.body.secret)).toBe(false);
  });

  it('a chunked body (no length) with a field is refused after parsing; DELETE with a body revokes nothing', async () => {
    const created = await svc.call('POST', '/v1/keys', { body: { name: 'kept', mode: 'live' } });
    expect(created.status).toBe(201);
    const client = new Client(svc.baseUrl);
    try {
      async function* chunks() {
        yield Buffer.from('{"rev');
        yield Buffer.from('oke":true}');
      }
      const res = await client.request({
        method: 'DELETE',
        path: `/v1/keys/${created.body.id}`,
        headers: { authorization: `Bearer ${svc.bootstrap.liveKey}`, 'content-type': 'application/json' },
        // An iterable body goes out chunked: the service has no length to judge it by.
        body: Readable.from(chunks()),
      });
      const body = (await res.body.json()) as any;
      expect(res.statusCode).toBe(400);
      expect(body.error.details).toEqual([{ path: ['body', 'revoke'], message: 'unknown field' }]);
    } finally {
      await client.close();
    }
    const still = await svc.call('GET', '/v1/keys', { key: created.body.key });
    expect(still.status).toBe(200);
    const revoked = await svc.call('DELETE', `/v1/keys/${created.body.id}`);
    expect(revoked.status).toBe(204);
    expect((await svc.call('GET', '/v1/keys', { key: created.body.key })).status).toBe(401);
  });
});

describe('timeouts and connection caps: the Abuse proof', () => {
  it('slow headers (a byte at a time) are cut by the headers timeout with a 408 envelope; others are served meanwhile', async () => {
    const c = await rawConnection({ from: ABUSER });
    const request = 'GET /v1/keys HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'z'.repeat(200);
    let i = 0;
    const trickle = setInterval(() => {
      if (!c.socket.destroyed && i < request.length) c.socket.write(request[i++]!);
    }, 150);
    try {
      await new Promise((r) => setTimeout(r, 300));
      await othersAreServed();
      const { text, afterMs } = await c.closed;
      expect(i).toBeGreaterThan(2);
      expect(afterMs).toBeLessThan(LIMITS.headersTimeoutMs + CLOSE_SLACK_MS);
      expectEnvelope(text, 408, 'request_timeout');
    } finally {
      clearInterval(trickle);
    }
  });

  it('a stalled body (headers and half of it) is cut with a 408 (by the body rate bound, before the request timeout); others are served meanwhile', async () => {
    const c = await rawConnection({ from: ABUSER });
    const body = JSON.stringify({ name: 'stalled', mode: 'live' });
    c.socket.write(`POST /v1/keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${svc.bootstrap.liveKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, body.length / 2)}`);
    await othersAreServed();
    const { text, afterMs } = await c.closed;
    expect(afterMs).toBeLessThan(LIMITS.requestTimeoutMs + CLOSE_SLACK_MS);
    expectEnvelope(text, 408, 'request_timeout');
    const keys = await svc.call('GET', '/v1/keys?limit=100');
    expect(keys.body.data.length).toBeGreaterThan(0);
    expect(keys.body.data.map((k: { name: string }) => k.name)).not.toContain('stalled');
  });

  it('idle connections up to the per-address cap are held, those beyond it refused with 429; others are served; the idle ones time out', async () => {
    const held = await Promise.all(Array.from({ length: LIMITS.maxConnectionsPerAddress }, () => rawConnection({ from: ABUSER })));
    const beyond = await Promise.all(Array.from({ length: 3 }, () => rawConnection({ from: ABUSER })));
    for (const c of beyond) {
      const { text, afterMs } = await c.closed;
      const answer = expectEnvelope(text, 429, 'rate_limited');
      expect(answer.headers['retry-after']).toBe('1');
      expect(afterMs).toBeLessThan(LIMITS.headersTimeoutMs);
    }
    expect(held.every((c) => !c.socket.destroyed)).toBe(true);
    await othersAreServed();
    const closed = await Promise.all(held.map((c) => c.closed));
    expect(closed.length).toBe(LIMITS.maxConnectionsPerAddress);
    for (const { text, afterMs } of closed) {
      expect(afterMs).toBeLessThan(LIMITS.headersTimeoutMs + CLOSE_SLACK_MS);
      expectEnvelope(text, 408, 'request_timeout');
    }
    // Once they are gone the address is admitted again (the service sees each close a moment after
    // the client does, so allow a few tries).
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, 100));
      const again = await rawConnection({ from: ABUSER });
      again.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      status = parseAnswer((await again.closed).text).status;
    }
    expect(status).toBe(200);
  });

  it('the total cap refuses connections from every address once reached, and admits again when they close', async () => {
    const fromAddresses = ['127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6'];
    const held: RawConnection[] = [];
    for (const from of fromAddresses) {
      for (let i = 0; i < LIMITS.maxConnections / fromAddresses.length; i++) held.push(await rawConnection({ from }));
    }
    const refused = await rawConnection({ from: '127.0.0.7' });
    const answer = expectEnvelope((await refused.closed).text, 429, 'rate_limited');
    expect(answer.body.error.message).toContain(`${LIMITS.maxConnections}`);
    for (const c of held) c.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
    await new Promise((r) => setTimeout(r, 100));
    await othersAreServed();
  });

  it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const c = await rawConnection();
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const { text, afterMs } = await c.closed;
    expect(parseAnswer(text).status).toBe(200);
    expect(afterMs).toBeGreaterThanOrEqual(LIMITS.keepAliveTimeoutMs - 200);
    expect(afterMs).toBeLessThan(LIMITS.keepAliveTimeoutMs + CLOSE_SLACK_MS);
  });

  it('held reads (events and mailbox `wait`) outlast the request timeout: it bounds receiving, not answering', async () => {
    const waitSecs = Math.ceil(LIMITS.requestTimeoutMs / 1000) + 1;
    const started = Date.now();
    const [events, mailbox] = await Promise.all([
      svc.call('GET', `/v1/events?after=now&wait=${waitSecs}`),
      svc.call('GET', `/v1/sandbox/mailbox?after=now&wait=${waitSecs}`),
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(waitSecs * 1000 - 100);
    expect(events.status).toBe(200);
    expect(events.body.data).toEqual([]);
    expect(mailbox.status).toBe(200);
    expect(mailbox.body.data).toEqual([]);
  });

  it('a slow but progressing 3 MB body is received whole after the headers timeout has passed', async () => {
    const c = await rawConnection();
    // A legal-size body (just under 3 MB) the schema then judges: a 400 on the field proves it arrived.
    const body = JSON.stringify({ to: '+15550100', body: 'x'.repeat(3 * 1024 * 1024 - 100) });
    c.socket.write(`POST /v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${svc.bootstrap.liveKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`);
    const parts = 15;
    const size = Math.ceil(body.length / parts);
    for (let i = 0; i < parts; i++) {
      c.socket.write(body.slice(i * size, (i + 1) * size));
      await new Promise((r) => setTimeout(r, (LIMITS.headersTimeoutMs + 500) / parts));
    }
    const { text, afterMs } = await c.closed;
    expect(afterMs).toBeGreaterThan(LIMITS.headersTimeoutMs);
    const answer = parseAnswer(text);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('validation_error');
    expect(answer.body.error.details.map((d: { path: unknown[] }) => d.path.join('.'))).toContain('body.body');
  });
});

describe('sockets dripping their headers do not lock out prompt clients of the same address', () => {
  // A headers timeout far longer than the test: only the eviction can make room in time.
  const DRIP_LIMITS: Partial<ServerLimits> = { headersTimeoutMs: 30_000, requestTimeoutMs: 60_000, timeoutCheckIntervalMs: 100, maxConnectionsPerAddress: 16, slowHeadersGraceMs: 300 };
  let dripSvc: TestService;
  beforeAll(async () => {
    dripSvc = await startTestService({ server: DRIP_LIMITS });
  });
  afterAll(async () => {
    await dripSvc?.stop();
  });

  it('a full address of dripping sockets: a normal request from 127.0.0.1 is served at once, the oldest dripper answered 408', async () => {
    const dripPort = Number(new URL(dripSvc.serverUrl).port);
    const cap = DRIP_LIMITS.maxConnectionsPerAddress!;
    // Every socket from 127.0.0.1, the address every local client shares.
    const drippers = await Promise.all(Array.from({ length: cap }, () => rawConnection({ port: dripPort })));
    const request = 'GET /v1/keys HTTP/1.1\r\nHost: x\r\nX-Drip: ' + 'z'.repeat(500);
    let sent = 0;
    const drip = setInterval(() => {
      for (const d of drippers) if (!d.socket.destroyed && sent < request.length) d.socket.write(request[sent]!);
      sent++;
    }, 100);
    try {
      // The service has admitted them all (a condition, not a sleep), and they are past the grace.
      for (let i = 0; i < 100; i++) {
        const n = await new Promise<number>((r) => dripSvc.app.server.getConnections((_e, count) => r(count)));
        if (n >= cap) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, DRIP_LIMITS.slowHeadersGraceMs! + 200));
      const started = Date.now();
      const normal = await rawConnection({ port: dripPort });
      normal.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      const answer = parseAnswer((await normal.closed).text);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body).toEqual({ ok: true });
      // Served long before the headers timeout would have freed a place.
      expect(Date.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
      // One dripper (the oldest the service saw) made room: answered 408 request_timeout and
      // closed; the others still drip.
      const evicted = parseAnswer((await Promise.race(drippers.map((d) => d.closed))).text);
      expect(evicted.status).toBe(408);
      expect(evicted.body.error.code).toBe('request_timeout');
      expect(evicted.headers.connection).toBe('close');
      expect(drippers.filter((d) => d.socket.destroyed).length).toBe(1);
    } finally {
      clearInterval(drip);
      for (const d of drippers) d.socket.destroy();
    }
  });
});
