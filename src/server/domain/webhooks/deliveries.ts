import { iso } from '../../clock.js';
import type { Actor } from '../actor.js';
import { newId } from '../../ids.js';
import { conflict, notFound } from '../../errors.js';
import type { AttemptOutcomeWrite, AttemptRecord, AttemptRequest, DeliveryRecord, DueDelivery } from '../../storage/webhook-deliveries-repo.js';
import type { EndpointRoute, WebhookEndpointRecord } from '../../storage/webhooks-repo.js';
import type { Page } from '../../../api/schemas/page.js';
import type { DeliveryStatus } from '../../../api/schemas/webhooks.js';
import { SINGLE_ATTEMPT_EVENT_TYPES, TEST_EVENT_TYPE, eventFilterMatches } from '../../../api/schemas/events.js';
import { MAX_ATTEMPTS, nextAttemptAfterFailure } from './retry-schedule.js';
import { DISABLED_EVENT_TYPE, disableEndpoint, endpointToChange, getEndpoint, shouldAutoDisable, type WebhookDomainDeps } from './endpoints.js';

/** spec: Limits — the delivery log keeps 7 days. */
export const DELIVERY_LOG_RETENTION_MS = 7 * 24 * 3600 * 1000;
/** The scheduler job that sends the retries due at one 5-minute tick (contract §10). */
export const TICK_JOB = 'webhooks.tick';
const LAST_SUCCESS_RESOLUTION_MS = 60_000;

/** The oldest `createdAt` still in the delivery log at `now` (spec: Limits, 7 days). */
const logCutoff = (now: number): number => now - DELIVERY_LOG_RETENTION_MS;

/** The outbox: called inside the emitting transaction (EventStore.addOutbox). Returns the deliveries it wrote (each due at once). */
export async function writeDeliveriesForEvent(
  d: Pick<WebhookDomainDeps, 'webhookEndpoints' | 'webhookDeliveries'>,
  event: { id: string; accountId: string; type: string; createdAt: number; body: Record<string, unknown> },
): Promise<DueDelivery[]> {
  const written: DueDelivery[] = [];
  for (const ep of await d.webhookEndpoints.enabledForAccount(event.accountId)) {
    if (!wantsEvent(ep, event)) continue;
    written.push(await insertDelivery(d, ep.id, event, event.createdAt));
  }
  return written;
}

/**
 * Whether an endpoint is to be sent an event of its account: subscribed to its type, and not the
 * endpoint a `webhook_endpoint.disabled` is about (spec: Event catalog — delivered only to the OTHER
 * enabled endpoints subscribed to it).
 */
export function wantsEvent(ep: Pick<EndpointRoute, 'id' | 'events'>, event: { type: string; body: Record<string, unknown> }): boolean {
  return eventFilterMatches(ep.events, event.type) && !(event.type === DISABLED_EVENT_TYPE && event.body.endpointId === ep.id);
}

/**
 * A new delivery of a stored event (its body read from the feed at each attempt, signed then) to an
 * endpoint, pending and due at `createdAt`: the outbox's for a new event, a resend's or a replay's now.
 */
export async function insertDelivery(
  d: Pick<WebhookDomainDeps, 'webhookDeliveries'>,
  endpointId: string,
  event: { id: string; accountId: string; type: string },
  createdAt: number,
): Promise<DueDelivery> {
  const id = newId('whd');
  await d.webhookDeliveries.insert({
    id,
    endpointId,
    accountId: event.accountId,
    eventId: event.id,
    eventType: event.type,
    body: null,
    isTest: false,
    maxAttempts: SINGLE_ATTEMPT_EVENT_TYPES.includes(event.type) ? 1 : MAX_ATTEMPTS,
    createdAt,
  });
  return { id, endpointId };
}

/**
 * The sample event `POST /v1/webhooks/{id}/test` delivers (not in the feed): one attempt, to the
 * actor's endpoint, whatever its filter and even when it is disabled. The worker sends it at once.
 * contract §2: signed with the endpoint's secret, so a live endpoint's probe needs a live key.
 */
export async function createTestDelivery(d: WebhookDomainDeps, actor: Actor, endpointId: string): Promise<DeliveryRecord> {
  const e = await endpointToChange(d, actor, endpointId);
  return d.uow.write(async (tx) => {
    const now = tx.clock.nowMs();
    const eventId = newId('evt');
    const body = {
      id: eventId,
      type: TEST_EVENT_TYPE,
      createdAt: iso(now),
      endpointId: e.id,
      message: 'A sample delivery from svc: answer 2xx to acknowledge. It is not in GET /v1/events.',
    };
    const id = newId('whd');
    await tx.webhookDeliveries.insert({ id, endpointId: e.id, accountId: e.accountId, eventId, eventType: TEST_EVENT_TYPE, body: JSON.stringify(body), isTest: true, maxAttempts: 1, createdAt: now });
    return (await tx.webhookDeliveries.getById(id))!;
  });
}

