import type { TxDeps } from '../deps.js';
import type { Actor } from '../actor.js';
import { conflict, notFound, testKeyForbidden, validationError } from '../../errors.js';
import type { EventRecord } from '../../storage/events-repo.js';
import type { DeliveryRecord, DueDelivery } from '../../storage/webhook-deliveries-repo.js';
import type { WebhookEndpointRecord } from '../../storage/webhooks-repo.js';
import type { ReplayWebhookBody } from '../../../api/schemas/webhooks.js';
import { eventFilterMatches } from '../../../api/schemas/events.js';
import { MAX_REPLAY_EVENTS } from '../../../api/values/sinks.js';
import { TEST_KEY_RULE } from '../test-keys.js';
import { eventMode } from '../events/event-mode.js';
import { decodeFeedCursor } from '../events/feed.js';
import { endpointToChange } from './endpoints.js';
import { DELIVERY_LOG_RETENTION_MS, insertDelivery, wantsEvent } from './deliveries.js';

// contract §10 (extension): resend one past event, replay an endpoint's past events. Each is a NEW
// delivery of the stored event (same id, same body, read from the feed at each attempt and signed
// then, with the endpoint's current secret), due now, written in one transaction and handed to the
// delivery worker after its commit (the caller does: the routes). A test key acts only on test events
// (event-mode.ts) and only through endpoints a test key created (contract §2: a live endpoint's
// secret is a live key's to sign with, as for a manual retry).

/** What a replay reads the feed in: a page of events at a time. */
const REPLAY_PAGE = 1000;

function assertEnabled(e: WebhookEndpointRecord, act: string): void {
  if (!e.enabled) throw conflict(`this webhook endpoint is disabled; re-enable it (PATCH enabled: true) before ${act}`);
}

/** A stored event of the actor's account in the feed, or 404. */
async function feedEvent(d: Pick<TxDeps, 'eventsRepo'>, actor: Actor, id: string): Promise<EventRecord> {
  const event = await d.eventsRepo.get(actor.account.id, id);
  if (!event || event.seq <= 0) throw notFound('event');
  return event;
}

/**
 * `POST /v1/events/{id}/resend`: one new delivery to the endpoint named (whatever its filter), or to
 * every enabled endpoint subscribed to the event's type that the key may sign with. Returns them.
 */
export async function resendEvent(d: TxDeps, actor: Actor, eventId: string, endpointId: string | undefined): Promise<{ deliveries: DeliveryRecord[]; due: DueDelivery[] }> {
  const event = await feedEvent(d, actor, eventId);
  if (actor.mode === 'test' && (await eventMode(d, event)) === 'live') {
    throw testKeyForbidden(`${TEST_KEY_RULE}: this event reports what was done in live mode; use a live key to resend it`);
  }
  let targets: WebhookEndpointRecord[];
  if (endpointId !== undefined) {
    const named = await endpointToChange(d, actor, endpointId);
    assertEnabled(named, 'resending to it');
    targets = [named];
  } else {
    const mayUse = (e: WebhookEndpointRecord) => !(actor.mode === 'test' && e.mode === 'live');
    targets = (await d.webhookEndpoints.listForAccount(actor.account.id)).filter((e) => e.enabled && mayUse(e) && wantsEvent(e, event)).reverse();
  }
  const now = d.clock.nowMs();
  const due: DueDelivery[] = [];
  for (const e of targets) due.push(await insertDelivery(d, e.id, event, now));
  const deliveries = await Promise.all(due.map(async (x) => (await d.webhookDeliveries.getById(x.id))!));
  return { deliveries, due };
}

/** Where a replay starts: after a feed position, or after a time (an ISO 8601 `after`). */
interface ReplayStart {
  afterSeq?: number;
  afterTime?: number;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function replayStart(after: string | undefined): ReplayStart {
  if (after === undefined) return {};
  if (ISO_TIME.test(after)) {
    const t = Date.parse(after);
    if (Number.isNaN(t)) throw validationError(['body', 'after'], 'not a valid ISO 8601 time');
    return { afterTime: t };
  }
  return { afterSeq: decodeFeedCursor(after, 'after', 'body') };
}

const tooMany = () =>
  validationError(['body', 'after'], `more than ${MAX_REPLAY_EVENTS} events match; replay them in parts (a later \`after\`, or \`types\`)`);

/** The feed's events from a start on, of the given types, oldest first; at most MAX_REPLAY_EVENTS. */
async function eventsSince(d: Pick<TxDeps, 'eventsRepo'>, accountId: string, start: ReplayStart, types: readonly string[] | undefined): Promise<EventRecord[]> {
  const exact: string[] = [];
  const prefixes: string[] = [];
  for (const t of types && !types.includes('*') ? types : []) (t.endsWith('.*') ? prefixes : exact).push(t.endsWith('.*') ? t.slice(0, -1) : t);
  // Newest first from the head, down to the start: the events after a time are found without
  // reading the feed from its beginning (service time only moves forward along the feed).
  const found: EventRecord[] = [];
  let beforeSeq: number | undefined;
  for (;;) {
    const { rows, hasMore } = await d.eventsRepo.feedPage(accountId, { afterSeq: start.afterSeq, beforeSeq, order: 'desc', limit: REPLAY_PAGE, exact, prefixes });
    for (const e of rows) {
      if (start.afterTime !== undefined && e.createdAt <= start.afterTime) return found.reverse();
      if (found.push(e) > MAX_REPLAY_EVENTS) throw tooMany();
    }
    if (!hasMore || rows.length === 0) return found.reverse();
    beforeSeq = rows[rows.length - 1]!.seq;
  }
}

/**
 * `POST /v1/webhooks/{id}/replay`: a new delivery to the endpoint of each past event that matches,
 * in feed order: after `after`, of `types`, one the endpoint is subscribed to, and with `status`,
 * whose newest delivery to it is in that status (within the delivery log's 7 days). A test key's
 * replay leaves out live events. Returns the deliveries written.
 */
export async function replayToEndpoint(d: TxDeps, actor: Actor, endpointId: string, q: ReplayWebhookBody): Promise<DueDelivery[]> {
  const endpoint = await endpointToChange(d, actor, endpointId);
  assertEnabled(endpoint, 'replaying to it');
  const accountId = actor.account.id;
  const start = replayStart(q.after);
  const now = d.clock.nowMs();
  let events: EventRecord[];
  if (q.status !== undefined) {
    const ids = await d.webhookDeliveries.eventsLastIn(endpoint.id, q.status, now - DELIVERY_LOG_RETENTION_MS, MAX_REPLAY_EVENTS + 1);
    if (ids.length > MAX_REPLAY_EVENTS) throw tooMany();
    events = (await d.eventsRepo.getMany(accountId, ids)).filter(
      (e) => (start.afterSeq === undefined || e.seq > start.afterSeq) && (start.afterTime === undefined || e.createdAt > start.afterTime) && (!q.types || eventFilterMatches(q.types, e.type)),
    );
  } else {
    events = await eventsSince(d, accountId, start, q.types);
  }
  const due: DueDelivery[] = [];
  for (const e of events) {
    if (!wantsEvent(endpoint, e)) continue;
    if (actor.mode === 'test' && (await eventMode(d, e)) === 'live') continue;
    due.push(await insertDelivery(d, endpoint.id, e, now));
  }
  return due;
}
