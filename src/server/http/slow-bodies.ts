import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ServiceError } from '../errors.js';
import { answerAndClose, answeredRaw, rawErrorResponse, type ResponseHeaders } from './connections.js';
import type { ServerLimits } from '../../api/values/http.js';
import { holderOf, type ClientHolds } from './client-holds.js';

/** A request whose body is still arriving. */
interface Receiving {
  req: IncomingMessage;
  res: ServerResponse;
  socket: Socket;
  /** The start of the current window, and the socket's bytes read then. */
  markAt: number;
  markBytes: number;
  /** When the answer was seen written (the rest of the body is then only read and dropped). */
  answeredAt?: number;
  /** Its place among its account's held requests, once it has been slow for a window. */
  release?: () => void;
}

const declaresBody = (req: IncomingMessage): boolean => {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
};

/**
 * The service, not the client, is why no more arrives: the request's buffer is full and nothing reads
 * it yet (Node stops reading the socket then), e.g. while its hooks authenticate or a sandbox fault
 * delays it. That time is not the client's: its window starts again.
 */
const heldByUs = (req: IncomingMessage): boolean => req.readableLength >= req.readableHighWaterMark;

/**
 * Bodies that arrive too slowly (SERVER_LIMITS `bodyMinBytesPerSec` over each `bodyRateWindowMs`)
 * are answered 408 `request_timeout` and their connection closed; a body answered before it was read
 * (refused: unauthenticated, over the limit) whose rest has not arrived a window after its answer is
 * closed; a body still arriving after one window counts against its account's held requests
 * (`client-holds.ts`: over the cap, 429 `rate_limited` and closed). Node's own request timeout stays
 * the outer bound. One timer for the server, running only while bodies are in flight.
 */
export function limitSlowBodies(
  server: Server,
  limits: Pick<ServerLimits, 'bodyMinBytesPerSec' | 'bodyRateWindowMs' | 'timeoutCheckIntervalMs'>,
  holds: ClientHolds,
  headers: ResponseHeaders = () => ({}),
  now: () => number = Date.now,
): void {
  const receiving = new Set<Receiving>();
  const minPerWindow = (limits.bodyMinBytesPerSec * limits.bodyRateWindowMs) / 1000;
  let timer: NodeJS.Timeout | undefined;

  const drop = (r: Receiving) => {
    receiving.delete(r);
    r.release?.();
    if (receiving.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };

  const close = (r: Receiving, response: string | undefined) => {
    drop(r);
    if (answeredRaw(r.socket) || r.socket.destroyed) return;
    // Answered already: the client has its answer; only the unread rest is given up.
    if (response === undefined || r.res.headersSent) r.socket.destroy();
    else answerAndClose(r.socket, response);
  };

  const tooSlow = () =>
    rawErrorResponse(408, 'request_timeout', `the request body arrived slower than ${limits.bodyMinBytesPerSec / 1024} KB/s; send it again on a new connection`, undefined, headers());

  const check = () => {
    const t = now();
    for (const r of receiving) {
      if (r.req.complete || r.socket.destroyed) {
        drop(r);
        continue;
      }
      if (r.res.headersSent) {
        r.answeredAt ??= t;
        if (t - r.answeredAt >= limits.bodyRateWindowMs) close(r, undefined);
        continue;
      }
      if (heldByUs(r.req)) {
        r.markAt = t;
        r.markBytes = r.socket.bytesRead;
        continue;
      }
      if (t - r.markAt < limits.bodyRateWindowMs) continue;
      if (r.socket.bytesRead - r.markBytes < minPerWindow) {
        close(r, tooSlow());
        continue;
      }
      r.markAt = t;
      r.markBytes = r.socket.bytesRead;
      const holder = holderOf(r.req);
      if (r.release || !holder) continue;
      try {
        r.release = holds.hold([holder]);
      } catch (err) {
        const message = err instanceof ServiceError ? err.message : 'too many requests held open';
        close(r, rawErrorResponse(429, 'rate_limited', message, undefined, { ...headers(), 'Retry-After': '1' }));
      }
    }
  };

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!declaresBody(req)) return;
    receiving.add({ req, res, socket: req.socket, markAt: now(), markBytes: req.socket.bytesRead });
    timer ??= setInterval(check, limits.timeoutCheckIntervalMs).unref();
  });
  server.on('close', () => {
    for (const r of [...receiving]) drop(r);
  });
}