/** One delivery of the actor's endpoint, within the log's 7 days, or 404. */
export async function getDelivery(d: WebhookDomainDeps, actor: Actor, endpointId: string, deliveryId: string): Promise<DeliveryRecord> {
  await getEndpoint(d, actor, endpointId);
  const delivery = await d.webhookDeliveries.get(actor.account.id, endpointId, deliveryId);
  if (!delivery || delivery.createdAt < logCutoff(d.clock.nowMs())) throw notFound('delivery');
  return delivery;
}

/**
 * One delivery of the actor's endpoint with the body its attempts sent: the stored event's (or the
 * sample's) bytes, never copied per attempt since they never change; undefined once no longer stored.
 */
export async function inspectDelivery(d: WebhookDomainDeps, actor: Actor, endpointId: string, deliveryId: string): Promise<{ delivery: DeliveryRecord; rawBody: string | undefined }> {
  const delivery = await getDelivery(d, actor, endpointId, deliveryId);
  return { delivery, rawBody: await d.webhookDeliveries.rawBody(delivery) };
}

/** The delivery log of the actor's endpoint: the last 7 days (spec: Limits), newest first. */
export async function listDeliveries(
  d: WebhookDomainDeps,
  actor: Actor,
  endpointId: string,
  q: { limit: number; cursor?: string; status?: DeliveryStatus },
): Promise<Page<DeliveryRecord>> {
  const endpoint = await getEndpoint(d, actor, endpointId);
  return await d.webhookDeliveries.list(endpoint.id, { since: logCutoff(d.clock.nowMs()), limit: q.limit, cursor: q.cursor, status: q.status });
}

/** Deletes finished deliveries past the log's 7 days (they are invisible already: reads cut off at 7 days). */
export async function purgeExpiredDeliveries(d: Pick<WebhookDomainDeps, 'webhookDeliveries'>, now: number): Promise<void> {
  await d.webhookDeliveries.purgeFinishedBefore(logCutoff(now));
}

/**
 * Puts one more attempt of a delivery due now (a manual retry); the worker sends it at once.
 * `inFlight`: whether the delivery machinery is attempting it right now (then 409). contract §2: a
 * live endpoint's redelivery (a live event, signed with the live secret) needs a live key.
 */
