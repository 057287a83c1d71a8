import type { ApiClient } from '../client/client.js';
import type { CreateSinkBody, Sink, SinkRequestPage, SinkWithSecret } from '../schemas/sinks.js';
import { pageParser, responseParser } from '../parsers.js';
import { pathOf, type EndpointRef } from './endpoint.js';

// conventions 7: one function per endpoint; commands never build URLs. contract §10 (extension,
// local service only): sinks.
const sinkWithSecretParser = responseParser('SinkWithSecretSchema');
const sinkPageParser = pageParser('SinkSchema');
const sinkRequestPageParser = responseParser('SinkRequestPageSchema');

export const sinkEndpoints = {
  create: { method: 'POST', path: '/v1/sandbox/sinks' },
  requests: { method: 'GET', path: '/v1/sandbox/sinks/{id}/requests' },
  delete: { method: 'DELETE', path: '/v1/sandbox/sinks/{id}' },
} as const satisfies Record<string, EndpointRef>;

/** GET /v1/sandbox/sinks: a bounded list, returned whole. */
export const sinkListPath = '/v1/sandbox/sinks';

/** POST /v1/sandbox/sinks: the response is the only time its endpoint's signing secret is shown. */
export async function createSink(client: ApiClient, body: CreateSinkBody): Promise<SinkWithSecret> {
  return (await client.request({ method: 'POST', path: sinkEndpoints.create.path, body, schema: sinkWithSecretParser })).data;
}

export async function listSinks(client: ApiClient): Promise<Sink[]> {
  return (await client.request({ method: 'GET', path: sinkListPath, schema: sinkPageParser })).data.data;
}

export interface SinkRequestsQuery {
  /** A cursor, or `now` for the newest position. */
  after?: string;
  before?: string;
  order?: 'asc' | 'desc';
  limit?: number;
  /** Seconds (0-30) a read that finds nothing is held until a request arrives. */
  wait?: number;
}

/** GET /v1/sandbox/sinks/{id}/requests: newest first by default, read like the events feed. */
export async function listSinkRequests(client: ApiClient, id: string, q: SinkRequestsQuery = {}, opts: { signal?: AbortSignal; timeoutMs?: number; maxAttempts?: number } = {}): Promise<SinkRequestPage> {
  const query = { after: q.after, before: q.before, order: q.order, limit: q.limit, wait: q.wait };
  return (await client.request({ method: 'GET', path: pathOf(sinkEndpoints.requests, { id }), query, schema: sinkRequestPageParser, ...opts })).data;
}
