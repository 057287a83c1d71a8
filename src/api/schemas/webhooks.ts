import { z } from 'zod';
import { DisplayName, NullableTimestamp, Timestamp } from './common.js';
import { pageOf } from './page.js';
import { eventFilterError } from './events.js';
import { DELIVERY_STATUSES } from '../values/webhooks.js';

// contract §10: webhook endpoints and their delivery log.

export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_DESCRIPTION_MAX = 500;
export const WEBHOOK_EVENTS_MAX = 100;

export const EventFilter = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(WEBHOOK_EVENTS_MAX)
  .superRefine((entries, ctx) => {
    entries.forEach((entry, i) => {
      const error = eventFilterError(entry);
      if (error) ctx.addIssue({ code: 'custom', path: [i], message: error });
    });
    if (entries.includes('*') && entries.length > 1) ctx.addIssue({ code: 'custom', message: '"*" means every event and must be the only entry' });
  })
  .describe('Event types to deliver: catalog types, `<family>.*` patterns, or `["*"]` (default) for every event');

const WebhookUrl = z.string().min(1).max(WEBHOOK_URL_MAX).describe('https URL; http only for loopback hosts (localhost, 127.0.0.0/8, [::1])');

export const CreateWebhookBody = z.strictObject({
  url: WebhookUrl,
  events: EventFilter.optional(),
  description: DisplayName(z.string().max(WEBHOOK_DESCRIPTION_MAX)).nullable().optional(),
});
export type CreateWebhookBody = z.input<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z
  .strictObject({
    url: WebhookUrl.optional(),
    events: EventFilter.optional(),
    description: DisplayName(z.string().max(WEBHOOK_DESCRIPTION_MAX)).nullable().optional(),
    enabled: z.boolean().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'give at least one of url, events, description, enabled' });
export type UpdateWebhookBody = z.input<typeof UpdateWebhookBody>;

export const WebhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    description: z.string().nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    disabledAt: NullableTimestamp,
    /** `consecutive_failures` (automatic, spec: Webhook endpoint states) or `manual` (PATCH enabled:false). */
    disabledReason: z.string().nullable(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** The endpoint plus its signing secret: only in the create and rotate-secret responses. */
export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({ secret: z.string() }).meta({ id: 'WebhookEndpointWithSecret' });
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecretSchema>;

export const WebhookEndpointPage = pageOf(WebhookEndpointSchema);

export const DeliveryStatus = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

export const DeliveryAttemptSchema = z.object({
  attempt: z.number().int().min(1),
  at: Timestamp,
  outcome: z.enum(['succeeded', 'failed']),
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttemptSchema>;

/**
 * One event's delivery to one endpoint, showing its latest attempt (`attempt` = attempts made so
 * far; 0 before the first). `attempts` is the history of every attempt, oldest first.
 */
export const DeliverySchema = z
  .object({
    id: z.string(),
    endpointId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    attempt: z.number().int().min(0),
    status: DeliveryStatus,
    responseStatus: z.number().int().nullable(),
    responseBody: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    error: z.string().nullable(),
    nextAttemptAt: NullableTimestamp,
    createdAt: Timestamp,
    attempts: z.array(DeliveryAttemptSchema),
  })
  .meta({ id: 'WebhookDelivery' });
export type Delivery = z.infer<typeof DeliverySchema>;

/**
 * What one attempt sent and got back, as `GET /v1/webhooks/{id}/deliveries/{deliveryId}` and the
 * console's inspector show it (views/webhooks.ts writes it for both).
 */
export const InspectedAttemptSchema = DeliveryAttemptSchema.extend({
  request: z
    .object({
      url: z.string().describe('The URL this attempt was sent to (the endpoint\'s then; it may have changed since)'),
      headers: z.record(z.string(), z.string()).describe('The headers as sent, the signature\'s MAC kept as `[redacted]` (its `t` shown)'),
    })
    .nullable()
    .describe('null: nothing was sent (refused before the POST), or the attempt was made before requests were kept'),
  responseBody: z.string().nullable().describe("The answer's first 1 KB; null: none (or not kept)"),
});
export type InspectedAttempt = z.infer<typeof InspectedAttemptSchema>;

/** One delivery with each attempt's request and answer, and the body every attempt sent. */
export const DeliveryDetailSchema = DeliverySchema.extend({
  attempts: z.array(InspectedAttemptSchema),
  body: z.string().nullable().describe('The body every attempt sent (the event\'s, never changed), its first 64 KB; null: the event is no longer stored'),
  bodyTruncated: z.boolean(),
}).meta({ id: 'WebhookDeliveryDetail' });
export type DeliveryDetail = z.infer<typeof DeliveryDetailSchema>;

export const DeliveryPage = pageOf(DeliverySchema);

export const DeliveryParams = z.strictObject({ id: z.string().min(1).max(200), deliveryId: z.string().min(1).max(200) });

export const DeliveryListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).optional(),
  format: z.enum(['array']).optional(),
  status: DeliveryStatus.optional(),
});

// ---- Resend and replay (contract §10, extension) ----

export const ResendEventBody = z.strictObject({
  endpointId: z.string().min(1).max(200).optional().describe('Only this endpoint (whatever its filter); default: every enabled endpoint subscribed to the type'),
});
export type ResendEventBody = z.input<typeof ResendEventBody>;

export const ResendEventSchema = z.object({ deliveries: z.array(DeliverySchema) }).meta({ id: 'EventResend' });
export type ResendEvent = z.infer<typeof ResendEventSchema>;

export const ReplayWebhookBody = z.strictObject({
  after: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only events after this: a cursor of the events feed (`GET /v1/events`), or an ISO 8601 time (events created after it)'),
  types: EventFilter.optional().describe('Only these event types: catalog types or `<family>.*` patterns'),
  status: DeliveryStatus.optional().describe("Only events whose newest delivery to this endpoint is in this status (within the delivery log's 7 days)"),
});
export type ReplayWebhookBody = z.input<typeof ReplayWebhookBody>;

export const ReplayWebhookSchema = z.object({ count: z.number().int().min(0) }).meta({ id: 'WebhookReplay' });
export type ReplayWebhook = z.infer<typeof ReplayWebhookSchema>;
