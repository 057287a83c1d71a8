// Test support for the webhook tests (not itself a test file): a real HTTP receiver on loopback,
// and helpers to build a service that can only ever reach loopback.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loopbackOnlyWebhooks, startTestService, type TestService } from './helpers/service.js';
import { emitEvent, type StoredEvent } from './helpers/inspect.js';

type StartOptions = NonNullable<Parameters<typeof startTestService>[0]>;

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: any;
  /** Wall-clock ms when it arrived. */
  at: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer (the request is left hanging until the client gives up). */
  hang?: boolean;
  /** Answer (as the rest of this reply says) only when the test calls `release()`. */
  hold?: boolean;
  /** Answer after this many ms. */
  delayMs?: number;
}

export type ReceiverHandler = (r: Received, index: number) => Reply | undefined;

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  setHandler(h: ReceiverHandler): void;
  /** Requests arrived and not yet answered or dropped, now and at most so far. */
  readonly open: number;
  readonly maxOpen: number;
  /** Answers every request held so far (`hold`), and those held later at once. */
  release(): void;
  /** Resolves once `n` requests have arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** `port`: listen on this loopback port (default: any free one). */
export async function startReceiver(handler: ReceiverHandler = () => ({ status: 200 }), opts: { port?: number } = {}): Promise<Receiver> {
  let h = handler;
  let open = 0;
  let maxOpen = 0;
  const received: Received[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  let held: Array<() => void> | undefined = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = undefined;
      }
      const r: Received = { path: req.url ?? '/', headers: req.headers, rawBody, body, at: Date.now() };
      const index = received.push(r) - 1;
      maxOpen = Math.max(maxOpen, ++open);
      res.on('close', () => open--);
      for (const w of [...waiters]) if (received.length >= w.n) w.resolve();
      const reply = h(r, index) ?? { status: 200 };
      if (reply.hang) return;
      const send = () => {
        res.writeHead(reply.status ?? 200, reply.headers ?? { 'content-type': 'text/plain' });
        res.end(reply.body ?? 'ok');
      };
      if (reply.hold && held) held.push(send);
      else if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    get open() {
      return open;
    },
    get maxOpen() {
      return maxOpen;
    },
    setHandler: (next) => {
      h = next;
    },
    release() {
      const answer = held ?? [];
      held = undefined;
      for (const send of answer) send();
    },
    waitFor(n, timeoutMs = 15_000) {
      if (received.length >= n) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`receiver got ${received.length} of ${n} requests in ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The ack timeout of a test service: long enough that a receiver which answers at once is never
 * timed out on a loaded machine (at 300 ms, a busy CI machine timed out answers of 200).
 */
export const TEST_ACK_MS = 5_000;
/**
 * For the tests about a receiver that never answers (pass it as `webhooks.ackTimeoutMs`): short, so
 * they are quick, yet well above the time a prompt answer from the same process takes under load.
 */
export const HANG_ACK_MS = 1_000;

/**
 * The service with webhook delivery that can only reach loopback: a stub resolver (names resolve
 * from a table, nothing goes to real DNS) and a loopback-only destination guard (a bug cannot send
 * traffic off the machine).
 */
export function startWebhookService(opts: StartOptions & { dns?: Record<string, string | string[]> } = {}): Promise<TestService> {
  const { dns, ...rest } = opts;
  return startTestService({
    ...rest,
    webhooks: {
      ...loopbackOnlyWebhooks(dns),
      ackTimeoutMs: TEST_ACK_MS,
      ...(rest.webhooks ?? {}),
    },
  });
}

/** Emits an event as a domain function would, in a transaction of its own (helpers/inspect.ts `emitEvent`: no surface emits an event alone). */
export async function emit(svc: TestService, type: string, fields: Record<string, unknown> = {}, accountId = svc.bootstrap.accountId): Promise<StoredEvent> {
  return await emitEvent(svc, accountId, type, fields);
}

export const TICK_MS = 300_000;

/**
 * Moves the manual clock to `offsetSecs` past a fresh 5-minute boundary and returns that boundary,
 * so tests can name exact tick times.
 */
export function alignClock(svc: TestService, offsetSecs = 10): number {
  const boundary = Math.ceil(svc.now() / TICK_MS) * TICK_MS + TICK_MS;
  svc.setClock(boundary + offsetSecs * 1000);
  return boundary;
}

/** Advances the service clock through the sandbox API, as a client would. */
export async function advance(svc: TestService, seconds: number): Promise<void> {
  const res = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds } });
  if (res.status !== 200) throw new Error(`advance failed: ${res.status} ${res.text}`);
}

export async function createEndpoint(svc: TestService, body: Record<string, unknown>, headers?: Record<string, string>): Promise<{ id: string; secret: string; [k: string]: unknown }> {
  const res = await svc.call('POST', '/v1/webhooks', { body, headers });
  if (res.status !== 201) throw new Error(`create endpoint failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function deliveries(svc: TestService, endpointId: string, query = ''): Promise<any[]> {
  const res = await svc.call('GET', `/v1/webhooks/${endpointId}/deliveries${query}`);
  if (res.status !== 200) throw new Error(`deliveries failed: ${res.status} ${res.text}`);
  return res.body.data;
}
