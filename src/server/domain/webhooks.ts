import type { Clock } from '../clock.js';
import { iso } from '../clock.js';
import type { UnitOfWork } from '../storage/unit-of-work.js';
import type { Scheduler } from '../scheduler.js';
import type { EventStore } from './events.js';
import { newId } from '../ids.js';
import { conflict, notFound, validationError } from '../errors.js';
import type { WebhookEndpointRecord, WebhookEndpointsRepo } from '../storage/webhooks-repo.js';
import type { AttemptRecord, DeliveryRecord, WebhookDeliveriesRepo } from '../storage/webhook-deliveries-repo.js';
import type { CreateWebhookBody, DeliveryStatus, UpdateWebhookBody } from '../../api/schemas/webhooks.js';
import { SINGLE_ATTEMPT_EVENT_TYPES, TEST_EVENT_TYPE, eventFilterMatches } from '../../api/schemas/events.js';
import { checkWebhookUrl } from '../webhooks/url-safety.js';
import { newWebhookSecret } from '../webhooks/signing.js';
import { MAX_ATTEMPTS, nextAttemptAfterFailure } from '../webhooks/retry-schedule.js';

export interface WebhookDomainDeps {
  uow: UnitOfWork;
  clock: Clock;
  scheduler: Scheduler;
  events: EventStore;
  webhookEndpoints: WebhookEndpointsRepo;
  webhookDeliveries: WebhookDeliveriesRepo;
}

/** A bounded list (contract §10): at most this many endpoints per account. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 50;
/** spec: Limits — the delivery log keeps 7 days. */
export const DELIVERY_LOG_RETENTION_MS = 7 * 24 * 3600 * 1000;
/** spec: Limits and Webhook endpoint states — auto-disable thresholds. */
export const AUTO_DISABLE = { minConsecutiveFailures: 50, noSuccessForMs: 72 * 3600 * 1000, streakAgeMs: 72 * 3600 * 1000 } as const;
export const DISABLED_EVENT_TYPE = 'webhook_endpoint.disabled';
/** The scheduler job that sends the retries due at one 5-minute tick (contract §10). */
export const TICK_JOB = 'webhooks.tick';
const LAST_SUCCESS_RESOLUTION_MS = 60_000;

function assertUrl(raw: string): string {
  const check = checkWebhookUrl(raw);
  if (!check.ok) throw validationError(['body', 'url'], check.reason!);
  return check.url!.href;
}

const normalizeFilter = (events: string[] | undefined): string[] => (events === undefined ? ['*'] : [...new Set(events)]);

export function getEndpoint(d: Pick<WebhookDomainDeps, 'webhookEndpoints'>, accountId: string, id: string): WebhookEndpointRecord {
  const e = d.webhookEndpoints.get(accountId, id);
  if (!e) throw notFound('webhook endpoint');
  return e;
}

export function createEndpoint(d: WebhookDomainDeps, accountId: string, body: CreateWebhookBody): WebhookEndpointRecord {
  const url = assertUrl(body.url);
  if (d.webhookEndpoints.countForAccount(accountId) >= MAX_ENDPOINTS_PER_ACCOUNT) {
    throw conflict(`an account can have at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints; delete one first`);
  }
  const now = d.clock.nowMs();
  const record: WebhookEndpointRecord = {
    id: newId('we'),
    accountId,
    url,
    events: normalizeFilter(body.events),
    description: body.description ?? null,
    secret: newWebhookSecret(),
    enabled: true,
    disabledAt: null,
    disabledReason: null,
    consecutiveFailures: 0,
    failingSince: null,
    lastSuccessAt: null,
    createdAt: now,
    updatedAt: now,
  };
  d.webhookEndpoints.insert(record);
  return record;
}

/**
 * PATCH: `enabled: false` disables by hand (reason `manual`) and stops scheduled deliveries;
 * `enabled: true` re-enables, clearing disabledAt, disabledReason and the failing streak (spec:
 * Webhook endpoint states).
 */
export function updateEndpoint(d: WebhookDomainDeps, accountId: string, id: string, patch: UpdateWebhookBody): WebhookEndpointRecord {
  return d.uow.transaction(() => {
    const e = getEndpoint(d, accountId, id);
    const now = d.clock.nowMs();
    const url = patch.url !== undefined ? assertUrl(patch.url) : undefined;
    d.webhookEndpoints.update(
      id,
      { url, events: patch.events !== undefined ? normalizeFilter(patch.events) : undefined, description: patch.description },
      now,
    );
    if (patch.enabled === true && !e.enabled) {
      d.webhookEndpoints.update(id, { enabled: true, disabledAt: null, disabledReason: null, consecutiveFailures: 0, failingSince: null }, now);
    } else if (patch.enabled === false && e.enabled) {
      disableEndpoint(d, e, 'manual', now, false);
    }
    return d.webhookEndpoints.get(accountId, id)!;
  });
}

