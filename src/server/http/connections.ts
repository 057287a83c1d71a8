import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { randomBase62 } from '../ids.js';
import { MAX_HEADER_BYTES, type ServerLimits } from '../../api/values/http.js';

/** A refused or failed socket is closed this long after its answer, so the client can read it first. */
export const CLOSE_LINGER_MS = 1_000;

/**
 * The error envelope written straight to a socket, for answers given where no Fastify reply exists
 * (a client error the HTTP parser found, a refused connection). Always `Connection: close`: the
 * socket is closed after it, so a keep-alive client does not send its next request on it.
 */
export function rawErrorResponse(status: number, code: string, message: string, details?: unknown, headers: Record<string, string> = {}): string {
  const body = JSON.stringify({ error: details === undefined ? { code, message } : { code, message, details } });
  const head = [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}`,
    `Request-Id: req_${randomBase62(16)}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 429: 'Too Many Requests' };

/** Headers every raw answer adds (the app passes `Service-Time`, which every response carries). */
export type ResponseHeaders = () => Record<string, string>;

/** Writes the answer, closes our side, and destroys the socket shortly after whatever the client does. */
export function answerAndClose(socket: Socket, response: string): void {
  answered.add(socket);
  socket.on('error', () => {});
  // Read and drop what the client still sends: closing with unread data would reset the connection,
  // and the client could lose the answer.
  socket.resume();
  if (socket.writable) socket.end(response);
  setTimeout(() => socket.destroy(), CLOSE_LINGER_MS).unref();
}

const answered = new WeakSet<Socket>();
/** Whether a raw answer was written on this socket already (then nothing more is). */
export const answeredRaw = (socket: Socket): boolean => answered.has(socket);

/**
 * What Node's HTTP parser rejects before Fastify sees a request gets the error
 * envelope with a `Request-Id` and `Connection: close` (Fastify's `clientErrorHandler`).
 * Decisions (API_DESCRIPTION): headers or a URL over MAX_HEADER_BYTES and a malformed request are
 * 400 `validation_error`, as an oversized body is (contract §2); a request not received in time is
 * 408 `request_timeout`, the one code outside the spec's table, since it is the server's bound and a
 * client may retry it.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket, headers: ResponseHeaders = () => ({})): void {
  if (err.code === 'ECONNRESET' || socket.destroyed || answered.has(socket)) return;
  // A response already under way on this socket: nothing sensible can be written after it.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  answerAndClose(socket, clientErrorResponse(err.code, headers()));
}

function clientErrorResponse(code: string | undefined, headers: Record<string, string>): string {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return rawErrorResponse(408, 'request_timeout', 'the request was not received in time; send it again on a new connection', undefined, headers);
    case 'HPE_HEADER_OVERFLOW':
      return rawErrorResponse(400, 'validation_error', `the request line and headers are larger than ${MAX_HEADER_BYTES / 1024} KB`, [
        { path: ['headers'], message: `too large (limit ${MAX_HEADER_BYTES / 1024} KB, URL included)` },
      ], headers);
    default:
      return rawErrorResponse(400, 'validation_error', 'the request could not be read as HTTP/1.1', [{ path: ['request'], message: 'malformed request' }], headers);
  }
}

/** The client address connections are counted by: `::ffff:127.0.0.1` is 127.0.0.1. */
function clientAddress(socket: Socket): string {
  const a = socket.remoteAddress ?? '';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}

/** An admitted connection: where it comes from, when it opened, and whether a request has come in on it. */
interface Admitted {
  socket: Socket;
  address: string;
  openedAt: number;
  /** The headers of a request on it have been read whole (a prompt client). */
  proven: boolean;
  released: boolean;
}

/**
 * Caps open connections, in total and per client address. The HTTP server's
 * own connection listener only sees a socket the caps admit; one over a cap is answered 429
 * `rate_limited` (`Retry-After: 1`) and closed without being parsed.
 * Connections that complete their headers promptly keep their share. Before refusing, a
 * new connection over a cap evicts the oldest slow one (no request headers completed within
 * `slowHeadersGraceMs`) of its address (or, at the total cap, of any address): it is answered 408
 * `request_timeout` as the headers timeout would have, only sooner. Call before `listen`.
 */
export function limitConnections(
  server: Server,
  limits: Pick<ServerLimits, 'maxConnections' | 'maxConnectionsPerAddress' | 'slowHeadersGraceMs'>,
  headers: ResponseHeaders = () => ({}),
  now: () => number = Date.now,
): void {
  const handlers = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  let open = 0;
  const perAddress = new Map<string, number>();
  /** Connections with no request headers yet, oldest first (a Set keeps insertion order). */
  const unproven = new Set<Admitted>();
  const bySocket = new WeakMap<Socket, Admitted>();

  const release = (c: Admitted) => {
    if (c.released) return;
    c.released = true;
    unproven.delete(c);
    open--;
    const left = (perAddress.get(c.address) ?? 1) - 1;
    if (left > 0) perAddress.set(c.address, left);
    else perAddress.delete(c.address);
  };

  /** The oldest connection past its grace without request headers, from `address` (or any). */
  const oldestSlow = (address: string | undefined): Admitted | undefined => {
    const cutoff = now() - limits.slowHeadersGraceMs;
    for (const c of unproven) {
      if (c.openedAt > cutoff) return undefined; // oldest first: the rest are younger still
      if (address === undefined || c.address === address) return c;
    }
    return undefined;
  };

  const evict = (c: Admitted) => {
    release(c);
    answerAndClose(c.socket, clientErrorResponse('ERR_HTTP_REQUEST_TIMEOUT', headers()));
  };

  server.on('request', (req: { socket: Socket }) => {
    const c = bySocket.get(req.socket);
    if (c && !c.proven) {
      c.proven = true;
      unproven.delete(c);
    }
  });

  server.on('connection', (socket: Socket) => {
    const address = clientAddress(socket);
    if ((perAddress.get(address) ?? 0) >= limits.maxConnectionsPerAddress) {
      const slow = oldestSlow(address);
      if (slow) evict(slow);
    }
    if (open >= limits.maxConnections) {
      const slow = oldestSlow(undefined);
      if (slow) evict(slow);
    }
    const fromAddress = perAddress.get(address) ?? 0;
    if (open >= limits.maxConnections || fromAddress >= limits.maxConnectionsPerAddress) {
      const which = open >= limits.maxConnections ? `the service's ${limits.maxConnections}` : `${limits.maxConnectionsPerAddress} per client address`;
      answerAndClose(socket, rawErrorResponse(429, 'rate_limited', `too many open connections (limit ${which}); close idle ones or retry`, undefined, { ...headers(), 'Retry-After': '1' }));
      return;
    }
    open++;
    perAddress.set(address, fromAddress + 1);
    const c: Admitted = { socket, address, openedAt: now(), proven: false, released: false };
    unproven.add(c);
    bySocket.set(socket, c);
    socket.once('close', () => release(c));
    for (const handle of handlers) handle.call(server, socket);
  });
}
