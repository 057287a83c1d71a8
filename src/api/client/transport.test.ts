// The node:http transport (what every CLI command sends with) against real loopback servers: the
// request as sent, keep-alive reuse, the two timeouts, an abort, a refused connection, a streamed
// body, and the client's retries on top of it (no dispatcher injected).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeTransport, TransportTimeoutError } from './transport.js';
import { ApiClient } from './client.js';
import { NetworkError } from './errors.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server };
}

const opts = (extra: Partial<Parameters<ReturnType<typeof nodeTransport>['send']>[1]> = {}) => ({
  method: 'GET' as const,
  headers: {},
  body: null,
  signal: null,
  headersTimeout: 2_000,
  bodyTimeout: 2_000,
  ...extra,
});

async function text(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const c of body) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

describe('nodeTransport', () => {
  it('sends method, path, query, headers and a body with its length; answers status, headers and body', async () => {
    const { url } = await serve((req, res, body) => {
      res.writeHead(201, { 'content-type': 'application/json', 'request-id': 'req_1' });
      res.end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization, length: req.headers['content-length'], body }));
    });
    const t = nodeTransport({ keepAliveTimeout: 1_000 });
    const res = await t.send(`${url}/v1/messages?x=1`, opts({ method: 'POST', headers: { Authorization: 'Bearer k' }, body: '{"to":"é"}' }));
    expect(res.statusCode).toBe(201);
    expect(res.headers['request-id']).toBe('req_1');
    expect(JSON.parse(await text(res.body))).toEqual({ method: 'POST', url: '/v1/messages?x=1', auth: 'Bearer k', length: '11', body: '{"to":"é"}' });
    await t.close();
  });

  it('reuses one keep-alive connection for consecutive requests, and close() ends it', async () => {
    const ports = new Set<number>();
    const { url, server } = await serve((req, res) => {
      ports.add(req.socket.remotePort!);
      res.end('ok');
    });
    const t = nodeTransport({ keepAliveTimeout: 5_000 });
    for (let i = 0; i < 3; i++) expect(await text((await t.send(url, opts())).body)).toBe('ok');
    expect(ports.size).toBe(1);
    await t.close();
    await new Promise((r) => setTimeout(r, 50));
    const open = await new Promise<number>((r) => server.getConnections((_, n) => r(n)));
    expect(open).toBe(0);
  });

  it('gives up on headers that do not come, and on a body that stops, with a retryable code', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/stalled-body') {
        res.writeHead(200);
        res.write('part');
      } // '/silent' never answers
    });
    const t = nodeTransport({ keepAliveTimeout: 1_000 });
    const silent = await t.send(`${url}/silent`, opts({ headersTimeout: 150 })).catch((e: unknown) => e);
    expect(silent).toBeInstanceOf(TransportTimeoutError);
    expect((silent as TransportTimeoutError).code).toBe('ETIMEDOUT');
    const res = await t.send(`${url}/stalled-body`, opts({ bodyTimeout: 150 }));
    const stalled = await text(res.body).catch((e: unknown) => e);
    expect(stalled).toBeInstanceOf(TransportTimeoutError);
    expect((stalled as Error).message).toContain('body');
    await t.close();
  });

  it('stops at an abort, and reports a refused connection with its code', async () => {
    const { url } = await serve(() => undefined);
    const t = nodeTransport({ keepAliveTimeout: 1_000 });
    const abort = new AbortController();
    const pending = t.send(url, opts({ signal: abort.signal }));
    setTimeout(() => abort.abort(), 50);
    expect(((await pending.catch((e: unknown) => e)) as Error).name).toBe('AbortError');
    const port = await freePort();
    const refused = (await t.send(`http://127.0.0.1:${port}/`, opts()).catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(refused.code).toBe('ECONNREFUSED');
    await t.close();
  });

  it('hands a body over unread, chunk by chunk', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.write(Buffer.alloc(64 * 1024, 1));
      setTimeout(() => res.end(Buffer.alloc(10, 2)), 20);
    });
    const t = nodeTransport({ keepAliveTimeout: 1_000 });
    const res = await t.send(url, opts());
    let bytes = 0;
    for await (const c of res.body) bytes += c.length;
    expect(bytes).toBe(64 * 1024 + 10);
    await t.close();
  });
});

describe('ApiClient on node:http', () => {
  it('retries a 503 and a refused connection the same way as through a dispatcher', async () => {
    let calls = 0;
    const { url } = await serve((_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(503, { 'retry-after': '0' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const sleeps: number[] = [];
    const c = new ApiClient({ baseUrl: url, apiKey: 'k', sleep: async (ms) => void sleeps.push(ms) });
    expect((await c.request({ method: 'GET', path: '/v1/x' })).data).toEqual({ ok: true });
    expect(calls).toBe(2);
    await c.close();

    const port = await freePort();
    const down = new ApiClient({ baseUrl: `http://127.0.0.1:${port}`, sleep: async (ms) => void sleeps.push(ms) });
    const err = (await down.request({ method: 'GET', path: '/healthz' }).catch((e: unknown) => e)) as NetworkError;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('ECONNREFUSED');
    expect(sleeps).toHaveLength(3); // one Retry-After wait, then two backoffs before the third try
    await down.close();
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createNetServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