export async function scheduleManualRetry(d: WebhookDomainDeps, actor: Actor, endpointId: string, deliveryId: string, inFlight: boolean): Promise<DeliveryRecord> {
  return await d.uow.write(async (tx) => {
    const endpoint = await endpointToChange(tx, actor, endpointId);
    const delivery = await getDelivery(tx, actor, endpointId, deliveryId);
    if (!endpoint.enabled) throw conflict('this webhook endpoint is disabled; re-enable it (PATCH enabled: true) before retrying a delivery');
    if (inFlight) throw conflict('an attempt of this delivery is in progress; retry after it finishes');
    if (await tx.webhookDeliveries.rawBody(delivery) === undefined) throw conflict('the event of this delivery is no longer stored');
    const now = tx.clock.nowMs();
    await tx.webhookDeliveries.scheduleAttempt(delivery.id, now, delivery.attempt === 0 ? 'pending' : delivery.status === 'failed' ? 'failed' : 'pending', now);
    return (await tx.webhookDeliveries.getById(delivery.id))!;
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
  /** The request as sent (kept in the attempt's history); absent when nothing was sent. */
  request?: AttemptRequest;
}

/** An attempt made, to be recorded: which delivery, its number, when it was made and how it went. */
export interface AttemptMade {
  deliveryId: string;
  attempt: number;
  at: number;
  result: AttemptResult;
}

/**
 * Records one attempt in one transaction (see recordAttempts). Returns the next attempt time, or
 * null. A background step: no actor.
 */
export async function recordAttempt(d: WebhookDomainDeps, deliveryId: string, attempt: number, attemptAt: number, r: AttemptResult): Promise<number | null> {
  return (await recordAttempts(d, [{ deliveryId, attempt, at: attemptAt, result: r }]))[0] ?? null;
}

/**
 * Records attempts in ONE transaction (a transaction per attempt keeps the worker behind
 * the API under load): each delivery's latest attempt and history, the endpoint's failing streak
 * (samples excluded), the next attempt (at a tick boundary) or abandonment, and auto-disable. The
 * deliveries' states are read in one query and their outcomes written in one statement. An attempt
 * whose number is recorded already (another process took the delivery over when this one's claim
 * ran out, or a batch runs again) is not recorded twice. Returns each attempt's next attempt time,
 * or null (none, or not recorded), in the order given. A background step: no actor.
 */
export async function recordAttempts(d: WebhookDomainDeps, made: readonly AttemptMade[]): Promise<Array<number | null>> {
  if (made.length === 0) return [];
  return await d.uow.write(async (tx) => {
    const states = new Map((await tx.webhookDeliveries.attemptStates(made.map((m) => m.deliveryId), { body: false })).map((s) => [s.id, s]));
    // A lane is one endpoint: a batch reads each endpoint once, and again only after writing it.
    const endpoints = new Map<string, WebhookEndpointRecord | undefined>();
    const endpointById = async (id: string) => {
      if (!endpoints.has(id)) endpoints.set(id, await tx.webhookEndpoints.getById(id));
      return endpoints.get(id);
    };
    const reread = async (id: string) => {
      endpoints.delete(id);
      return (await endpointById(id))!;
    };
    let writes: AttemptOutcomeWrite[] = [];
    const write = async () => {
      await tx.webhookDeliveries.recordAttempts(writes);
      writes = [];
    };
    const ticks = new Set<number>();
    const nexts: Array<number | null> = made.map(() => null);
    const now = tx.clock.nowMs();
    // Endpoint by endpoint, in id order (a delivery's attempts in the order given): two replicas'
    // batches then update the endpoints' rows they share in one order. In the order given, two
    // batches crossing over two endpoints deadlocked, and PostgreSQL broke it after a second.
    const endpointOf = (i: number) => states.get(made[i]!.deliveryId)?.endpointId ?? '';
    const order = made.map((_m, i) => i).sort((a, b) => (endpointOf(a) < endpointOf(b) ? -1 : endpointOf(a) > endpointOf(b) ? 1 : a - b));
    for (const i of order) {
      const { deliveryId, attempt, at, result: r } = made[i]!;
      // A receiver's answer is any bytes: NUL becomes U+FFFD (a text column of PostgreSQL cannot hold it).
      const responseBody = r.responseBody?.includes('\u0000') ? r.responseBody.replaceAll('\u0000', '\uFFFD') : r.responseBody;
      const delivery = states.get(deliveryId);
      // Deleted while in flight, or this attempt's outcome is in already (recorded once).
      if (!delivery || delivery.attempt >= attempt) continue;
      delivery.attempt = attempt; // the same attempt twice in one batch is recorded once too
      const endpoint = await endpointById(delivery.endpointId);
      if (!endpoint) continue;
      let next: number | null = null;
      let status: DeliveryStatus = 'succeeded';
      if (!r.succeeded) {
        next = nextAttemptAfterFailure({ attempt, maxAttempts: delivery.maxAttempts, attemptAt: at, retryable: r.retryable, status: r.responseStatus, retryAfterMs: r.retryAfterMs });
        if (!endpoint.enabled && !delivery.isTest) next = null;
        status = next === null ? 'abandoned' : 'failed';
      }
      const history: AttemptRecord = {
        attempt,
        at,
        outcome: r.succeeded ? 'succeeded' : 'failed',
        responseStatus: r.responseStatus,
        durationMs: r.durationMs,
        error: r.error,
        responseBody,
        request: r.request ?? null,
      };
      writes.push({ id: deliveryId, attempt, status, responseStatus: r.responseStatus, responseBody, durationMs: r.durationMs, error: r.error, nextAttemptAt: next, history, now });
      if (!delivery.isTest) {
        if (!r.succeeded) {
          await tx.webhookEndpoints.recordOutcome(endpoint.id, false, at);
          const fresh = await reread(endpoint.id);
          if (shouldAutoDisable(fresh, at)) {
            // The outcomes so far are written first: disabling abandons every attempt still scheduled.
            await write();
            await disableEndpoint(tx, fresh, 'consecutive_failures', at, true);
            await reread(endpoint.id);
            continue;
          }
        } else if (endpoint.consecutiveFailures > 0 || endpoint.lastSuccessAt === null || at - endpoint.lastSuccessAt >= LAST_SUCCESS_RESOLUTION_MS) {
          // A healthy endpoint's row is rewritten at most once a minute: lastSuccessAt only has to
          // answer "a success in the last 72 hours?".
          await tx.webhookEndpoints.recordOutcome(endpoint.id, true, at);
          await reread(endpoint.id);
        }
      }
      nexts[i] = next;
      if (next !== null) ticks.add(next);
    }
    await write();
    for (const next of ticks) if (!(await tx.webhookDeliveries.hasJobAt(TICK_JOB, next))) await tx.scheduler.schedule(TICK_JOB, next, { at: next });
    return nexts;
  });
}
