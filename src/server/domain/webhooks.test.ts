import { beforeEach, describe, expect, it } from 'vitest';
import { freshFixtureEachTest, detailPaths, serviceErrorOf, type DomainFixture } from '../../../test/helpers/domain-fixture.js';
import type { Actor } from './actor.js';
import {
  AUTO_DISABLE,
  DISABLED_EVENT_TYPE,
  MAX_ENDPOINTS_PER_ACCOUNT,
  createEndpoint,
  deleteEndpoint,
  disableEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  sandboxAutoDisable,
  shouldAutoDisable,
  updateEndpoint,
} from './webhooks/endpoints.js';
import {
  DELIVERY_LOG_RETENTION_MS,
  TICK_JOB,
  createTestDelivery,
  getDelivery,
  listDeliveries,
  recordAttempt,
  scheduleManualRetry,
  writeDeliveriesForEvent,
  type AttemptResult,
} from './webhooks/deliveries.js';
import { BACKOFF_MS, MAX_ATTEMPTS, tickAtOrAfter } from './webhooks/retry-schedule.js';
import { CreateWebhookBody, UpdateWebhookBody } from '../../api/schemas/webhooks.js';
import type { WebhookEndpointRecord } from '../storage/webhooks-repo.js';

// No network anywhere: URL checks are syntactic at create/update time, and the delivery worker is
// never started, so deliveries are only written and their attempts recorded by hand (recordAttempt).

const HOUR = 3600_000;
const URL_A = 'https://hooks.example.com/a';
const URL_B = 'https://hooks.example.com/b';

let fx: DomainFixture;
let me: Actor;
freshFixtureEachTest((f) => {
  fx = f;
  me = fx.actor('live');
});

const create = async (body: Record<string, unknown>, actor: Actor = me) => await fx.deps.uow.write((tx) => createEndpoint(tx, actor, CreateWebhookBody.parse(body)));
const update = async (id: string, patch: Record<string, unknown>, actor: Actor = me) => (await fx.deps.uow.write(async (tx) => await updateEndpoint(tx, actor, id, UpdateWebhookBody.parse(patch))));
const endpoint = async (id: string) => (await fx.deps.uow.read(async (tx) => await tx.webhookEndpoints.getById(id)))!;
const delivery = async (id: string) => (await fx.deps.uow.read(async (tx) => await tx.webhookDeliveries.getById(id)))!;
const now = () => fx.clock.nowMs();

const failure = (o: Partial<AttemptResult> = {}): AttemptResult => ({
  succeeded: false,
  responseStatus: 500,
  responseBody: 'oops',
  durationMs: 12,
  error: 'HTTP 500',
  retryable: true,
  ...o,
});
const success: AttemptResult = { succeeded: true, responseStatus: 200, responseBody: 'ok', durationMs: 5, error: null, retryable: false };

/** One event for the agency and the single delivery it wrote to `ep`. */
async function deliveryFor(ep: WebhookEndpointRecord, type = 'message.status') {
  const event = await fx.emit(fx.agency, type, { messageId: 'msg_x', status: 'sent', reason: null });
  const mine = (await fx.deliveriesFor(ep.id)).filter((d) => d.eventId === event.id);
  expect(mine).toHaveLength(1);
  return mine[0]!;
}

