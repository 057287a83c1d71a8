import http from 'node:http';
import https from 'node:https';
import { DRAIN_LIMIT, RESPONSE_BODY_LIMIT, pinnedLookup, type PostRequest, type PostResult, type SenderOptions, type WebhookSender } from './http-post.js';

/**
 * One POST on node:http, never following redirects (a 3xx is an answer; spec: Delivery abandons on
 * it). Keep-alive agents so a busy endpoint is not a TCP handshake per event. The sender of a
 * process that also serves the API (see undici-sender.ts for why not undici there).
 */
export class WebhookHttpSender implements WebhookSender {
  private readonly agents: { 'http:': http.Agent; 'https:': https.Agent };
  /**
   * How to cut off each request in flight, for abortAll(): a Set entry per request, where a listener
   * per request on one shared AbortSignal cost 3 % of a burst (EventTarget checks every listener
   * already there on each add: 256 in flight).
   */
  private readonly inFlight = new Set<() => void>();

  constructor(opts: SenderOptions = {}) {
    const maxSockets = Math.max(1, opts.maxSocketsPerOrigin ?? 8);
    // As many idle connections kept as may be busy: with 4 kept, a window of 16 attempts closed and
    // reopened a dozen connections per round (close + connect were 3.8 % of the burst profile).
    const agentOptions = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, timeout: 30_000 };
    this.agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };
  }

  post(r: PostRequest): Promise<PostResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const secure = r.url.protocol === 'https:';
    const hostname = r.url.hostname.startsWith('[') ? r.url.hostname.slice(1, -1) : r.url.hostname;
    // Connect to the address that was checked, whatever the name resolves to by now.
    const pinned = pinnedLookup(r.address, r.family);
    return new Promise<PostResult>((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      let status: number | undefined;
      let responseHeaders: http.IncomingHttpHeaders = {};
      const kept: Buffer[] = [];
      let keptBytes = 0;
      const finish = (result: PostResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        r.signal?.removeEventListener('abort', onAbort);
        this.inFlight.delete(onAbort);
        resolve(result);
      };
      const finishResponse = () =>
        finish({ kind: 'response', status: status!, headers: responseHeaders, body: Buffer.concat(kept).toString('utf8'), durationMs: elapsed() });

      const req = (secure ? https : http).request({
        protocol: r.url.protocol,
        hostname,
        port: r.url.port || (secure ? 443 : 80),
        path: `${r.url.pathname}${r.url.search}`,
        method: 'POST',
        headers: { ...r.headers, 'Content-Length': String(Buffer.byteLength(r.body)) },
        agent: r.pooled === false ? false : this.agents[secure ? 'https:' : 'http:'],
        lookup: pinned,
      });
      // The acknowledgement clock starts when the request has a socket: a request waiting in the
      // agent's queue for a free socket has not been sent, so it cannot have timed out.
      req.once('socket', () => {
        if (settled) return;
        timer = setTimeout(() => {
          if (status !== undefined) {
            // Acknowledged in time; only the body was slow. Keep what arrived.
            finishResponse();
          } else {
            finish({ kind: 'error', error: `timeout: no response within ${r.timeoutMs} ms`, durationMs: elapsed() });
          }
          req.destroy();
        }, r.timeoutMs);
      });
      const onAbort = () => {
        finish({ kind: 'aborted', durationMs: elapsed() });
        req.destroy();
      };
      if (r.signal?.aborted) return onAbort();
      r.signal?.addEventListener('abort', onAbort, { once: true });
      this.inFlight.add(onAbort);

      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        responseHeaders = res.headers;
        let total = 0;
        res.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (keptBytes < RESPONSE_BODY_LIMIT) {
            const slice = chunk.subarray(0, RESPONSE_BODY_LIMIT - keptBytes);
            kept.push(slice);
            keptBytes += slice.length;
          }
          if (total > DRAIN_LIMIT) {
            finishResponse();
            res.destroy();
          }
        });
        res.on('end', finishResponse);
        res.on('close', finishResponse);
        res.on('error', finishResponse);
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (status !== undefined) return finishResponse();
        finish({ kind: 'error', error: `connection error: ${err.code ?? err.message}`, durationMs: elapsed() });
      });
      req.end(r.body);
    });
  }

  /** Cuts off every request in flight: each resolves `aborted` (a stopping worker's attempts). */
  abortAll(): void {
    for (const abort of [...this.inFlight]) abort();
  }

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}
