import type { FastifyReply, FastifyRequest } from 'fastify';
import { REFUSED_BODY_READ_MAX_BYTES } from '../../api/values/http.js';

/**
 * A body refused before a byte of it was read (its Content-Length over the route's limit) is still
 * read to its end and dropped, so the client sees the answer. Fastify answers such a request with
 * `Connection: close`, and the server then closes the socket with the body still arriving: the
 * kernel resets the connection, and a client that writes its whole body before reading the answer
 * (Node's own http client, a proxy piping a request through) saw EPIPE or ECONNRESET, never the
 * envelope (a 6 MB send: EPIPE; a 5 MB + 3 greeting through the replicas' test proxy: its 502).
 * With the header dropped, Node reads the rest and throws it away (its `_dump` of an unread body),
 * and the connection is kept, as for any answer given without reading the body (a 401).
 *
 * Bounds: only a declared length up to REFUSED_BODY_READ_MAX_BYTES (a larger one is still closed
 * at once), and the request timeout (ServerLimits `requestTimeoutMs`) bounds the time. A body
 * already partly read (a chunked one found over the limit as it came) is closed as before: the
 * reading left off mid-way.
 */
export function readRefusedBodyToItsEnd(req: FastifyRequest, reply: FastifyReply): void {
  const declared = Number(req.headers['content-length']);
  if (!(declared <= REFUSED_BODY_READ_MAX_BYTES) || req.raw.complete || req.raw.readableDidRead) return;
  reply.removeHeader('connection');
}
