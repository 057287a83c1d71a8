import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateWebhookBody,
  DeliveryListQuery,
  DeliveryParams,
  DeliveryDetailSchema,
  DeliverySchema,
  ReplayWebhookBody,
  ReplayWebhookSchema,
  UpdateWebhookBody,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from '../../api/schemas/webhooks.js';
import { IdParams, NoContent } from '../../api/schemas/common.js';
import { TEST_EVENT_TYPE } from '../../api/schemas/events.js';
import type { ServiceDeps } from '../deps.js';
import {
  MAX_ENDPOINTS_PER_ACCOUNT,
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from '../domain/webhooks/endpoints.js';
import { createTestDelivery, inspectDelivery, listDeliveries, scheduleManualRetry } from '../domain/webhooks/deliveries.js';
import { INSPECT_BODY_CHARS, deliveryDetailView, deliveryView, webhookEndpointView } from '../views/webhooks.js';
import { listResponse, sendList } from '../http/lists.js';
import { commitOnce } from '../http/idempotency.js';
import { replayToEndpoint } from '../domain/webhooks/redelivery.js';
import { MAX_REPLAY_EVENTS } from '../../api/values/sinks.js';

// contract §10 and spec: Webhooks and events. Decisions are in the descriptions, so they land in
// /openapi.json.

const ENDPOINT_RULES = [
  'URL: `https`, except loopback hosts (`localhost`, `127.0.0.0/8`, `[::1]`) which may be `http`. Refused with',
  '`validation_error` on `["body","url"]`: private (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), link-local',
  '(169.254/16, fe80::/10), cloud metadata (169.254.169.254, fd00:ec2::254, metadata.google.internal, …), unspecified',
  '(0.0.0.0, ::), multicast and reserved addresses, private-use names (`.internal`, `.local`, `.home.arpa`, …),',
  'single-label names and URLs carrying credentials. A name is checked again at every delivery against what it',
  'resolves to; a refused answer (or a public name resolving to loopback) abandons the delivery.',
  '`events`: omitted or `["*"]` means every event; otherwise catalog types and `<family>.*` patterns',
  '(`message.*`, `call.*`, `email.*`), which also match types added to that family later.',
  `At most ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints per account (\`409 conflict\` beyond).`,
  'Auto-disable (spec: Limits) is evaluated at each failed attempt: at least 50 consecutive failed attempts, no',
  'success in 72 h and a failing streak at least 72 h old (service clock) disable the endpoint',
  '(`disabledReason: "consecutive_failures"`), abandon its scheduled deliveries and emit',
  '`webhook_endpoint.disabled` to the account\'s other enabled endpoints subscribed to it, and to the feed.',
].join('\n');

const DELIVERY_RULES = [
  'A delivery is one event to one endpoint; it shows its latest attempt (`attempt` = attempts made so far, 0',
  'before the first) and `attempts` holds every attempt. `status`: `pending` (no attempt yet, or a manual',
  'retry queued), `failed` (the last attempt failed; the next is at `nextAttemptAt`), `succeeded` (a 2xx within',
  '10 s), `abandoned` (no more attempts: a non-retryable answer, 9 attempts made, a single-attempt type,',
  'a refused destination, or the endpoint was disabled). Retries are due 30s, 2m, 10m, 30m, 1h, 3h, 6h, 12h',
  'after the previous attempt (or its 429/503 `Retry-After`, when later, up to 24 h) and are sent at the next 5-minute',
  'tick of the service clock; `nextAttemptAt` is that tick.',
].join('\n');

export function webhooksRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['webhooks'];

  r.post(
    '/v1/webhooks',
    {
      schema: {
        tags,
        summary: 'Create a webhook endpoint; the signing secret (`whsec_…`) is shown only in this response',
        description: [
          ENDPOINT_RULES,
          '',
          'Deliveries are POSTs of the event body (the event fields at the top level plus `id`, `type`, `createdAt`)',
          'with `X-Service-Signature: t=<unix secs>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed with the secret>`',
          '(t is real wall-clock time), `Service-Event-Id`, `Service-Event-Type`, `Service-Delivery-Attempt` (1 first)',
          'and `User-Agent: svc-webhooks/0.1.0`. Verify with `verifyWebhookSignature` from `svc/webhooks`.',
        ].join('\n'),
        body: CreateWebhookBody,
        response: { 201: WebhookEndpointWithSecretSchema },
      },
    },
    async (req, reply) => {
      const created = await commitOnce(deps, req, 201, async (tx) => {
        const e = await createEndpoint(tx, req.auth, req.body);
        return { ...webhookEndpointView(e), secret: e.secret };
      });
      return reply.status(201).send(created);
    },
  );

  r.get(
    '/v1/webhooks',
    {
      schema: {
        tags,
        summary: 'List webhook endpoints (a bounded list: all of them, newest first, hasMore false)',
        description: `Never shows secrets. At most ${MAX_ENDPOINTS_PER_ACCOUNT} endpoints exist per account, so the list is returned whole.`,
        querystring: z.object({ format: z.enum(['array']).optional() }),
        response: { 200: listResponse(WebhookEndpointSchema) },
      },
    },
    async (req, reply) => {
      const data = (await deps.uow.read((tx) => listEndpoints(tx, req.auth))).map(webhookEndpointView);
      return sendList(req, reply, { data, hasMore: false, nextCursor: null });
    },
  );

  r.get(
    '/v1/webhooks/:id',
    { schema: { tags, summary: 'Get a webhook endpoint (without its secret)', params: IdParams, response: { 200: WebhookEndpointSchema } } },
    async (req) => webhookEndpointView(await deps.uow.read((tx) => getEndpoint(tx, req.auth, req.params.id))),
  );

  r.patch(
    '/v1/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Update a webhook endpoint: url, events, description, enabled',
        description: [
          '`enabled: false` disables it by hand (`disabledReason: "manual"`, no event) and abandons its scheduled',
          'deliveries. `enabled: true` re-enables it and clears `disabledAt`, `disabledReason` and the failing streak;',
          'deliveries abandoned while it was disabled are not resent (use the delivery retry). A new `url` or',
          '`events` applies from the next attempt and the next event. Same URL rules as create:',
          '',
          ENDPOINT_RULES,
        ].join('\n'),
        params: IdParams,
        body: UpdateWebhookBody,
        response: { 200: WebhookEndpointSchema },
      },
    },
    async (req) => webhookEndpointView((await deps.uow.write(async (tx) => await updateEndpoint(tx, req.auth, req.params.id, req.body)))),
  );

  r.delete(
    '/v1/webhooks/:id',
    {
      schema: { tags, summary: 'Delete a webhook endpoint with its delivery log; scheduled attempts stop', params: IdParams, response: { 204: NoContent } },
    },
    async (req, reply) => {
      await deps.uow.write((tx) => deleteEndpoint(tx, req.auth, req.params.id));
      return reply.status(204).send(null);
    },
  );

  r.post(
    '/v1/webhooks/:id/test',
    {
      schema: {
        tags,
        summary: `Send a sample signed delivery (type \`${TEST_EVENT_TYPE}\`) now and return its delivery`,
        description: [
          `The sample event is \`{id, type: "${TEST_EVENT_TYPE}", createdAt, endpointId, message}\`, signed and sent like`,
          'any event, whatever the endpoint\'s filter and even when it is disabled (a probe before re-enabling).',
          'One attempt, no retry; it appears in the delivery log but never in `GET /v1/events`, and does not',
          'count toward auto-disable. The response is the delivery after the attempt (200 whatever the receiver',
          'answered; read `status`, `responseStatus`, `error`).',
          'It is an out-of-band probe: sent at once on a connection of its own, never queued behind the',
          "endpoint's pending deliveries (a backlog to a slow or hanging receiver does not delay it).",
        ].join('\n'),
        params: IdParams,
        response: { 200: DeliverySchema },
      },
    },
    async (req) => {
      const delivery = await deps.uow.write((tx) => createTestDelivery(tx, req.auth, req.params.id));
      return deliveryView(await deps.webhooks.attemptNow(delivery));
    },
  );

  r.post(
    '/v1/webhooks/:id/rotate-secret',
    {
      schema: {
        tags,
        summary: 'Replace the signing secret; the new one is shown only in this response',
        description: 'The old secret stops at once: every attempt from now on, including retries of earlier events, is signed with the new one.',
        params: IdParams,
        response: { 200: WebhookEndpointWithSecretSchema },
      },
    },
    async (req) => {
      const e = await deps.uow.write((tx) => rotateSecret(tx, req.auth, req.params.id));
      return { ...webhookEndpointView(e), secret: e.secret };
    },
  );

  r.get(
    '/v1/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        summary: 'The delivery log of an endpoint: the last 7 days, newest first',
        description: [DELIVERY_RULES, '', 'Paged by `limit`/`cursor` like every list; `status` filters.'].join('\n'),
        params: IdParams,
        querystring: DeliveryListQuery,
        response: { 200: listResponse(DeliverySchema) },
      },
    },
    async (req, reply) => {
      const { limit, cursor, status } = req.query;
      const page = await deps.uow.read((tx) => listDeliveries(tx, req.auth, req.params.id, { limit, cursor, status }));
      return sendList(req, reply, { ...page, data: page.data.map(deliveryView) });
    },
  );

  r.get(
    '/v1/webhooks/:id/deliveries/:deliveryId',
    {
      schema: {
        tags,
        summary: 'Get one delivery of the log, with what each attempt sent and got back',
        description: [
          DELIVERY_RULES,
          '',
          "Each of `attempts` also holds its `request` as sent (the URL and headers; the signature's MAC as `[redacted]`, its `t`",
          'kept: with the body it would be accepted by a receiver for 5 minutes) and `responseBody` (the answer\'s first 1 KB). The',
          `body every attempt sent is \`body\` (its first ${INSPECT_BODY_CHARS / 1024} KB, \`bodyTruncated\` when cut; null once the event is no longer stored).`,
          "The console's delivery inspector shows the same.",
        ].join('\n'),
        params: DeliveryParams,
        response: { 200: DeliveryDetailSchema },
      },
    },
    async (req) => {
      const { delivery, rawBody } = await deps.uow.read((tx) => inspectDelivery(tx, req.auth, req.params.id, req.params.deliveryId));
      return deliveryDetailView(delivery, rawBody);
    },
  );

  r.post(
    '/v1/webhooks/:id/deliveries/:deliveryId/retry',
    {
      schema: {
        tags,
        summary: 'Redeliver one delivery now and return it after the attempt',
        description: [
          'One more attempt, made at once and freshly signed with the current secret, with the next',
          '`Service-Delivery-Attempt` number. If it fails with a retryable answer and fewer than 9 attempts were made,',
          'the usual schedule continues. `409 conflict` when the endpoint is disabled or an attempt is in flight.',
          'Like the test delivery, it is an out-of-band probe: sent at once on a connection of its own, not queued',
          "behind the endpoint's other pending deliveries (a backlog to a hanging receiver does not delay it).",
        ].join('\n'),
        params: DeliveryParams,
        response: { 200: DeliverySchema },
      },
    },
    async (req) => {
      const { id, deliveryId } = req.params;
      const scheduled = (await deps.uow.write(async (tx) => await scheduleManualRetry(tx, req.auth, id, deliveryId, deps.webhooks.isInFlight(deliveryId))));
      return deliveryView(await deps.webhooks.attemptNow(scheduled));
    },
  );

  r.post(
    '/v1/webhooks/:id/replay',
    {
      schema: {
        tags,
        summary: 'Deliver past events to this endpoint again, in feed order; answers how many',
        description: [
          'Extension (contract §10). `{after?, types?, status?}` (the body may be left out: every event). Each matching past event',
          'of the feed gets a NEW delivery to this endpoint, written in feed order and sent at once by the delivery worker',
          '(at-least-once, a window of attempts in flight: a receiver dedupes and orders on the event\'s `id`), signed afresh at',
          "each attempt with the endpoint's current secret, with the same event id and body. Matching: after `after` (a cursor of",
          '`GET /v1/events`, or an ISO 8601 time: created after it), of `types` (catalog types or `<family>.*`), subscribed to by',
          "the endpoint, and with `status`, only events whose newest delivery to this endpoint is in that status within the delivery",
          "log's 7 days (`failed`: still being retried; `abandoned`: given up), e.g. after a receiver's outage. Answers `202 {count}`.",
          `At most ${MAX_REPLAY_EVENTS} events at once: more → \`validation_error\` on \`["body","after"]\` (replay in parts). A disabled endpoint → 409.`,
          "A test key replays only test events (live ones are left out and not counted) and only to an endpoint a test key created (403).",
        ].join('\n'),
        params: IdParams,
        body: ReplayWebhookBody.optional(),
        response: { 202: ReplayWebhookSchema },
      },
    },
    async (req, reply) => {
      const answer = await commitOnce(deps, req, 202, async (tx) => {
        const due = await replayToEndpoint(tx, req.auth, req.params.id, req.body ?? {});
        tx.afterCommit(() => deps.webhooks.onCommitted(due));
        return { count: due.length };
      });
      return reply.status(202).send(answer);
    },
  );
}