describe('createEndpoint', () => {
  it('an https endpoint: enabled, every event by default, a whsec_ secret', async () => {
    const ep = await create({ url: URL_A, description: 'orders' });
    expect(ep).toMatchObject({ accountId: fx.agency.id, url: URL_A, events: ['*'], enabled: true, description: 'orders', disabledAt: null, disabledReason: null, consecutiveFailures: 0 });
    expect(ep.id).toMatch(/^we_/);
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    expect(await endpoint(ep.id)).toEqual(ep);
    expect((await create({ url: URL_B })).secret).not.toBe(ep.secret);
  });

  it.each([
    ['http to a public host', 'http://hooks.example.com/x'],
    ['a private address', 'https://10.1.2.3/x'],
    ['a private address (192.168)', 'https://192.168.0.10/x'],
    ['the cloud metadata address', 'http://169.254.169.254/latest'],
    ['a link-local address', 'https://169.254.10.10/x'],
    ['a private IPv6 address', 'https://[fd00::1]/x'],
    ['not a URL', 'hooks.example.com/x'],
    ['another scheme', 'ftp://hooks.example.com/x'],
  ])('refuses %s as a validation error on url, without storing anything', async (_label, url) => {
    const err = await serviceErrorOf(async () => await create({ url }));
    expect(err.code).toBe('validation_error');
    expect(detailPaths(err)).toEqual([['body', 'url']]);
    expect(await fx.deps.uow.write((tx) => listEndpoints(tx, me))).toEqual([]);
  });

  it.each(['http://localhost:3000/hooks', 'http://127.0.0.1:8080/x', 'http://127.9.9.9/x', 'http://[::1]:9000/x', 'https://hooks.example.com/x'])(
    'accepts %s (loopback may be http; names are checked again at delivery)',
    async (url) => {
      expect((await create({ url })).enabled).toBe(true);
    },
  );

  it('the event filter is stored without duplicates, in the order given', async () => {
    expect((await create({ url: URL_A, events: ['message.status', 'message.*', 'message.status'] })).events).toEqual(['message.status', 'message.*']);
    // Unknown types and "*" mixed with others never reach the domain (the body schema).
    expect(CreateWebhookBody.safeParse({ url: URL_A, events: ['message.nope'] }).success).toBe(false);
    expect(CreateWebhookBody.safeParse({ url: URL_A, events: ['*', 'message.status'] }).success).toBe(false);
    expect(CreateWebhookBody.safeParse({ url: URL_A, events: [] }).success).toBe(false);
  });

  it(`at most ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints per account; each account counts its own`, async () => {
    expect(MAX_ENDPOINTS_PER_ACCOUNT).toBe(50);
    const made: WebhookEndpointRecord[] = [];
    for (let i = 0; i < 50; i++) made.push(await create({ url: `https://hooks.example.com/${i}` }));
    const err = await serviceErrorOf(async () => await create({ url: URL_A }));
    expect(err.code).toBe('conflict');
    expect(await fx.deps.uow.write((tx) => listEndpoints(tx, me))).toHaveLength(50);
    // A sub-account is another account.
    expect((await create({ url: URL_A }, fx.actor('live', fx.sub))).accountId).toBe(fx.sub.id);
    // Deleting one makes room again.
    await fx.deps.uow.write((tx) => deleteEndpoint(tx, me, made[0]!.id));
    expect((await create({ url: URL_A })).enabled).toBe(true);
  });
});

