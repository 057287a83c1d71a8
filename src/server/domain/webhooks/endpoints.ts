import type { Clock } from '../../clock.js';
import { iso } from '../../clock.js';
import type { UnitOfWork, DomainScheduler, DomainEvents } from '../deps.js';
import type { Actor } from '../actor.js';
import { assertMayChange } from '../test-keys.js';
import { newId, randomBase62 } from '../../ids.js';
import { conflict, notFound, validationError } from '../../errors.js';
import type { WebhookEndpointRecord, WebhookEndpointsRepo } from '../../storage/webhooks-repo.js';
import type { WebhookDeliveriesRepo } from '../../storage/webhook-deliveries-repo.js';
import type { CreateWebhookBody, UpdateWebhookBody } from '../../../api/schemas/webhooks.js';
import { checkWebhookUrl } from './url-safety.js';
import { WEBHOOK_SECRET_PREFIX } from '../../../api/values/webhooks.js';

/** What the webhooks domain reads and writes (a Pick of the service deps). */
export interface WebhookDomainDeps {
  uow: UnitOfWork;
  clock: Clock;
  scheduler: DomainScheduler;
  events: DomainEvents;
  webhookEndpoints: WebhookEndpointsRepo;
  webhookDeliveries: WebhookDeliveriesRepo;
}

/** A bounded list (contract §10): at most this many endpoints per account. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 50;
/** spec: Limits and Webhook endpoint states — auto-disable thresholds. */
export const AUTO_DISABLE = { minConsecutiveFailures: 50, noSuccessForMs: 72 * 3600 * 1000, streakAgeMs: 72 * 3600 * 1000 } as const;
export const DISABLED_EVENT_TYPE = 'webhook_endpoint.disabled';

/** spec: Global conventions 5 — webhook signing secrets start with `whsec_`. */
export const newWebhookSecret = (): string => `${WEBHOOK_SECRET_PREFIX}${randomBase62(32)}`;

function assertUrl(raw: string): string {
  const check = checkWebhookUrl(raw);
  if (!check.ok) throw validationError(['body', 'url'], check.reason!);
  return check.url!.href;
}

const normalizeFilter = (events: string[] | undefined): string[] => (events === undefined ? ['*'] : [...new Set(events)]);

/** The actor's endpoint, or 404 (another account's endpoint is not found either). */
export async function getEndpoint(d: Pick<WebhookDomainDeps, 'webhookEndpoints'>, actor: Actor, id: string): Promise<WebhookEndpointRecord> {
  const e = await d.webhookEndpoints.get(actor.account.id, id);
  if (!e) throw notFound('webhook endpoint');
  return e;
}

/**
 * The actor's endpoint, about to be changed, deleted, re-keyed, disabled, or used to sign a probe or a
 * redelivery. contract §2: an endpoint created with a live key is a live key's, its secret included
 * (a test key that rotated it would read the new live secret, and anything signed with it is live).
 */
export async function endpointToChange(d: Pick<WebhookDomainDeps, 'webhookEndpoints'>, actor: Actor, id: string): Promise<WebhookEndpointRecord> {
  const e = await getEndpoint(d, actor, id);
  assertMayChange(actor, e.mode, 'this webhook endpoint');
  return e;
}

/** A bounded list (at most MAX_ENDPOINTS_PER_ACCOUNT), newest first. */
export async function listEndpoints(d: Pick<WebhookDomainDeps, 'webhookEndpoints'>, actor: Actor): Promise<WebhookEndpointRecord[]> {
  return await d.webhookEndpoints.listForAccount(actor.account.id);
}

export async function createEndpoint(d: WebhookDomainDeps, actor: Actor, body: CreateWebhookBody): Promise<WebhookEndpointRecord> {
  return await insertEndpoint(d, actor, { ...body, url: assertUrl(body.url) });
}

/**
 * A new endpoint of the actor's account at a URL already judged (a user's URL through the safety
 * rules; a sink's is the service's own address), within the bound on endpoints per account.
 */
export async function insertEndpoint(
  d: Pick<WebhookDomainDeps, 'webhookEndpoints' | 'clock'>,
  actor: Actor,
  body: { url: string; events?: string[]; description?: string | null },
): Promise<WebhookEndpointRecord> {
  const accountId = actor.account.id;
  const url = body.url;
  if (await d.webhookEndpoints.countForAccount(accountId) >= MAX_ENDPOINTS_PER_ACCOUNT) {
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
    mode: actor.mode,
    createdAt: now,
    updatedAt: now,
  };
  await d.webhookEndpoints.insert(record);
  return record;
}

/**
 * PATCH: `enabled: false` disables by hand (reason `manual`) and stops scheduled deliveries;
 * `enabled: true` re-enables, clearing disabledAt, disabledReason and the failing streak (spec:
 * Webhook endpoint states).
 */
export async function updateEndpoint(d: WebhookDomainDeps, actor: Actor, id: string, patch: UpdateWebhookBody): Promise<WebhookEndpointRecord> {
  return await d.uow.write(async (tx) => {
    const e = await endpointToChange(tx, actor, id);
    const now = tx.clock.nowMs();
    const url = patch.url !== undefined ? assertUrl(patch.url) : undefined;
    await tx.webhookEndpoints.update(
      id,
      { url, events: patch.events !== undefined ? normalizeFilter(patch.events) : undefined, description: patch.description },
      now,
    );
    if (patch.enabled === true && !e.enabled) {
      await tx.webhookEndpoints.update(id, { enabled: true, disabledAt: null, disabledReason: null, consecutiveFailures: 0, failingSince: null }, now);
    } else if (patch.enabled === false && e.enabled) {
      await disableEndpoint(tx, e, 'manual', now, false);
    }
    return await getEndpoint(tx, actor, id);
  });
}

export async function deleteEndpoint(d: WebhookDomainDeps, actor: Actor, id: string): Promise<void> {
  await endpointToChange(d, actor, id);
  // Its deliveries go with it (ON DELETE CASCADE); an attempt in flight finds nothing to record.
  await d.webhookEndpoints.delete(id);
}

/** A new secret at once; attempts from now on are signed with it, the old one is never used again. */
export async function rotateSecret(d: WebhookDomainDeps, actor: Actor, id: string): Promise<WebhookEndpointRecord> {
  await endpointToChange(d, actor, id);
  await d.webhookEndpoints.update(id, { secret: newWebhookSecret() }, d.clock.nowMs());
  return await getEndpoint(d, actor, id);
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
export async function disableEndpoint(d: WebhookDomainDeps, e: WebhookEndpointRecord, reason: string, now: number, emit: boolean): Promise<void> {
  await d.uow.write(async (tx) => {
    await tx.webhookEndpoints.update(e.id, { enabled: false, disabledAt: now, disabledReason: reason }, now);
    await tx.webhookDeliveries.abandonScheduled(e.id, `endpoint disabled (${reason})`, now);
    if (emit) {
      const fresh = (await tx.webhookEndpoints.getById(e.id))!;
      await tx.events.emit(e.accountId, DISABLED_EVENT_TYPE, {
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
export async function sandboxAutoDisable(d: WebhookDomainDeps, actor: Actor, id: string): Promise<WebhookEndpointRecord> {
  return await d.uow.write(async (tx) => {
    const e = await endpointToChange(tx, actor, id);
    if (!e.enabled) throw conflict('this webhook endpoint is already disabled');
    await disableEndpoint(tx, e, 'consecutive_failures', tx.clock.nowMs(), true);
    return await getEndpoint(tx, actor, id);
  });
}
