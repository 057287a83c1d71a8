// The server signs with the public scheme's one implementation (src/webhooks/verify.ts), so the
// service, the CLI's `webhooks listen` and receivers can never disagree.
import { SVC_VERSION } from '../../api/values/version.js';
import { SIGNATURE_HEADER, signWebhookPayload } from '../../webhooks/verify.js';

export { SIGNATURE_HEADER, signWebhookPayload };

export const USER_AGENT = `svc-webhooks/${SVC_VERSION}`;

export interface DeliveryHeaderInput {
  rawBody: string;
  secret: string;
  eventId: string;
  eventType: string;
  attempt: number;
  /** Real wall-clock milliseconds (contract §10: t is never the service's advanced clock). */
  wallNowMs: number;
  userAgent: string;
}

/** spec: Delivery — the headers of one attempt, freshly signed. */
export function deliveryHeaders(i: DeliveryHeaderInput): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    [SIGNATURE_HEADER]: signWebhookPayload(i.rawBody, i.secret, Math.floor(i.wallNowMs / 1000)),
    'Service-Event-Id': i.eventId,
    'Service-Event-Type': i.eventType,
    'Service-Delivery-Attempt': String(i.attempt),
    'User-Agent': i.userAgent,
  };
}