describe('updateEndpoint, deleteEndpoint, rotateSecret', () => {
  it('changes url, events (deduplicated) and description; an unsafe url changes nothing', async () => {
    const ep = await create({ url: URL_A });
    fx.clock.setTo(now() + 1000);
    const updated = await update(ep.id, { url: URL_B, events: ['message.*', 'message.*'], description: 'new' });
    expect(updated).toMatchObject({ url: URL_B, events: ['message.*'], description: 'new', updatedAt: now() });
    const err = await serviceErrorOf(async () => await update(ep.id, { url: 'https://10.0.0.1/x', description: 'changed' }));
    expect(err.code).toBe('validation_error');
    expect(await endpoint(ep.id)).toMatchObject({ url: URL_B, description: 'new' });
  });

  it('disabling by hand: reason manual, scheduled deliveries abandoned, no event', async () => {
    const ep = await create({ url: URL_A });
    const d = await deliveryFor(ep);
    expect(d.nextAttemptAt).toBe(now());
    const disabled = await update(ep.id, { enabled: false });
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'manual', disabledAt: now() });
    expect(await delivery(d.id)).toMatchObject({ status: 'abandoned', nextAttemptAt: null });
    expect(await fx.events(fx.agency, DISABLED_EVENT_TYPE)).toEqual([]);
  });

  it('re-enabling clears the disable and the failing streak', async () => {
    const ep = await create({ url: URL_A });
    await fx.deps.uow.write(async (tx) => await tx.webhookEndpoints.update(ep.id, { consecutiveFailures: 7, failingSince: now() - HOUR }, now()));
    (await fx.deps.uow.write(async (tx) => await sandboxAutoDisable(tx, me, ep.id)));
    const enabled = await update(ep.id, { enabled: true });
    expect(enabled).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null, consecutiveFailures: 0, failingSince: null });
  });

  it('delete removes the endpoint and its deliveries', async () => {
    const ep = await create({ url: URL_A });
    const d = await deliveryFor(ep);
    await fx.deps.uow.write((tx) => deleteEndpoint(tx, me, ep.id));
    expect(await fx.deps.uow.read(async (tx) => await tx.webhookEndpoints.getById(ep.id))).toBeUndefined();
    expect(await fx.deps.uow.read(async (tx) => await tx.webhookDeliveries.getById(d.id))).toBeUndefined();
    expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => deleteEndpoint(tx, me, ep.id)))).code).toBe('not_found');
    // An attempt that was in flight finds nothing to record.
    expect((await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, 1, now(), failure())))).toBeNull();
  });

  it('rotateSecret: a new whsec_ secret at once', async () => {
    const ep = await create({ url: URL_A });
    const rotated = await fx.deps.uow.write((tx) => rotateSecret(tx, me, ep.id));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(ep.secret);
    expect((await endpoint(ep.id)).secret).toBe(rotated.secret);
  });

  it("another account's endpoint is not found, for every caller action", async () => {
    const ep = await create({ url: URL_A }, fx.actor('live', fx.sub));
    const d = await fx.deps.uow.write(async (tx) => {
      const event = await tx.events.emit(fx.sub.id, 'message.status', { messageId: 'm', status: 'sent', reason: null });
      return (await tx.webhookDeliveries.dueForEvent(event.id, now()))[0]!;
    });
    expect(d).toBeDefined();
    for (const a of [me, fx.actor('live', fx.stranger)]) {
      expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => getEndpoint(tx, a, ep.id)))).code).toBe('not_found');
      expect((await serviceErrorOf(async () => await update(ep.id, { description: 'x' }, a))).code).toBe('not_found');
      expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => rotateSecret(tx, a, ep.id)))).code).toBe('not_found');
      expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => deleteEndpoint(tx, a, ep.id)))).code).toBe('not_found');
      expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await sandboxAutoDisable(tx, a, ep.id))))).code).toBe('not_found');
      expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => createTestDelivery(tx, a, ep.id)))).code).toBe('not_found');
      expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => getDelivery(tx, a, ep.id, d.id)))).code).toBe('not_found');
      expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await scheduleManualRetry(tx, a, ep.id, d.id, false))))).code).toBe('not_found');
      expect(await fx.deps.uow.write((tx) => listEndpoints(tx, a))).toEqual([]);
    }
    expect(await endpoint(ep.id)).toMatchObject({ enabled: true, description: null, secret: ep.secret });
  });
});

