// The webhook HTTP senders on their own (node:http, and undici for a --role worker process), against
// loopback receivers: when the acknowledgement timeout starts, connections per host:port, where they
// connect and what they read of an answer. Both must behave alike.
import http from 'node:http';
import tls from 'node:tls';
import { readFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RESPONSE_BODY_LIMIT, type PostRequest, type SenderOptions, type WebhookSender } from './http-post.js';
import { WebhookHttpSender } from './http-sender.js';
import { UndiciWebhookSender } from './undici-sender.js';
import { startReceiver, type Receiver } from '../../../test/webhooks-receiver.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanup.length) await cleanup.pop()!();
});

const SENDERS: Array<[string, new (opts: SenderOptions) => WebhookSender]> = [
  ['node:http', WebhookHttpSender],
  ['undici', UndiciWebhookSender],
];

describe.each(SENDERS)('the %s sender', (_name, Sender) => {
  async function setup(maxSocketsPerOrigin: number): Promise<{ rx: Receiver; sender: WebhookSender; post: (path: string, extra?: Partial<PostRequest>) => ReturnType<WebhookSender['post']> }> {
    const rx = await startReceiver((r) => (r.path.startsWith('/slow') ? { hang: true } : { status: 200 }));
    cleanup.push(() => rx.close());
    const sender = new Sender({ maxSocketsPerOrigin });
    cleanup.push(() => sender.close());
    const post = (path: string, extra: Partial<PostRequest> = {}) =>
      sender.post({ url: new URL(`http://127.0.0.1:${rx.port}${path}`), address: '127.0.0.1', family: 4, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 300, ...extra });
    return { rx, sender, post };
  }

  describe('timeouts and connection slots', () => {
    it('starts the acknowledgement timeout when the request gets a socket, not while it waits for one', async () => {
      const { rx, post } = await setup(1);
      const slow = post('/slow');
      const fast = post('/fast'); // waits for the only socket to this host:port
      expect(await slow).toMatchObject({ kind: 'error', error: 'timeout: no response within 300 ms' });
      expect(await fast).toMatchObject({ kind: 'response', status: 200 });
      expect(rx.received.map((r) => r.path)).toEqual(['/slow', '/fast']);
    });

    it('opens up to maxSocketsPerOrigin connections to one host:port', async () => {
      const { rx, post } = await setup(5);
      const slow = [1, 2, 3, 4].map((i) => post(`/slow${i}`));
      const started = Date.now();
      const fast = await post('/fast');
      expect(fast).toMatchObject({ kind: 'response', status: 200 });
      expect(Date.now() - started).toBeLessThan(250);
      for (const s of await Promise.all(slow)) expect(s.kind).toBe('error');
      expect(rx.maxOpen).toBe(5);
    });

    it('a request outside the pool (pooled: false) is sent even when every pooled socket is busy', async () => {
      const { post } = await setup(1);
      const slow = post('/slow', { timeoutMs: 1000 });
      const started = Date.now();
      expect(await post('/probe', { pooled: false })).toMatchObject({ kind: 'response', status: 200 });
      expect(Date.now() - started).toBeLessThan(500);
      await slow;
    });

    it('abortAll cuts off every request in flight (a stopping worker), and only those', async () => {
      const { sender, post } = await setup(4);
      const hanging = [1, 2, 3].map((i) => post(`/slow${i}`, { timeoutMs: 10_000 }));
      await new Promise((r) => setTimeout(r, 100)); // sent, held by the receiver
      const started = Date.now();
      sender.abortAll();
      const results = await Promise.all(hanging);
      expect(results.length).toBe(3);
      for (const r of results) expect(r.kind).toBe('aborted');
      expect(Date.now() - started).toBeLessThan(1000);
      // Nothing left to abort: a later request is untouched.
      expect(await post('/fast')).toMatchObject({ kind: 'response', status: 200 });
    });
  });

  /** A loopback server of the test's own making, counting the connections it was opened. */
  async function rawServer(handler: http.RequestListener): Promise<{ port: number; connections: Socket[] }> {
    const server = http.createServer(handler);
    const connections: Socket[] = [];
    server.on('connection', (socket) => connections.push(socket));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanup.push(
      () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    );
    return { port: (server.address() as AddressInfo).port, connections };
  }

  function newSender(): WebhookSender {
    const sender = new Sender({ maxSocketsPerOrigin: 4 });
    cleanup.push(() => sender.close());
    return sender;
  }

  const postTo = (sender: WebhookSender, url: string, extra: Partial<PostRequest> = {}) =>
    sender.post({ url: new URL(url), address: '127.0.0.1', family: 4, headers: { 'content-type': 'application/json' }, body: '{"a":1}', timeoutMs: 3000, ...extra });

  describe('where it connects', () => {
    it('connects to the checked address, never resolving the name again; the Host header is the URL\'s', async () => {
      const seen: Array<string | undefined> = [];
      const { port } = await rawServer((req, res) => {
        seen.push(req.headers.host);
        res.end('ok');
      });
      // .invalid never resolves (RFC 6761): only the given address can have been used.
      const res = await postTo(newSender(), `http://hooks.invalid:${port}/hook`);
      expect(res).toMatchObject({ kind: 'response', status: 200, body: 'ok' });
      expect(seen).toEqual([`hooks.invalid:${port}`]);
    });

    it('names the URL\'s host to TLS (SNI) and checks the certificate against it', async () => {
      const snis: string[] = [];
      const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/${name}`, import.meta.url));
      const context = tls.createSecureContext({ key: fixture('webhook-tls-key.pem'), cert: fixture('webhook-tls-cert.pem') });
      const server = tls.createServer({
        SNICallback: (name, cb) => {
          snis.push(name);
          cb(null, context);
        },
      });
      server.on('tlsClientError', () => undefined);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
      const port = (server.address() as AddressInfo).port;
      // The fixture's certificate is self-signed: the connection is refused by the check, after the hello named the host.
      const res = await postTo(newSender(), `https://hooks.example.test:${port}/hook`);
      expect(res).toMatchObject({ kind: 'error', error: 'connection error: DEPTH_ZERO_SELF_SIGNED_CERT' });
      expect(snis).toEqual(['hooks.example.test']);
    });

    it('keeps one connection alive across attempts to one endpoint', async () => {
      const { port, connections } = await rawServer((_req, res) => res.end('ok'));
      const sender = newSender();
      for (let i = 0; i < 5; i++) expect(await postTo(sender, `http://127.0.0.1:${port}/hook`)).toMatchObject({ kind: 'response', status: 200 });
      expect(connections.length).toBe(1);
    });
  });

  describe('what it reads of an answer', () => {
    it('takes a 3xx as the answer and follows no redirect', async () => {
      const paths: string[] = [];
      const { port } = await rawServer((req, res) => {
        paths.push(req.url!);
        res.writeHead(307, { location: '/elsewhere' }).end();
      });
      expect(await postTo(newSender(), `http://127.0.0.1:${port}/hook`)).toMatchObject({ kind: 'response', status: 307, headers: { location: '/elsewhere' } });
      expect(paths).toEqual(['/hook']);
    });

    it('keeps the first 1 KB of the body and the headers (lowercased), e.g. Retry-After', async () => {
      const { port } = await rawServer((_req, res) => res.writeHead(429, { 'Retry-After': '7' }).end('é'.repeat(1000)));
      const res = await postTo(newSender(), `http://127.0.0.1:${port}/hook`);
      expect(res).toMatchObject({ kind: 'response', status: 429, headers: { 'retry-after': '7' } });
      expect(res.kind === 'response' && Buffer.byteLength(res.body)).toBe(RESPONSE_BODY_LIMIT);
    });

    it('stops reading an endless body past 64 KB and drops that connection', async () => {
      const { port, connections } = await rawServer((_req, res) => {
        res.writeHead(200);
        const chunk = Buffer.alloc(16 * 1024, 'x');
        const more = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', more);
        };
        more();
      });
      const started = Date.now();
      const res = await postTo(newSender(), `http://127.0.0.1:${port}/hook`, { timeoutMs: 10_000 });
      expect(res).toMatchObject({ kind: 'response', status: 200, body: 'x'.repeat(RESPONSE_BODY_LIMIT) });
      expect(Date.now() - started).toBeLessThan(5000);
      const dropped = connections[0]!;
      if (!dropped.destroyed) await new Promise((r) => dropped.once('close', r));
      expect(dropped.destroyed).toBe(true);
    });

    it('a status line in time with a slow body: the answer stands with what arrived by the timeout', async () => {
      const { port } = await rawServer((_req, res) => {
        res.writeHead(200);
        res.write('partial');
      });
      expect(await postTo(newSender(), `http://127.0.0.1:${port}/hook`, { timeoutMs: 300 })).toMatchObject({ kind: 'response', status: 200, body: 'partial' });
    });

    it('a connection closed before any answer is a connection error (ECONNRESET), a refused one ECONNREFUSED', async () => {
      const { port } = await rawServer((req) => req.socket.destroy());
      expect(await postTo(newSender(), `http://127.0.0.1:${port}/hook`)).toMatchObject({ kind: 'error', error: 'connection error: ECONNRESET' });
      const closed = await rawServer(() => undefined);
      cleanup.pop()!(); // closed at once: nothing listens on its port any more
      await new Promise((r) => setTimeout(r, 0));
      expect(await postTo(newSender(), `http://127.0.0.1:${closed.port}/hook`)).toMatchObject({ kind: 'error', error: 'connection error: ECONNREFUSED' });
    });
  });
});
