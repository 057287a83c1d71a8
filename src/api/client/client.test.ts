import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, MockAgent } from 'undici';
import { z } from 'zod';
import { ApiClient, type ApiClientOptions } from './client.js';
import { pageOf } from '../schemas/page.js';
import { ApiError, DryRunSignal, NetworkError, ResponseShapeError, formatRequestDescription } from './errors.js';
import { maskKey, redactSecrets } from './redact.js';

const BASE = 'http://api.test';
const KEY = 'sk_live_0123456789abcdefghijABCDEFa1b2';
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'request-id': 'req_123' };

type Seen = { method: string; path: string; headers: Record<string, string>; body: unknown };

let agent: MockAgent;
let sleeps: number[];

function client(extra: Partial<ApiClientOptions> = {}): ApiClient {
  return new ApiClient({
    baseUrl: BASE,
    apiKey: KEY,
    dispatcher: agent,
    version: '1.2.3',
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...extra,
  });
}

/** Replies with `status`/`body`, recording what the client sent. */
function reply(seen: Seen[], status: number, body?: unknown, headers: Record<string, string> = JSON_HEADERS) {
  return (opts: { method: string; path: string; headers?: unknown; body?: unknown }) => {
    seen.push({
      method: opts.method,
      path: opts.path,
      headers: lowerHeaders(opts.headers),
      body: typeof opts.body === 'string' ? JSON.parse(opts.body) : opts.body,
    });
    return { statusCode: status, data: body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body), responseOptions: { headers } };
  };
}

function lowerHeaders(h: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(h)) for (let i = 0; i < h.length; i += 2) out[String(h[i]).toLowerCase()] = String(h[i + 1]);
  else if (h && typeof h === 'object') for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = String(v);
  return out;
}

beforeEach(() => {
  agent = new MockAgent();
  agent.disableNetConnect();
  sleeps = [];
});

afterEach(async () => {
  agent.assertNoPendingInterceptors();
  await agent.close();
});