describe('writeDeliveriesForEvent (the outbox)', () => {
  it('one pending delivery, due at once, per enabled endpoint whose filter matches', async () => {
    const all = await create({ url: URL_A });
    const family = await create({ url: URL_B, events: ['message.*'] });
    const exact = await create({ url: 'https://hooks.example.com/c', events: ['message.received'] });
    const disabled = await create({ url: 'https://hooks.example.com/d' });
    await update(disabled.id, { enabled: false });
    const theirs = await create({ url: URL_A }, fx.actor('live', fx.sub));

    const event = await fx.emit(fx.agency, 'message.status', { messageId: 'msg_1', status: 'sent', reason: null });
    const written = await Promise.all([all, family, exact, disabled, theirs].map(async (e) => (await fx.deliveriesFor(e.id)).length));
    expect(written).toEqual([1, 1, 0, 0, 0]);
    const d = (await fx.deliveriesFor(all.id))[0]!;
    expect(d).toMatchObject({
      eventId: event.id,
      eventType: 'message.status',
      accountId: fx.agency.id,
      status: 'pending',
      attempt: 0,
      isTest: false,
      maxAttempts: MAX_ATTEMPTS,
      nextAttemptAt: event.createdAt,
    });
    // The delivery carries the stored event's exact bytes.
    expect(JSON.parse((await fx.deps.uow.read(async (tx) => await tx.webhookDeliveries.rawBody(d)))!)).toEqual(event.body);

    await fx.emit(fx.agency, 'message.received', { messageId: 'msg_2' });
    expect(await Promise.all([all, family, exact].map(async (e) => (await fx.deliveriesFor(e.id)).length))).toEqual([2, 2, 1]);
  });

  it('returns how many it wrote; none for an account without endpoints', async () => {
    await create({ url: URL_A });
    await create({ url: URL_B, events: ['call.*'] });
    const event = { id: 'evt_test', accountId: fx.agency.id, type: 'message.status', createdAt: now(), body: {} };
    expect(await fx.deps.uow.write(async (tx) => await writeDeliveriesForEvent(tx, event))).toHaveLength(1);
    expect(await fx.deps.uow.write(async (tx) => await writeDeliveriesForEvent(tx, { ...event, accountId: fx.stranger.id }))).toEqual([]);
  });

  it('never delivers an endpoint its own disabled event, even if it were still enabled', async () => {
    const a = await create({ url: URL_A });
    const b = await create({ url: URL_B });
    const event = { id: 'evt_disabled', accountId: fx.agency.id, type: DISABLED_EVENT_TYPE, createdAt: now(), body: { endpointId: a.id } };
    // The outbox called directly, as the event store does inside the emitting transaction.
    expect(await fx.deps.uow.write(async (tx) => await writeDeliveriesForEvent(tx, event))).toHaveLength(1);
    expect(await fx.deliveriesFor(a.id)).toEqual([]);
    expect((await fx.deliveriesFor(b.id)).map((d) => d.eventId)).toEqual(['evt_disabled']);
  });

  it('single-attempt types (call.ringing) get one attempt; others nine', async () => {
    expect(MAX_ATTEMPTS).toBe(9);
    const ep = await create({ url: URL_A });
    expect((await deliveryFor(ep, 'call.ringing')).maxAttempts).toBe(1);
    expect((await deliveryFor(ep, 'call.completed')).maxAttempts).toBe(9);
  });
});

