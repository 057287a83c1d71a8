import { iso, isoOrNull } from '../clock.js';
import type { WebhookEndpointRecord } from '../storage/webhooks-repo.js';
import type { AttemptRequest, DeliveryRecord } from '../storage/webhook-deliveries-repo.js';
import type { Delivery, DeliveryDetail, InspectedAttempt, WebhookEndpoint } from '../../api/schemas/webhooks.js';
import { SIGNATURE_HEADER } from '../../webhooks/verify.js';

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

/** The body a delivery's inspection shows, in characters: a page and an answer stay light whatever it holds. */
export const INSPECT_BODY_CHARS = 64 * 1024;

/**
 * A signature header with its MAC hidden: with the body, a fresh one is a request every receiver of
 * the endpoint accepts for 5 minutes (spec: Signature), as good as the secret meanwhile; its `t`
 * stays, to read the attempt's time by.
 */
const redactedSignature = (value: string): string => value.replace(/(v\d+=)[^,]*/g, '$1[redacted]');

function requestView(r: AttemptRequest | null | undefined): InspectedAttempt['request'] {
  if (!r) return null;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(r.headers)) headers[name] = name.toLowerCase() === SIGNATURE_HEADER.toLowerCase() ? redactedSignature(value) : value;
  return { url: r.url, headers };
}

/**
 * One delivery inspected: each attempt's request as sent and the answer it got, and the body every
 * attempt sent. The API's `GET /v1/webhooks/{id}/deliveries/{deliveryId}` and the console's inspector
 * both show this.
 */
export function deliveryDetailView(d: DeliveryRecord, rawBody: string | undefined): DeliveryDetail {
  const base = deliveryView(d);
  return {
    ...base,
    attempts: d.attempts.map((a, i) => ({ ...base.attempts[i]!, request: requestView(a.request), responseBody: a.responseBody ?? null })),
    body: rawBody === undefined ? null : rawBody.slice(0, INSPECT_BODY_CHARS),
    bodyTruncated: rawBody !== undefined && rawBody.length > INSPECT_BODY_CHARS,
  };
}
