import type { IncomingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';

// What a webhook sender is asked and answers, whichever HTTP client it is built on (http-sender.ts:
// node:http; undici-sender.ts: undici, for a `--role worker` process).

/** spec: Delivery — the delivery log keeps the first 1 KB of a response body. */
export const RESPONSE_BODY_LIMIT = 1024;
/** Past this we stop reading a response (and drop the connection instead of draining it). */
export const DRAIN_LIMIT = 64 * 1024;

export interface PostRequest {
  url: URL;
  /** The checked address to connect to (name resolution already done and vetted). */
  address: string;
  family: 4 | 6;
  headers: Record<string, string>;
  body: string;
  /**
   * Acknowledgement timeout: a status line must arrive within it (spec: any 2xx within 10 s). It
   * starts when the request gets a connection slot of its host:port (connecting counts, waiting for
   * a free slot does not); a probe (`pooled: false`) starts it at once.
   */
  timeoutMs: number;
  signal?: AbortSignal;
  /** false: a connection of its own, outside the keep-alive pool (out-of-band probes). Default true. */
  pooled?: boolean;
}

export interface SenderOptions {
  /**
   * Connections per host:port (default 8). The delivery worker passes its concurrency: its pool
   * already bounds traffic, so an endpoint sharing a host:port with hanging ones still gets a socket.
   */
  maxSocketsPerOrigin?: number;
}

export type PostResult =
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; body: string; durationMs: number }
  | { kind: 'error'; error: string; durationMs: number }
  | { kind: 'aborted'; durationMs: number };

/** One POST, never following redirects (a 3xx is an answer; spec: Delivery abandons on it). Never throws. */
export interface WebhookSender {
  post(r: PostRequest): Promise<PostResult>;
  /** Cuts off every request in flight: each resolves `aborted` (a stopping worker's attempts). */
  abortAll(): void;
  close(): void;
}

/**
 * A connect's `lookup` that answers the checked address, whatever the name resolves to by now: no
 * second lookup, no DNS rebinding between the check and the connection.
 */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_host, options, callback) => {
    const cb = callback as (...args: unknown[]) => void;
    if ((options as { all?: boolean }).all) cb(null, [{ address, family }]);
    else cb(null, address, family);
  };
}