describe('recordAttempt', () => {
  let ep: WebhookEndpointRecord;
  beforeEach(async () => {
    ep = await create({ url: URL_A });
  });

  it('a success: succeeded, nothing scheduled, the streak reset and lastSuccessAt set', async () => {
    const d = await deliveryFor(ep);
    await fx.deps.uow.write(async (tx) => await tx.webhookEndpoints.recordOutcome(ep.id, false, now() - HOUR));
    expect((await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, 1, now(), success)))).toBeNull();
    expect(await delivery(d.id)).toMatchObject({ status: 'succeeded', attempt: 1, responseStatus: 200, responseBody: 'ok', nextAttemptAt: null, error: null });
    // The history keeps each attempt's answer (and the request, none given here) for the console's inspector.
    expect((await delivery(d.id)).attempts).toEqual([{ attempt: 1, at: now(), outcome: 'succeeded', responseStatus: 200, durationMs: 5, error: null, responseBody: 'ok', request: null }]);
    expect(await endpoint(ep.id)).toMatchObject({ consecutiveFailures: 0, failingSince: null, lastSuccessAt: now() });
  });

  it("keeps the request sent with the attempt; a NUL in the receiver's answer is kept as U+FFFD (PostgreSQL's text holds no NUL)", async () => {
    const d = await deliveryFor(ep);
    const request = { url: 'https://example.com/hook', headers: { 'X-Service-Signature': 't=1,v1=ab' } };
    await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, 1, now(), { ...success, responseBody: 'a\u0000b', request }));
    expect(await delivery(d.id)).toMatchObject({ responseBody: 'a\uFFFDb', attempts: [{ responseBody: 'a\uFFFDb', request }] });
  });

  it('a retryable failure is retried on the schedule, at 5-minute tick boundaries', async () => {
    const d = await deliveryFor(ep);
    let at = now();
    const times: number[] = [];
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const next = (await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, attempt, at, failure())));
      expect(next).toBe(tickAtOrAfter(at + BACKOFF_MS[attempt - 1]!));
      expect(next! % (5 * 60_000)).toBe(0);
      expect(await fx.deps.uow.read(async (tx) => await tx.webhookDeliveries.hasJobAt(TICK_JOB, next!))).toBe(true);
      expect(await delivery(d.id)).toMatchObject({ status: 'failed', attempt, nextAttemptAt: next });
      times.push(next! - at);
      at = next!;
    }
    expect(times.length).toBe(8);
    // 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h (each rounded up to a tick).
    expect(BACKOFF_MS).toEqual([30_000, 120_000, 600_000, 1_800_000, 3_600_000, 10_800_000, 21_600_000, 43_200_000]);
    // The ninth failure is the last: abandoned.
    expect((await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, MAX_ATTEMPTS, at, failure())))).toBeNull();
    expect(await delivery(d.id)).toMatchObject({ status: 'abandoned', attempt: 9, nextAttemptAt: null });
    expect((await delivery(d.id)).attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await endpoint(ep.id)).toMatchObject({ consecutiveFailures: 9, failingSince: (await fx.deliveriesFor(ep.id))[0]!.attempts[0]!.at });
  });

  it('a non-retryable failure is abandoned at once', async () => {
    const d = await deliveryFor(ep);
    expect((await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, 1, now(), failure({ responseStatus: 400, error: 'HTTP 400', retryable: false }))))).toBeNull();
    expect(await delivery(d.id)).toMatchObject({ status: 'abandoned', nextAttemptAt: null, responseStatus: 400, error: 'HTTP 400' });
    expect((await endpoint(ep.id)).consecutiveFailures).toBe(1); // it still counts as a failure
  });

  it('a single-attempt type is abandoned after its one failure, even a retryable one', async () => {
    const d = await deliveryFor(ep, 'call.ringing');
    expect((await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, 1, now(), failure())))).toBeNull();
    expect(await delivery(d.id)).toMatchObject({ status: 'abandoned', nextAttemptAt: null });
  });

  it("503 with Retry-After waits the longer of the backoff and the receiver's ask (at most a day)", async () => {
    const d = await deliveryFor(ep);
    const at = now();
    expect((await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, 1, at, failure({ responseStatus: 503, retryAfterMs: 2 * HOUR }))))).toBe(tickAtOrAfter(at + 2 * HOUR));
    expect((await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, 2, at, failure({ responseStatus: 503, retryAfterMs: 1000 }))))).toBe(tickAtOrAfter(at + BACKOFF_MS[1]));
    expect((await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, 3, at, failure({ responseStatus: 429, retryAfterMs: 30 * 24 * HOUR }))))).toBe(tickAtOrAfter(at + 24 * HOUR));
    // Only 429 and 503 are honoured.
    expect((await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, 4, at, failure({ responseStatus: 500, retryAfterMs: 2 * HOUR }))))).toBe(tickAtOrAfter(at + BACKOFF_MS[3]));
  });

  it('a failure on a disabled endpoint is not retried', async () => {
    const d = await deliveryFor(ep);
    await fx.deps.uow.write(async (tx) => await tx.webhookEndpoints.update(ep.id, { enabled: false }, now()));
    expect((await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, 1, now(), failure())))).toBeNull();
    expect((await delivery(d.id)).status).toBe('abandoned');
  });

  it("a test delivery's outcome never touches the endpoint's streak", async () => {
    const t = await fx.deps.uow.write((tx) => createTestDelivery(tx, me, ep.id));
    expect(t).toMatchObject({ isTest: true, maxAttempts: 1, eventType: 'webhook_endpoint.test', status: 'pending' });
    expect(await fx.events(fx.agency)).toEqual([]); // not in the feed
    expect((await fx.deps.uow.write(async (tx) => await recordAttempt(tx, t.id, 1, now(), failure())))).toBeNull();
    expect((await delivery(t.id)).status).toBe('abandoned');
    expect(await endpoint(ep.id)).toMatchObject({ consecutiveFailures: 0, failingSince: null, lastSuccessAt: null });
  });
});

