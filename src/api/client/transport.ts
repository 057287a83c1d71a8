// The HTTP transport. A command sends a handful of requests to one origin, so it uses node's own
// http client (its parser is native code and already part of node): loading undici's Agent cost
// 33-64 ms of a `svc keys list` (its CommonJS files, http2, and compiling its WASM parser), about
// a third of the command's CPU in a --cpu-prof (bench/startup). An injected undici Dispatcher (a
// MockAgent in the client's tests of retries and errors) is still honoured, loaded only then.
import { request as httpRequest, Agent as HttpAgent, type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';

export interface SendOptions {
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body: string | Buffer | null;
  signal: AbortSignal | null;
  /** From the request's start until the response's headers. */
  headersTimeout: number;
  /** The longest silence between two chunks of the response body. */
  bodyTimeout: number;
}

/** A response whose body is not read yet: iterate it (or destroy it) to free the connection. */
export interface TransportResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: AsyncIterable<Uint8Array> & { destroy(err?: Error): void };
}

export interface Transport {
  send(url: string, opts: SendOptions): Promise<TransportResponse>;
  /** Closes idle keep-alive connections. */
  close(): Promise<void>;
}

/** The error of a timeout, with the code the client retries on (a network error). */
export class TransportTimeoutError extends Error {
  override name = 'TransportTimeoutError';
  constructor(
    readonly code: 'ETIMEDOUT',
    what: 'headers' | 'body',
    ms: number,
  ) {
    super(`no response ${what} within ${ms} ms`);
  }
}

/** node:http (node:https for an https URL, loaded then) with keep-alive agents of our own. */
export function nodeTransport(opts: { keepAliveTimeout: number }): Transport {
  const agents = new Map<string, HttpAgent>();
  let https: typeof import('node:https') | undefined;
  const agentFor = async (protocol: string): Promise<HttpAgent> => {
    let agent = agents.get(protocol);
    if (!agent) {
      // Idle sockets close after keepAliveTimeout (the same window undici's Agent had).
      const options = { keepAlive: true, timeout: opts.keepAliveTimeout };
      if (protocol === 'https:') agent = new (https ??= await import('node:https')).Agent(options);
      else agent = new HttpAgent(options);
      agents.set(protocol, agent);
    }
    return agent;
  };
  return {
    async send(url, o) {
      const u = new URL(url);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`unsupported URL protocol ${u.protocol} in ${url}`);
      const agent = await agentFor(u.protocol);
      const request = u.protocol === 'https:' ? https!.request : httpRequest;
      const headers: Record<string, string | number> = { ...o.headers };
      if (o.body !== null) headers['content-length'] = Buffer.byteLength(o.body);
      return new Promise<TransportResponse>((resolve, reject) => {
        const req = request(u, { method: o.method, headers, agent, ...(o.signal ? { signal: o.signal } : {}) });
        const headersTimer = setTimeout(() => req.destroy(new TransportTimeoutError('ETIMEDOUT', 'headers', o.headersTimeout)), o.headersTimeout);
        req.once('error', (err) => {
          clearTimeout(headersTimer);
          reject(err);
        });
        req.once('response', (res) => {
          clearTimeout(headersTimer);
          res.setTimeout(o.bodyTimeout, () => res.destroy(new TransportTimeoutError('ETIMEDOUT', 'body', o.bodyTimeout)));
          resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: res });
        });
        req.end(o.body ?? undefined);
      });
    },
    async close() {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}

type ApiRequest = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
let apiRequest: ApiRequest | undefined;

/**
 * An undici Dispatcher as the transport (tests inject a MockAgent). Only undici's request API is
 * loaded, file by file: the package entry loads every feature it has (fetch, WebSocket, caches…).
 * The path is an undici internal, so the dependency is pinned to an exact version in package.json.
 */
export function dispatcherTransport(dispatcher: Dispatcher): Transport {
  return {
    async send(url, o) {
      apiRequest ??= createRequire(import.meta.url)('undici/lib/api/api-request.js') as ApiRequest;
      const u = new URL(url);
      const res = await apiRequest.call(dispatcher, { ...o, origin: u.origin, path: `${u.pathname}${u.search}` });
      return { statusCode: res.statusCode, headers: res.headers as IncomingHttpHeaders, body: res.body };
    },
    // The dispatcher belongs to whoever injected it.
    async close() {},
  };
}
