import type { ApiClient, Query } from '../client/client.js';
import { ResponseShapeError } from '../client/errors.js';
import type { EventFeed } from '../schemas/events.js';
import type { ResendEvent, ResendEventBody } from '../schemas/webhooks.js';
import { pathOf, type EndpointRef } from './endpoint.js';
import { responseParser } from '../parsers.js';

// conventions 7: one function per endpoint. spec: Events feed; contract §10.
const eventFeedParser = responseParser('EventFeedSchema');
const resendParser = responseParser('ResendEventSchema');

/** The events feed (spec: Events feed). */
export const EVENTS_FEED_PATH = '/v1/events';

export interface EventFeedRequest {
  /** A cursor, or `now` for the head. */
  after?: string;
  before?: string;
  order?: 'asc' | 'desc';
  limit?: number;
  types?: readonly string[];
  /** Seconds (0-30) the local service holds a request that finds no events (extension, contract §10). */
  wait?: number;
}

export interface EventFeedCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** 1: the caller does its own retrying (the followers). */
  maxAttempts?: number;
}

/**
 * GET /v1/events. The page is checked against EventFeedSchema, but the items returned are the JSON
 * objects as received: a parse rebuilds each item (declared keys first), and the followers print and
 * forward events as the service sent them.
 */
export async function listEvents(client: ApiClient, q: EventFeedRequest = {}, opts: EventFeedCallOptions = {}): Promise<EventFeed> {
  const query: Query = { after: q.after, before: q.before, order: q.order, limit: q.limit, wait: q.wait };
  if (q.types && q.types.length) query.types = q.types; // comma-joined by the client
  const res = await client.request<unknown>({ method: 'GET', path: EVENTS_FEED_PATH, query, ...opts });
  const checked = eventFeedParser.safeParse(res.data);
  if (!checked.success) {
    throw new ResponseShapeError({
      method: 'GET',
      path: EVENTS_FEED_PATH,
      issues: checked.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
      requestId: res.requestId,
    });
  }
  return res.data as EventFeed;
}

export const eventEndpoints = {
  resend: { method: 'POST', path: '/v1/events/{id}/resend' },
} as const satisfies Record<string, EndpointRef>;

/** POST /v1/events/{id}/resend (extension, contract §10): the new deliveries, sent at once. */
export async function resendEvent(client: ApiClient, id: string, body: ResendEventBody): Promise<ResendEvent> {
  return (await client.request({ method: 'POST', path: pathOf(eventEndpoints.resend, { id }), body, schema: resendParser })).data;
}