export function deleteEndpoint(d: WebhookDomainDeps, accountId: string, id: string): void {
  getEndpoint(d, accountId, id);
  // Its deliveries go with it (ON DELETE CASCADE); an attempt in flight finds nothing to record.
  d.webhookEndpoints.delete(id);
}

/** A new secret at once; attempts from now on are signed with it, the old one is never used again. */
export function rotateSecret(d: WebhookDomainDeps, accountId: string, id: string): WebhookEndpointRecord {
  getEndpoint(d, accountId, id);
  d.webhookEndpoints.update(id, { secret: newWebhookSecret() }, d.clock.nowMs());
  return d.webhookEndpoints.get(accountId, id)!;
}

/** spec: Webhook endpoint states — all three conditions, on the service clock. */
export function shouldAutoDisable(e: WebhookEndpointRecord, now: number): boolean {
  return (
    e.enabled &&
    e.consecutiveFailures >= AUTO_DISABLE.minConsecutiveFailures &&
    (e.lastSuccessAt === null || now - e.lastSuccessAt >= AUTO_DISABLE.noSuccessForMs) &&
    e.failingSince !== null &&
    now - e.failingSince >= AUTO_DISABLE.streakAgeMs
  );
}

/**
 * Disables an endpoint and abandons its scheduled deliveries. The automatic kind emits
 * `webhook_endpoint.disabled`, which the outbox delivers only to the account's other enabled
 * endpoints subscribed to it (this one is disabled by then), and which the feed keeps.
 */
export function disableEndpoint(d: WebhookDomainDeps, e: WebhookEndpointRecord, reason: string, now: number, emit: boolean): void {
  d.uow.transaction(() => {
    d.webhookEndpoints.update(e.id, { enabled: false, disabledAt: now, disabledReason: reason }, now);
    d.webhookDeliveries.abandonScheduled(e.id, `endpoint disabled (${reason})`, now);
    if (emit) {
      const fresh = d.webhookEndpoints.getById(e.id)!;
      d.events.emit(e.accountId, DISABLED_EVENT_TYPE, {
        endpointId: e.id,
        url: e.url,
        reason,
        consecutiveFailures: fresh.consecutiveFailures,
        disabledAt: iso(now),
      });
    }
  });
}

/**
 * contract §9 (sandbox): the automatic disable, made to happen now. The same path as auto-disable in
 * recordAttempt (disableEndpoint with reason `consecutive_failures`, emitting the event), without
 * waiting 72 hours of failures; `consecutiveFailures` in the event is the endpoint's real streak.
 */
export function sandboxAutoDisable(d: WebhookDomainDeps, accountId: string, id: string): WebhookEndpointRecord {
  return d.uow.transaction(() => {
    const e = getEndpoint(d, accountId, id);
    if (!e.enabled) throw conflict('this webhook endpoint is already disabled');
    disableEndpoint(d, e, 'consecutive_failures', d.clock.nowMs(), true);
    return d.webhookEndpoints.get(accountId, id)!;
  });
}

/** The outbox: called inside the emitting transaction (EventStore.addOutbox). Returns how many deliveries it wrote. */
export function writeDeliveriesForEvent(
  d: Pick<WebhookDomainDeps, 'webhookEndpoints' | 'webhookDeliveries'>,
  event: { id: string; accountId: string; type: string; createdAt: number; body: Record<string, unknown> },
): number {
  let written = 0;
  for (const ep of d.webhookEndpoints.enabledForAccount(event.accountId)) {
    if (!eventFilterMatches(ep.events, event.type)) continue;
    // spec: Event catalog — delivered only to the OTHER enabled endpoints subscribed to it.
    if (event.type === DISABLED_EVENT_TYPE && event.body.endpointId === ep.id) continue;
    d.webhookDeliveries.insert({
      id: newId('whd'),
      endpointId: ep.id,
      accountId: event.accountId,
      eventId: event.id,
      eventType: event.type,
      body: null,
      isTest: false,
      maxAttempts: SINGLE_ATTEMPT_EVENT_TYPES.includes(event.type) ? 1 : MAX_ATTEMPTS,
      createdAt: event.createdAt,
    });
    written++;
  }
  return written;
}

/** The sample event `POST /v1/webhooks/{id}/test` delivers (not in the feed). */
export function createTestDelivery(d: WebhookDomainDeps, e: WebhookEndpointRecord): DeliveryRecord {
  const now = d.clock.nowMs();
  const eventId = newId('evt');
  const body = {
    id: eventId,
    type: TEST_EVENT_TYPE,
    createdAt: iso(now),
    endpointId: e.id,
    message: 'A sample delivery from svc: answer 2xx to acknowledge. It is not in GET /v1/events.',
  };
  const id = newId('whd');
  d.webhookDeliveries.insert({ id, endpointId: e.id, accountId: e.accountId, eventId, eventType: TEST_EVENT_TYPE, body: JSON.stringify(body), isTest: true, maxAttempts: 1, createdAt: now });
  return d.webhookDeliveries.getById(id)!;
}

