import { z } from 'zod';
import { Timestamp } from './common.js';
import { EventFilter } from './webhooks.js';
import { FEED_LIMIT_DEFAULT, FEED_LIMIT_MAX, FEED_WAIT_MAX_SECS } from './events.js';
import { FEED_ORDERS } from '../values/events.js';
import { SINK_DEFAULT_STATUS, SINK_LIMITS } from '../values/sinks.js';

// contract §10 (extension, local service only): sinks, webhook endpoints the service serves itself,
// and the requests they keep.

export const SinkRespondBody = z.strictObject({
  status: z.number().int().min(200).max(599).default(SINK_DEFAULT_STATUS).describe('The status it answers (200-599; default 200)'),
  failFirst: z.number().int().min(0).max(SINK_LIMITS.maxFailFirst).default(0).describe('Answer 500 to the first N attempts of each event'),
  delayMs: z.number().int().min(0).max(SINK_LIMITS.maxDelayMs).default(0).describe('Wait this long before answering (0-30000 ms)'),
});

export const CreateSinkBody = z.strictObject({
  respond: SinkRespondBody.optional(),
  events: EventFilter.optional(),
});
export type CreateSinkBody = z.input<typeof CreateSinkBody>;

export const SinkSchema = z
  .object({
    id: z.string(),
    /** The service's own address and `/sinks/{id}`: its endpoint's URL. */
    url: z.string(),
    endpointId: z.string(),
    events: z.array(z.string()),
    respond: z.object({ status: z.number().int(), failFirst: z.number().int(), delayMs: z.number().int() }),
    /** Requests received so far (it keeps the newest ones only). */
    received: z.number().int(),
    createdAt: Timestamp,
  })
  .meta({ id: 'Sink' });
export type Sink = z.infer<typeof SinkSchema>;

/** The sink plus its endpoint's signing secret: only in the create response. */
export const SinkWithSecretSchema = SinkSchema.extend({ secret: z.string() }).meta({ id: 'SinkWithSecret' });
export type SinkWithSecret = z.infer<typeof SinkWithSecretSchema>;

export const SinkRequestSchema = z
  .object({
    id: z.string(),
    receivedAt: Timestamp,
    eventId: z.string().nullable(),
    eventType: z.string().nullable(),
    attempt: z.number().int().nullable(),
    headers: z.record(z.string(), z.string()),
    body: z.string(),
    signatureValid: z.boolean(),
    answeredStatus: z.number().int().nullable(),
  })
  .meta({ id: 'SinkRequest' });
export type SinkRequest = z.infer<typeof SinkRequestSchema>;

export const SinkRequestPageSchema = z
  .object({
    data: z.array(SinkRequestSchema),
    /** Pass back as `before` (order=desc) or `after` (order=asc). */
    cursor: z.string(),
    hasMore: z.boolean(),
  })
  .meta({ id: 'SinkRequestPage' });
export type SinkRequestPage = z.infer<typeof SinkRequestPageSchema>;

export const SinkRequestsQuery = z.object({
  after: z.string().min(1).max(200).optional().describe('Cursor of a previous response, or `now` for the newest position (no requests)'),
  before: z.string().min(1).max(200).optional().describe('Cursor; only requests older than it (paging back with order=desc)'),
  order: z.enum(FEED_ORDERS).default('desc'),
  limit: z.coerce.number().int().min(1).max(FEED_LIMIT_MAX).default(FEED_LIMIT_DEFAULT),
  wait: z.coerce.number().int().min(0).max(FEED_WAIT_MAX_SECS).default(0).describe('Seconds (0-30) to hold a request that finds none until one arrives'),
});
export type SinkRequestsQuery = z.infer<typeof SinkRequestsQuery>;