describe('auto-disable', () => {
  const T = Date.UTC(2025, 0, 20);
  const base = (o: Partial<WebhookEndpointRecord> = {}): WebhookEndpointRecord => ({
    id: 'we_x',
    accountId: 'acct',
    url: URL_A,
    events: ['*'],
    description: null,
    secret: 'whsec_x',
    enabled: true,
    disabledAt: null,
    disabledReason: null,
    consecutiveFailures: 50,
    failingSince: T - 72 * HOUR,
    lastSuccessAt: null,
    mode: 'live',
    createdAt: 0,
    updatedAt: 0,
    ...o,
  });

  it('shouldAutoDisable: 50+ consecutive failures, no success in 72 h, a streak at least 72 h old — all three', () => {
    expect(AUTO_DISABLE).toEqual({ minConsecutiveFailures: 50, noSuccessForMs: 72 * HOUR, streakAgeMs: 72 * HOUR });
    expect(shouldAutoDisable(base(), T)).toBe(true);
    expect(shouldAutoDisable(base({ consecutiveFailures: 500, lastSuccessAt: T - 72 * HOUR }), T)).toBe(true);
    expect(shouldAutoDisable(base({ consecutiveFailures: 49 }), T)).toBe(false);
    expect(shouldAutoDisable(base({ failingSince: T - 72 * HOUR + 1 }), T)).toBe(false);
    expect(shouldAutoDisable(base({ failingSince: null }), T)).toBe(false);
    expect(shouldAutoDisable(base({ lastSuccessAt: T - 72 * HOUR + 1 }), T)).toBe(false);
    expect(shouldAutoDisable(base({ enabled: false }), T)).toBe(false);
  });

  it('the failure that crosses the thresholds disables the endpoint and tells the other subscribed endpoints only', async () => {
    const failing = await create({ url: URL_A });
    const watcher = await create({ url: URL_B, events: ['webhook_endpoint.disabled'] });
    const everything = await create({ url: 'https://hooks.example.com/all' });
    const messagesOnly = await create({ url: 'https://hooks.example.com/msg', events: ['message.*'] });
    const theirs = await create({ url: URL_A }, fx.actor('live', fx.sub));
    const d = await deliveryFor(failing);
    // 49 failures in a streak that began 72 h ago, no success since.
    await fx.deps.uow.write(async (tx) => await tx.webhookEndpoints.update(failing.id, { consecutiveFailures: 49, failingSince: now() - 72 * HOUR }, now()));

    expect((await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, 1, now(), failure())))).toBeNull();
    expect(await endpoint(failing.id)).toMatchObject({ enabled: false, disabledReason: 'consecutive_failures', disabledAt: now(), consecutiveFailures: 50 });
    expect(await delivery(d.id)).toMatchObject({ status: 'abandoned', nextAttemptAt: null });

    const events = await fx.events(fx.agency, DISABLED_EVENT_TYPE);
    expect(events).toHaveLength(1);
    expect(events[0]!.body).toMatchObject({ endpointId: failing.id, url: URL_A, reason: 'consecutive_failures', consecutiveFailures: 50, disabledAt: new Date(now()).toISOString() });
    const got = async (e: WebhookEndpointRecord) => (await fx.deliveriesFor(e.id)).filter((x) => x.eventType === DISABLED_EVENT_TYPE).length;
    expect(await Promise.all([failing, watcher, everything, messagesOnly, theirs].map(got))).toEqual([0, 1, 1, 0, 0]);
  });

  it('one failure short of 50 does not disable', async () => {
    const ep = await create({ url: URL_A });
    const d = await deliveryFor(ep);
    await fx.deps.uow.write(async (tx) => await tx.webhookEndpoints.update(ep.id, { consecutiveFailures: 48, failingSince: now() - 100 * HOUR }, now()));
    expect((await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, 1, now(), failure())))).not.toBeNull();
    expect((await endpoint(ep.id)).enabled).toBe(true);
    expect(await fx.events(fx.agency, DISABLED_EVENT_TYPE)).toEqual([]);
  });

  it('disableEndpoint emits only when asked, and abandons what was scheduled', async () => {
    const a = await create({ url: URL_A });
    const b = await create({ url: URL_B });
    const da = await deliveryFor(a);
    (await fx.deps.uow.write(async (tx) => await disableEndpoint(tx, a, 'manual', now(), false)));
    expect(await fx.events(fx.agency, DISABLED_EVENT_TYPE)).toEqual([]);
    expect((await delivery(da.id)).status).toBe('abandoned');
    (await fx.deps.uow.write(async (tx) => await disableEndpoint(tx, b, 'consecutive_failures', now(), true)));
    expect((await fx.events(fx.agency, DISABLED_EVENT_TYPE)).map((e) => e.body.endpointId)).toEqual([b.id]);
    // a is disabled too: nobody is left to deliver to.
    expect((await fx.deliveriesFor(a.id)).filter((x) => x.eventType === DISABLED_EVENT_TYPE)).toEqual([]);
  });

  it('sandboxAutoDisable takes the automatic path now; a disabled endpoint is a conflict', async () => {
    const ep = await create({ url: URL_A });
    const other = await create({ url: URL_B });
    await fx.deps.uow.write(async (tx) => await tx.webhookEndpoints.recordOutcome(ep.id, false, now()));
    await fx.deps.uow.write(async (tx) => await tx.webhookEndpoints.recordOutcome(ep.id, false, now()));
    expect((await fx.deps.uow.write(async (tx) => await sandboxAutoDisable(tx, me, ep.id)))).toMatchObject({ enabled: false, disabledReason: 'consecutive_failures' });
    const [event] = await fx.events(fx.agency, DISABLED_EVENT_TYPE);
    expect(event?.body).toMatchObject({ endpointId: ep.id, consecutiveFailures: 2 });
    expect((await fx.deliveriesFor(other.id)).map((x) => x.eventType)).toEqual([DISABLED_EVENT_TYPE]);
    expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await sandboxAutoDisable(tx, me, ep.id))))).code).toBe('conflict');
  });
});

