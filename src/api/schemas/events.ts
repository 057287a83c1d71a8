import { z } from 'zod';
import { Timestamp } from './common.js';
import { FEED_ORDERS } from '../values/events.js';

// spec: Event catalog (plus contract §7 `port.updated`). One list: the webhook `events` filter and the
// feed's `types` are validated against it. A new event type is added here before it is emitted.
export const EVENT_TYPES = [
  'message.received',
  'message.status',
  'call.ringing',
  'call.completed',
  'call.missed',
  'call.ivr.key_pressed',
  'call.transcript',
  'call.transcript.delta',
  'voicemail.received',
  'billing.wallet.credited',
  'billing.wallet.low_balance',
  'billing.subscription.updated',
  'lead.captured',
  'webhook_endpoint.disabled',
  'domain.verified',
  'domain.failed',
  'domain.degraded',
  'domain.expired',
  'email.sent',
  'email.delivered',
  'email.deferred',
  'email.bounced',
  'email.failed',
  'email.opened',
  'email.clicked',
  'email.complained',
  'email.unsubscribed',
  'port.updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** spec: Delivery — one attempt, no retry, no delivery log, absent from the feed. */
export const NON_DURABLE_EVENT_TYPES: readonly string[] = ['call.transcript.delta'];
/** spec: Delivery — a late retry would be stale, so one attempt only. */
export const SINGLE_ATTEMPT_EVENT_TYPES: readonly string[] = ['call.ringing'];

/**
 * The sample event `POST /v1/webhooks/{id}/test` sends. It appears in that endpoint's delivery log,
 * never in the feed, and cannot be subscribed to (it is sent whatever the filter).
 */
export const TEST_EVENT_TYPE = 'webhook_endpoint.test';

const EVENT_TYPE_SET = new Set<string>(EVENT_TYPES);
const EVENT_FAMILIES = new Set<string>(EVENT_TYPES.flatMap((t) => t.split('.').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('.'))));

/**
 * A filter entry: `*` (everything), an exact catalog type, or `<family>.*` for every type under a
 * catalog prefix (`message.*`, `call.*`, `call.transcript.*`, `email.*`). Returns an error message or
 * null. Pattern entries also match types added to that family later.
 */
export function eventFilterError(entry: string): string | null {
  if (entry === '*') return null;
  if (EVENT_TYPE_SET.has(entry)) return null;
  if (entry.endsWith('.*') && EVENT_FAMILIES.has(entry.slice(0, -2))) return null;
  return `unknown event type "${entry}"; use a type of the event catalog, "<family>.*" (e.g. "message.*") or "*"`;
}

/** Whether an event type is selected by a filter (`["*"]` or patterns and exact types). */
export function eventFilterMatches(filter: readonly string[], type: string): boolean {
  for (const entry of filter) {
    if (entry === '*' || entry === type) return true;
    if (entry.endsWith('.*') && type.startsWith(entry.slice(0, -1))) return true;
  }
  return false;
}

// ---- The events feed (spec: Events feed; contract §10) ----

/**
 * A feed item: the exact webhook body (the event's fields at the top level plus `id`, `type`,
 * `createdAt`) plus `eventId`, equal to `id`. Other fields depend on `type` (spec: Event catalog).
 */
export const EventFeedItemSchema = z
  .looseObject({ eventId: z.string(), id: z.string(), type: z.string(), createdAt: Timestamp })
  .meta({ id: 'EventFeedItem' });
export type EventFeedItem = z.infer<typeof EventFeedItemSchema>;

export const EventFeedSchema = z
  .object({
    data: z.array(EventFeedItemSchema),
    /** Pass back as `after` (order=asc) or `before` (order=desc). */
    cursor: z.string(),
    hasMore: z.boolean(),
  })
  .meta({ id: 'EventFeed' });
export type EventFeed = z.infer<typeof EventFeedSchema>;

export const FEED_LIMIT_DEFAULT = 20;
export const FEED_LIMIT_MAX = 100;
export const FEED_WAIT_MAX_SECS = 30;

export const EventFeedQuery = z.object({
  after: z.string().min(1).max(200).optional().describe('Cursor of a previous response, or `now` for the head (a cursor with no events)'),
  before: z.string().min(1).max(200).optional().describe('Cursor; only events older than it (paging back with order=desc)'),
  order: z.enum(FEED_ORDERS).default('asc'),
  limit: z.coerce.number().int().min(1).max(FEED_LIMIT_MAX).default(FEED_LIMIT_DEFAULT),
  types: z.string().min(1).max(2000).optional().describe('Comma-separated event types; `<family>.*` patterns accepted'),
  wait: z.coerce.number().int().min(0).max(FEED_WAIT_MAX_SECS).default(0).describe('Seconds (0-30) to hold a request that has no events until one arrives'),
});
export type EventFeedQuery = z.infer<typeof EventFeedQuery>;
