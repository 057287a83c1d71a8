// The HTTP transport: undici's Agent and request API, loaded file by file. undici's package entry
// loads every feature it has (fetch, WebSocket, caches, HTTP/2, proxies…), about 90 ms at CLI
// start-up; these two files are what a request needs. The paths are undici internals, so the
// dependency is pinned to an exact version in package.json and the client's tests exercise them.
import { createRequire } from 'node:module';
import type { Dispatcher } from 'undici';

const require = createRequire(import.meta.url);

type AgentCtor = new (opts?: { keepAliveTimeout?: number }) => Dispatcher;
type ApiRequest = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

let agentCtor: AgentCtor | undefined;
let apiRequest: ApiRequest | undefined;

export function createAgent(opts: { keepAliveTimeout?: number }): Dispatcher {
  agentCtor ??= require('undici/lib/dispatcher/agent.js') as AgentCtor;
  return new agentCtor(opts);
}

export interface SendOptions {
  method: Dispatcher.HttpMethod;
  headers: Record<string, string>;
  body: string | Buffer | null;
  signal: AbortSignal | null;
  headersTimeout: number;
  bodyTimeout: number;
}

export function send(dispatcher: Dispatcher, url: string, opts: SendOptions): Promise<Dispatcher.ResponseData> {
  apiRequest ??= require('undici/lib/api/api-request.js') as ApiRequest;
  const u = new URL(url);
  return apiRequest.call(dispatcher, { ...opts, origin: u.origin, path: `${u.pathname}${u.search}` });
}