describe('manual retry and the delivery log', () => {
  let ep: WebhookEndpointRecord;
  beforeEach(async () => {
    ep = await create({ url: URL_A });
  });

  it('puts one more attempt due now, keeping failed as failed', async () => {
    const d = await deliveryFor(ep);
    (await fx.deps.uow.write(async (tx) => await recordAttempt(tx, d.id, 1, now(), failure({ retryable: false }))));
    fx.clock.setTo(now() + HOUR);
    const retried = (await fx.deps.uow.write(async (tx) => await scheduleManualRetry(tx, me, ep.id, d.id, false)));
    expect(retried).toMatchObject({ nextAttemptAt: now(), status: 'pending', attempt: 1 }); // abandoned → pending

    const e = await deliveryFor(ep);
    (await fx.deps.uow.write(async (tx) => await recordAttempt(tx, e.id, 1, now(), failure())));
    expect((await fx.deps.uow.write(async (tx) => await scheduleManualRetry(tx, me, ep.id, e.id, false)))).toMatchObject({ nextAttemptAt: now(), status: 'failed' });

    const s = await deliveryFor(ep);
    (await fx.deps.uow.write(async (tx) => await recordAttempt(tx, s.id, 1, now(), success)));
    expect((await fx.deps.uow.write(async (tx) => await scheduleManualRetry(tx, me, ep.id, s.id, false)))).toMatchObject({ nextAttemptAt: now(), status: 'pending' });
  });

  it('refused while an attempt is in flight, and on a disabled endpoint', async () => {
    const d = await deliveryFor(ep);
    expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await scheduleManualRetry(tx, me, ep.id, d.id, true))))).code).toBe('conflict');
    await update(ep.id, { enabled: false });
    const err = await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await scheduleManualRetry(tx, me, ep.id, d.id, false))));
    expect(err.code).toBe('conflict');
    expect(err.message).toContain('disabled');
    expect((await delivery(d.id)).nextAttemptAt).toBeNull();
  });

  it('a delivery older than the 7-day log is not found (and not retried)', async () => {
    const d = await deliveryFor(ep);
    fx.clock.setTo(now() + DELIVERY_LOG_RETENTION_MS - 1);
    expect((await fx.deps.uow.write((tx) => getDelivery(tx, me, ep.id, d.id))).id).toBe(d.id);
    expect((await fx.deps.uow.write((tx) => listDeliveries(tx, me, ep.id, { limit: 10 }))).data.map((x) => x.id)).toEqual([d.id]);
    fx.clock.setTo(now() + 2);
    expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => getDelivery(tx, me, ep.id, d.id)))).code).toBe('not_found');
    expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await scheduleManualRetry(tx, me, ep.id, d.id, false))))).code).toBe('not_found');
    expect((await fx.deps.uow.write((tx) => listDeliveries(tx, me, ep.id, { limit: 10 }))).data).toEqual([]);
  });

  it("a delivery of another endpoint of the same account is not this endpoint's", async () => {
    const other = await create({ url: URL_B });
    const d = await deliveryFor(ep);
    expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => getDelivery(tx, me, other.id, d.id)))).code).toBe('not_found');
    expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await scheduleManualRetry(tx, me, other.id, d.id, false))))).code).toBe('not_found');
  });
});