export function getDelivery(d: WebhookDomainDeps, accountId: string, endpointId: string, deliveryId: string): DeliveryRecord {
  getEndpoint(d, accountId, endpointId);
  const delivery = d.webhookDeliveries.get(accountId, endpointId, deliveryId);
  if (!delivery || delivery.createdAt < d.clock.nowMs() - DELIVERY_LOG_RETENTION_MS) throw notFound('delivery');
  return delivery;
}

/** Puts one more attempt of a delivery due now (a manual retry); the worker sends it at once. */
export function scheduleManualRetry(d: WebhookDomainDeps, accountId: string, endpointId: string, deliveryId: string, inFlight: boolean): DeliveryRecord {
  return d.uow.transaction(() => {
    const endpoint = getEndpoint(d, accountId, endpointId);
    const delivery = getDelivery(d, accountId, endpointId, deliveryId);
    if (!endpoint.enabled) throw conflict('this webhook endpoint is disabled; re-enable it (PATCH enabled: true) before retrying a delivery');
    if (inFlight) throw conflict('an attempt of this delivery is in progress; retry after it finishes');
    if (d.webhookDeliveries.rawBody(delivery) === undefined) throw conflict('the event of this delivery is no longer stored');
    const now = d.clock.nowMs();
    d.webhookDeliveries.scheduleAttempt(delivery.id, now, delivery.attempt === 0 ? 'pending' : delivery.status === 'failed' ? 'failed' : 'pending', now);
    return d.webhookDeliveries.getById(delivery.id)!;
  });
}

export interface AttemptResult {
  succeeded: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number | null;
  error: string | null;
  /** spec: Delivery — timeouts, connection errors, 408, 409, 425, 429 and 5xx. */
  retryable: boolean;
  retryAfterMs?: number;
}

/**
 * Records one attempt in one transaction: the delivery's latest attempt and history, the endpoint's
 * failing streak (samples excluded), the next attempt (at a tick boundary) or abandonment, and
 * auto-disable. Returns the next attempt time, or null.
 */
export function recordAttempt(d: WebhookDomainDeps, deliveryId: string, attempt: number, attemptAt: number, r: AttemptResult): number | null {
  return d.uow.transaction(() => {
    const delivery = d.webhookDeliveries.getById(deliveryId);
    const endpoint = delivery && d.webhookEndpoints.getById(delivery.endpointId);
    if (!delivery || !endpoint) return null; // deleted while in flight
    let next: number | null = null;
    let status: DeliveryStatus = 'succeeded';
    if (!r.succeeded) {
      next = nextAttemptAfterFailure({
        attempt,
        maxAttempts: delivery.maxAttempts,
        attemptAt,
        retryable: r.retryable,
        status: r.responseStatus,
        retryAfterMs: r.retryAfterMs,
      });
      if (!endpoint.enabled && !delivery.isTest) next = null;
      status = next === null ? 'abandoned' : 'failed';
    }
    const history: AttemptRecord = { attempt, at: attemptAt, outcome: r.succeeded ? 'succeeded' : 'failed', responseStatus: r.responseStatus, durationMs: r.durationMs, error: r.error };
    d.webhookDeliveries.recordAttempt(deliveryId, {
      attempt,
      status,
      responseStatus: r.responseStatus,
      responseBody: r.responseBody,
      durationMs: r.durationMs,
      error: r.error,
      nextAttemptAt: next,
      history,
      now: d.clock.nowMs(),
    });
    if (!delivery.isTest) {
      if (!r.succeeded) {
        d.webhookEndpoints.recordOutcome(endpoint.id, false, attemptAt);
        const fresh = d.webhookEndpoints.getById(endpoint.id)!;
        if (shouldAutoDisable(fresh, attemptAt)) {
          disableEndpoint(d, fresh, 'consecutive_failures', attemptAt, true);
          return null;
        }
      } else if (endpoint.consecutiveFailures > 0 || endpoint.lastSuccessAt === null || attemptAt - endpoint.lastSuccessAt >= LAST_SUCCESS_RESOLUTION_MS) {
        // A healthy endpoint's row is rewritten at most once a minute: lastSuccessAt only has to
        // answer "a success in the last 72 hours?".
        d.webhookEndpoints.recordOutcome(endpoint.id, true, attemptAt);
      }
    }
    if (next !== null && !d.webhookDeliveries.hasJobAt(TICK_JOB, next)) d.scheduler.schedule(TICK_JOB, next, { at: next });
    return next;
  });
}