describe('headers', () => {
  it('sends auth, sub-account, accept, user agent and a JSON content type', async () => {
    const seen: Seen[] = [];
    agent.get(BASE).intercept({ path: '/v1/messages', method: 'POST' }).reply(reply(seen, 201, { id: 'msg_1' }));
    const res = await client({ subaccount: 'sub-uuid' }).request({ method: 'POST', path: '/v1/messages', body: { to: '+15550001111' } });

    expect(res).toMatchObject({ status: 201, data: { id: 'msg_1' }, requestId: 'req_123' });
    const h = seen[0]!.headers;
    expect(h.authorization).toBe(`Bearer ${KEY}`);
    expect(h['service-subaccount']).toBe('sub-uuid');
    expect(h.accept).toBe('application/json');
    expect(h['user-agent']).toBe('svc/1.2.3');
    expect(h['content-type']).toBe('application/json');
    expect(h['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[0]!.body).toEqual({ to: '+15550001111' });
  });

  it('sends no sub-account, content type or idempotency key on a plain GET', async () => {
    const seen: Seen[] = [];
    agent.get(BASE).intercept({ path: '/v1/numbers/num_1' }).reply(reply(seen, 200, { id: 'num_1' }));
    await client().request({ method: 'GET', path: '/v1/numbers/num_1' });
    const h = seen[0]!.headers;
    expect(h['service-subaccount']).toBeUndefined();
    expect(h['content-type']).toBeUndefined();
    expect(h['idempotency-key']).toBeUndefined();
  });

  it('uses the idempotency key it is given', async () => {
    const seen: Seen[] = [];
    agent.get(BASE).intercept({ path: '/v1/numbers/buy', method: 'POST' }).reply(reply(seen, 201, {}));
    await client().request({ method: 'POST', path: '/v1/numbers/buy', body: {}, idempotencyKey: 'my-key' });
    expect(seen[0]!.headers['idempotency-key']).toBe('my-key');
  });

  it('never sends the key to another origin', async () => {
    const seen: Seen[] = [];
    agent.get('http://cdn.test').intercept({ path: '/a.wav' }).reply(reply(seen, 200, 'RIFF', { 'content-type': 'audio/wav' }));
    await client({ subaccount: 's' }).requestRaw({ method: 'GET', path: 'http://cdn.test/a.wav' });
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers['service-subaccount']).toBeUndefined();
  });
});

describe('query strings', () => {
  it('skips undefined, comma-joins arrays and stringifies scalars', async () => {
    const seen: Seen[] = [];
    agent
      .get(BASE)
      .intercept({ path: '/v1/events?types=message.status,call.missed&limit=5&wait=true&to=%2B15550001111', method: 'GET' })
      .reply(reply(seen, 200, { data: [] }));
    await client().request({
      method: 'GET',
      path: '/v1/events',
      query: { types: ['message.status', 'call.missed'], limit: 5, wait: true, cursor: undefined, since: null, to: '+15550001111' },
    });
    expect(seen).toHaveLength(1);
  });
});

describe('errors', () => {
  it('turns the envelope into an ApiError with code, status, details and request id', async () => {
    const details = [{ path: ['to'], message: 'must be E.164' }];
    agent
      .get(BASE)
      .intercept({ path: '/v1/messages', method: 'POST' })
      .reply(400, { error: { code: 'validation_error', message: 'invalid request', details } }, { headers: { 'request-id': 'req_err' } });

    const err = await client().request({ method: 'POST', path: '/v1/messages', body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'validation_error', status: 400, message: 'invalid request', details, requestId: 'req_err' });
    expect((err as ApiError).envelope).toEqual({ error: { code: 'validation_error', message: 'invalid request', details } });
  });

  it('does not retry a 400', async () => {
    let calls = 0;
    agent
      .get(BASE)
      .intercept({ path: '/v1/messages', method: 'POST' })
      .reply(() => {
        calls++;
        return { statusCode: 400, data: JSON.stringify({ error: { code: 'validation_error', message: 'no' } }) };
      })
      .persist();
    await expect(client().request({ method: 'POST', path: '/v1/messages', body: {} })).rejects.toMatchObject({ code: 'validation_error' });
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('gives a non-envelope 502 (a proxy page) a code and a readable message', async () => {
    agent
      .get(BASE)
      .intercept({ path: '/v1/numbers' })
      .reply(502, '<html><head><title>502</title></head><body><h1>Bad Gateway</h1></body></html>', { headers: { 'content-type': 'text/html' } })
      .times(3);
    const err = (await client().request({ method: 'GET', path: '/v1/numbers' }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('provider_error');
    expect(err.status).toBe(502);
    expect(err.message).toContain('HTTP 502');
    expect(err.message).toContain('Bad Gateway');
    expect(err.message).not.toContain('<h1>');
  });

  it('gives a non-envelope 500 internal_error', () => {
    expect(ApiError.fromResponse(500, '', 'req_1')).toMatchObject({ code: 'internal_error', status: 500, requestId: 'req_1' });
    expect(ApiError.fromResponse(418, 'teapot').code).toBe('internal_error');
  });

  it('summarises a non-envelope body with markup left open in time proportional to it', () => {
    const hint = (body: string) => ApiError.fromResponse(502, body).message.replace('the server answered HTTP 502 without an error envelope: ', '');
    expect(hint('<style>p{}</style><p>Bad <b>Gateway</b></p><script>x()</SCRIPT> <a href="/">home</a>')).toBe('Bad Gateway home');
    expect(hint('<p>Down</p><script>never closed <a ')).toBe('Down never closed <a');
    // The regular expressions searched from every opener to the end: a megabyte took minutes.
    for (const opener of ['<a ', '<script ', '<style ']) {
      const body = `<p>Bad Gateway</p>${opener.repeat(150_000)}`;
      const before = process.cpuUsage();
      expect(hint(body).startsWith(`Bad Gateway ${opener.trim()}`), opener).toBe(true);
      const used = process.cpuUsage(before);
      expect((used.user + used.system) / 1000, opener).toBeLessThan(5_000);
    }
  });
});

describe('retries', () => {
  it('retries a 503 with the same idempotency key, then succeeds', async () => {
    const seen: Seen[] = [];
    const pool = agent.get(BASE);
    pool.intercept({ path: '/v1/messages', method: 'POST' }).reply(reply(seen, 503, { error: { code: 'provider_error', message: 'down' } }));
    pool.intercept({ path: '/v1/messages', method: 'POST' }).reply(reply(seen, 201, { id: 'msg_1' }));

    const res = await client().request({ method: 'POST', path: '/v1/messages', body: { to: '+15550001111' } });
    expect(res.data).toEqual({ id: 'msg_1' });
    expect(seen).toHaveLength(2);
    const key = seen[0]!.headers['idempotency-key'];
    expect(key).toBeTruthy();
    expect(seen[1]!.headers['idempotency-key']).toBe(key);
    // full jitter, first retry: random 0.5 × min(5000, 200·2^0)
    expect(sleeps).toEqual([100]);
  });

  it('grows the backoff exponentially and keeps it under the cap', async () => {
    const pool = agent.get(BASE);
    pool.intercept({ path: '/v1/numbers' }).reply(500, { error: { code: 'internal_error', message: 'x' } }).times(6);
    await expect(client({ random: () => 0.999, maxAttempts: 6 }).request({ method: 'GET', path: '/v1/numbers' })).rejects.toBeInstanceOf(ApiError);
    expect(sleeps).toEqual([199, 399, 799, 1598, 3196]);
    sleeps = [];
    pool.intercept({ path: '/v1/numbers' }).reply(500, { error: { code: 'internal_error', message: 'x' } }).times(8);
    await expect(client({ random: () => 0.999, maxAttempts: 8 }).request({ method: 'GET', path: '/v1/numbers' })).rejects.toBeInstanceOf(ApiError);
    expect(Math.max(...sleeps)).toBeLessThan(5000);
    expect(sleeps.at(-1)).toBe(4995);
  });

  it('honours Retry-After in seconds, capped at 30 s', async () => {
    const pool = agent.get(BASE);
    const limited = { error: { code: 'rate_limited', message: 'slow down' } };
    pool.intercept({ path: '/v1/numbers' }).reply(429, limited, { headers: { 'retry-after': '7' } });
    pool.intercept({ path: '/v1/numbers' }).reply(429, limited, { headers: { 'retry-after': '3600' } });
    pool.intercept({ path: '/v1/numbers' }).reply(200, { data: [] }, { headers: JSON_HEADERS });
    await client().request({ method: 'GET', path: '/v1/numbers' });
    expect(sleeps).toEqual([7000, 30000]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const pool = agent.get(BASE);
    const at = new Date(Date.now() + 10_000).toUTCString();
    pool.intercept({ path: '/v1/numbers' }).reply(503, '', { headers: { 'retry-after': at } });
    pool.intercept({ path: '/v1/numbers' }).reply(200, { data: [] }, { headers: JSON_HEADERS });
    await client().request({ method: 'GET', path: '/v1/numbers' });
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(8_000);
    expect(sleeps[0]).toBeLessThanOrEqual(10_000);
  });

  it('throws the last ApiError after 3 failed attempts', async () => {
    const pool = agent.get(BASE);
    pool.intercept({ path: '/v1/numbers' }).reply(500, { error: { code: 'internal_error', message: 'first' } });
    pool.intercept({ path: '/v1/numbers' }).reply(502, { error: { code: 'provider_error', message: 'second' } });
    pool.intercept({ path: '/v1/numbers' }).reply(503, { error: { code: 'provider_error', message: 'third' } }, { headers: { 'request-id': 'req_3' } });
    const err = await client().request({ method: 'GET', path: '/v1/numbers' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'provider_error', status: 503, message: 'third', requestId: 'req_3' });
    expect(sleeps).toHaveLength(2);
  });

  it('retries a connection error, then reports a NetworkError naming the base URL', async () => {
    const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4010'), { code: 'ECONNREFUSED' });
    const pool = agent.get(BASE);
    // Three interceptors, each used once: afterEach fails if any attempt did not happen.
    for (let i = 0; i < 3; i++) pool.intercept({ path: '/v1/numbers' }).replyWithError(refused());
    const err = (await client().request({ method: 'GET', path: '/v1/numbers' }).catch((e: unknown) => e)) as NetworkError;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.baseUrl).toBe(BASE);
    expect(err.code).toBe('ECONNREFUSED');
    expect(err.message).toBe(`could not reach ${BASE} (ECONNREFUSED)`);
    expect(err.cause).toBeInstanceOf(Error);
    expect(sleeps).toHaveLength(2);
  });

  it('recovers when the connection error clears', async () => {
    const pool = agent.get(BASE);
    pool.intercept({ path: '/v1/numbers' }).replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    pool.intercept({ path: '/v1/numbers' }).reply(200, { data: [] }, { headers: JSON_HEADERS });
    const res = await client().request({ method: 'GET', path: '/v1/numbers' });
    expect(res.status).toBe(200);
    expect(sleeps).toHaveLength(1);
  });

  it('classifies a real refused connection as a NetworkError', async () => {
    const port = await freePort();
    const real = new Agent({ connect: { timeout: 2_000 } });
    try {
      const c = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, dispatcher: real, sleep: async (ms) => void sleeps.push(ms) });
      const err = (await c.request({ method: 'GET', path: '/healthz' }).catch((e: unknown) => e)) as NetworkError;
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.message).toContain(`could not reach http://127.0.0.1:${port}`);
      expect(sleeps).toHaveLength(2);
    } finally {
      await real.close();
    }
  });

  it('does not turn other client errors into NetworkError', async () => {
    // No interceptor: MockAgent refuses the request; that is a bug, not an outage.
    const err = await client().request({ method: 'GET', path: '/v1/nothing' }).catch((e: unknown) => e);
    expect(err).not.toBeInstanceOf(NetworkError);
    expect(sleeps).toEqual([]);
  });
});

describe('responses', () => {
  it('returns undefined data for a 204', async () => {
    agent.get(BASE).intercept({ path: '/v1/webhooks/we_1', method: 'DELETE' }).reply(204, '', { headers: { 'request-id': 'req_d' } });
    const res = await client().request({ method: 'DELETE', path: '/v1/webhooks/we_1', schema: z.object({ id: z.string() }) });
    expect(res).toMatchObject({ status: 204, data: undefined, requestId: 'req_d' });
  });

  it('parses with the schema (defaults and all)', async () => {
    agent.get(BASE).intercept({ path: '/v1/numbers/num_1' }).reply(200, { id: 'num_1' }, { headers: JSON_HEADERS });
    const schema = z.object({ id: z.string(), label: z.string().default('none') });
    const res = await client().request({ method: 'GET', path: '/v1/numbers/num_1', schema });
    expect(res.data).toEqual({ id: 'num_1', label: 'none' });
  });

  it('says which paths did not match the schema', async () => {
    agent.get(BASE).intercept({ path: '/v1/numbers/num_1' }).reply(200, { id: 1, route: { kind: 5 } }, { headers: JSON_HEADERS });
    const schema = z.object({ id: z.string(), route: z.object({ kind: z.string() }) });
    const err = (await client().request({ method: 'GET', path: '/v1/numbers/num_1', schema }).catch((e: unknown) => e)) as ResponseShapeError;
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.message).toContain('did not match the expected shape');
    expect(err.issues.map((i) => i.path)).toEqual(['id', 'route.kind']);
    expect(err.requestId).toBe('req_123');
  });

  it('uploads a raw buffer with its content type and downloads binary', async () => {
    const seen: Seen[] = [];
    const audio = Buffer.from([0x49, 0x44, 0x33, 0x00, 0xff]);
    const pool = agent.get(BASE);
    pool
      .intercept({ path: '/v1/numbers/num_1/voicemail-greeting', method: 'PUT' })
      .reply(reply(seen, 200, { greetingAudioUrl: 'http://api.test/media/g.mp3' }));
    pool.intercept({ path: '/v1/voicemails/vm_1/audio' }).reply(200, Buffer.from([1, 2, 3, 255]), { headers: { 'content-type': 'audio/wav' } });

    const c = client();
    const up = await c.request({ method: 'PUT', path: '/v1/numbers/num_1/voicemail-greeting', body: audio, contentType: 'audio/mpeg' });
    expect(up.data).toEqual({ greetingAudioUrl: 'http://api.test/media/g.mp3' });
    expect(seen[0]!.headers['content-type']).toBe('audio/mpeg');
    expect(Buffer.from(seen[0]!.body as Uint8Array)).toEqual(audio);

    const down = await c.requestRaw({ method: 'GET', path: '/v1/voicemails/vm_1/audio' });
    expect(down.contentType).toBe('audio/wav');
    expect(down.data).toEqual(Buffer.from([1, 2, 3, 255]));
  });

  it('streams a binary download; an error status is still an ApiError, after the retries', async () => {
    const pool = agent.get(BASE);
    const wav = Buffer.alloc(256 * 1024, 7);
    pool.intercept({ path: '/v1/calls/call_1/recording' }).reply(503, { error: { code: 'internal_error', message: 'busy' } });
    pool.intercept({ path: '/v1/calls/call_1/recording' }).reply(200, wav, { headers: { 'content-type': 'audio/wav' } });
    pool.intercept({ path: '/v1/calls/call_2/recording' }).reply(404, { error: { code: 'not_found', message: 'not recorded' } });
    const c = client();
    const res = await c.requestStream({ method: 'GET', path: '/v1/calls/call_1/recording' });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('audio/wav');
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).equals(wav)).toBe(true);
    const err = (await c.requestStream({ method: 'GET', path: '/v1/calls/call_2/recording' }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('not_found');
  });
});

describe('trace', () => {
  it('logs each attempt with secrets redacted', async () => {
    const lines: string[] = [];
    const pool = agent.get(BASE);
    pool.intercept({ path: '/v1/webhooks', method: 'POST' }).reply(503, { error: { code: 'provider_error', message: 'x' } }, { headers: JSON_HEADERS });
    pool
      .intercept({ path: '/v1/webhooks', method: 'POST' })
      .reply(201, { id: 'we_1', secret: 'whsec_abcdefghijklmnopqrstuvwxyz', url: 'http://x' }, { headers: { ...JSON_HEADERS, 'request-id': 'req_ok' } });
    let t = 0;
    const c = client({ trace: (l) => lines.push(l), now: () => (t += 6) });
    await c.request({ method: 'POST', path: '/v1/webhooks', body: { url: 'http://x', secret: 'whsec_mine_0123456789', events: ['*'] } });

    const all = lines.join('\n');
    expect(lines.filter((l) => l.startsWith('→ POST http://api.test/v1/webhooks'))).toHaveLength(2);
    expect(lines).toContain('← 201 (6 ms) request-id=req_ok');
    expect(all).toContain('Authorization: Bearer sk_live_…a1b2');
    expect(all).toContain('Idempotency-Key: ');
    expect(all).not.toContain(KEY);
    expect(all).not.toContain('0123456789abcdefghij');
    expect(all).not.toContain('whsec_mine');
    expect(all).not.toContain('whsec_abcdef');
    expect(all).toContain('"secret":"[redacted]"');
    expect(all).toContain('"events":["*"]');
    expect(all).toContain('retrying in 100 ms');
  });

  it('masks keys and redacts secret fields', () => {
    expect(maskKey(KEY)).toBe('sk_live_…a1b2');
    expect(maskKey('sk_test_short')).toBe('sk_test_…');
    expect(maskKey('whsec_0123456789abcdefWXYZ')).toBe('whsec_…WXYZ');
    expect(
      redactSecrets({ apiKey: 'k', nested: [{ password: 'p', token: 't', name: 'n' }], note: KEY, count: 2, keys: [{ digit: '1' }] }),
    ).toEqual({ apiKey: '[redacted]', nested: [{ password: '[redacted]', token: '[redacted]', name: 'n' }], note: 'sk_live_…a1b2', count: 2, keys: [{ digit: '1' }] });
  });
});

describe('dry run', () => {
  it('sends nothing and describes the request', async () => {
    // No interceptors: any request would throw MockNotMatchedError, not DryRunSignal.
    const c = client({ dryRun: true, subaccount: 'sub-1' });
    const err = (await c
      .request({ method: 'POST', path: '/v1/messages', body: { to: '+15550001111', body: 'hi' }, idempotencyKey: 'k1' })
      .catch((e: unknown) => e)) as DryRunSignal;
    expect(err).toBeInstanceOf(DryRunSignal);
    expect(err.request).toEqual({
      method: 'POST',
      url: 'http://api.test/v1/messages',
      headers: {
        Accept: 'application/json',
        'User-Agent': 'svc/1.2.3',
        Authorization: 'Bearer sk_live_…a1b2',
        'Service-Subaccount': 'sub-1',
        'Idempotency-Key': 'k1',
        'Content-Type': 'application/json',
      },
      body: { to: '+15550001111', body: 'hi' },
    });
    expect(formatRequestDescription(err.request)).toMatch(/^POST http:\/\/api\.test\/v1\/messages\nAccept: application\/json\n/);
    await expect(c.requestRaw({ method: 'GET', path: '/v1/voicemails/vm_1/audio' })).rejects.toBeInstanceOf(DryRunSignal);
    await expect(c.requestStream({ method: 'GET', path: '/v1/voicemails/vm_1/audio' })).rejects.toBeInstanceOf(DryRunSignal);
    await expect(c.paginate('/v1/numbers').next()).rejects.toBeInstanceOf(DryRunSignal);
  });
});

describe('paginate', () => {
  it('follows cursors one page at a time', async () => {
    const pool = agent.get(BASE);
    const item = (id: string) => ({ id });
    pool.intercept({ path: '/v1/numbers?status=idle&limit=2' }).reply(200, { data: [item('a'), item('b')], hasMore: true, nextCursor: 'c1' }, { headers: JSON_HEADERS });
    pool.intercept({ path: '/v1/numbers?status=idle&limit=2&cursor=c1' }).reply(200, { data: [item('c'), item('d')], hasMore: true, nextCursor: 'c2' }, { headers: JSON_HEADERS });
    pool.intercept({ path: '/v1/numbers?status=idle&limit=2&cursor=c2' }).reply(200, { data: [item('e')], hasMore: false, nextCursor: null }, { headers: JSON_HEADERS });

    const pages: string[][] = [];
    for await (const page of client().paginate('/v1/numbers', { status: 'idle', limit: 2 }, pageOf(z.object({ id: z.string() })))) {
      pages.push(page.data.map((r) => r.id));
    }
    expect(pages).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('fetches lazily: stopping early requests no more pages', async () => {
    const pool = agent.get(BASE);
    pool.intercept({ path: '/v1/numbers' }).reply(200, { data: [{ id: 'a' }], hasMore: true, nextCursor: 'c1' }, { headers: JSON_HEADERS });
    for await (const page of client().paginate('/v1/numbers')) {
      expect(page.data).toHaveLength(1);
      break;
    }
    // afterEach asserts no interceptor is left pending; a fetch of c1 would have thrown here.
  });

  it('rejects a page that does not match the item schema', async () => {
    agent.get(BASE).intercept({ path: '/v1/numbers' }).reply(200, { data: [{ id: 7 }], hasMore: false, nextCursor: null }, { headers: JSON_HEADERS });
    const it = client().paginate('/v1/numbers', {}, pageOf(z.object({ id: z.string() })));
    await expect(it.next()).rejects.toBeInstanceOf(ResponseShapeError);
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
