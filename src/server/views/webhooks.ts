import { iso, isoOrNull } from '../clock.js';
import type { WebhookEndpointRecord } from '../storage/webhooks-repo.js';
import type { DeliveryRecord } from '../storage/webhook-deliveries-repo.js';
import type { Delivery, WebhookEndpoint } from '../../api/schemas/webhooks.js';

// Records → API shapes for webhooks (contract §10). Rules for reads: views/README.md.

export const webhookEndpointView = (e: WebhookEndpointRecord): WebhookEndpoint => ({
  id: e.id,
  url: e.url,
  events: e.events,
  enabled: e.enabled,
  description: e.description,
  createdAt: iso(e.createdAt),
  updatedAt: iso(e.updatedAt),
  disabledAt: isoOrNull(e.disabledAt),
  disabledReason: e.disabledReason,
});

export const deliveryView = (d: DeliveryRecord): Delivery => ({
  id: d.id,
  endpointId: d.endpointId,
  eventId: d.eventId,
  eventType: d.eventType,
  attempt: d.attempt,
  status: d.status,
  responseStatus: d.responseStatus,
  responseBody: d.responseBody,
  durationMs: d.durationMs,
  error: d.error,
  nextAttemptAt: isoOrNull(d.nextAttemptAt),
  createdAt: iso(d.createdAt),
  attempts: d.attempts.map((a) => ({ attempt: a.attempt, at: iso(a.at), outcome: a.outcome, responseStatus: a.responseStatus, durationMs: a.durationMs, error: a.error })),
});
