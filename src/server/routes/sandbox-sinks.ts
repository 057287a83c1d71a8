import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CreateSinkBody, SinkRequestPageSchema, SinkRequestsQuery, SinkSchema, SinkWithSecretSchema } from '../../api/schemas/sinks.js';
import { FEED_WAIT_MAX_SECS } from '../../api/schemas/events.js';
import { IdParams, NoContent } from '../../api/schemas/common.js';
import { SINK_FAIL_STATUS, SINK_LIMITS, SINK_PATH_PREFIX } from '../../api/values/sinks.js';
import { DEFAULT_WEBHOOK_OPTIONS } from '../webhooks/delivery-worker.js';
import type { ServiceDeps } from '../deps.js';
import { ServiceError, conflict } from '../errors.js';
import { answeredNobody, createSink, deleteSink, listSinks, receiveAtSink, sinkSecret, sinkSignatureCheck, type SinkAnswer, type SinkArrival } from '../domain/webhooks/sinks.js';
import { SinkRequestsFeed } from '../domain/webhooks/sink-requests.js';
import { sinkRequestView, sinkView } from '../views/sinks.js';
import { commitOnce } from '../http/idempotency.js';
import { whileClientWaits } from '../http/held-request.js';
import { listResponse, sendList } from '../http/lists.js';
import { ownOrigin } from '../http/own-origin.js';
import { readBoundedBody } from '../http/bounded-body.js';
import { TokenBuckets, rateLimited } from '../http/rate-limit.js';

// contract §10 (extension, local service only): sinks. The API under /v1/sandbox/sinks, and the
// receivers themselves at the service's own /sinks/{id} (public, as any webhook receiver is).

const tags = ['sandbox'];
/**
 * A kept request's write takes its sink's row lock first (SinksRepo.nextPosition) and holds it to the
 * COMMIT: every later statement of it sees the sink's earlier requests committed, so it is correct at
 * READ COMMITTED (store.ts WriteOptions). At SERIALIZABLE, a flood of one sink's requests across
 * replicas aborted each other until they were refused (429).
 */
const SINK_WRITE = { rowGuarded: true } as const;
const ACK_SECS = DEFAULT_WEBHOOK_OPTIONS.ackTimeoutMs / 1000;

const SINK_RULES = [
  `A sink is a webhook endpoint of the account (it shows in \`GET /v1/webhooks\`, description \`sink <id>\`) whose URL is the`,
  `service's own \`${SINK_PATH_PREFIX}{id}\`, at the address the service listens on (a wildcard address: loopback), so deliveries to it`,
  'never leave the service; it calls nothing outside the service. It answers every request as told by `respond`: `status`',
  `(default 200), except ${SINK_FAIL_STATUS} to the first \`failFirst\` attempts of each event (counted among the requests it keeps that`,
  `name the event in \`Service-Event-Id\`), after \`delayMs\` (at most ${SINK_LIMITS.maxDelayMs / 1000} s). The delivery worker waits ${ACK_SECS} s for an answer:`,
  `a delay of ${ACK_SECS} s or more is a timeout (a retryable failure), a way to watch a receiver time out; keep it below to see a`,
  'slow receiver answered.',
  `It keeps its newest ${SINK_LIMITS.keptRequests} requests (each new one past that drops the oldest) with at most ${SINK_LIMITS.keptBodyBytes / 1024} KB of each body`,
  `(a body over ${SINK_LIMITS.readBodyBytes / (1024 * 1024)} MB is refused, 400, and not kept): a flooded sink stays bounded.`,
  `Each body is read as it streams in, only its first ${SINK_LIMITS.keptBodyBytes / 1024} KB held (the signature checked over all of it). A sink takes in at`,
  `most ${SINK_LIMITS.intakeBytesPerSec / (1024 * 1024)} MB of bodies a second (each request counted as at least ${SINK_LIMITS.intakeRequestBytes / 1024} KB; a second's worth may come at once),`,
  'per service process: past that it answers 429 `rate_limited` with `Retry-After` (seconds) without reading the body or keeping',
  'the request, so a flood of one sink never slows the service for other clients. A delivery the worker sends meets it as any',
  "receiver's 429: a failed attempt, retried after `Retry-After`.",
  'Deleting the sink deletes its endpoint (with its delivery log); deleting the endpoint deletes the sink. A test key may',
  'delete only a sink it created (contract §2). Not on a hosted service: sandbox routes exist on the local service only.',
].join('\n');

const REQUEST_FIELDS = [
  'A request: `{id, receivedAt, eventId, eventType, attempt, headers, body, signatureValid, answeredStatus}`. `eventId`,',
  '`eventType` and `attempt` come from the `Service-Event-Id`, `Service-Event-Type` and `Service-Delivery-Attempt` headers (null',
  'when not sent). `headers` are as received, names lower-case (`authorization`, `proxy-authorization` and `cookie` kept as',
  '`[redacted]`). `body` is the raw body as text (its first 64 KB). `signatureValid`: `X-Service-Signature` verified, over the',
  'whole raw body, with the endpoint\'s current secret and a timestamp within 5 minutes of real time (`verifyWebhookSignature`',
  'of `svc/webhooks`). `answeredStatus`: what it answered; null when the client went away before the answer (a delay).',
].join('\n');

/**
 * Waits out a sink's delay: true once it has passed (or the service closes: it answers at once rather
 * than hold the close up), false when the client went away first.
 */
function waitToAnswer(delayMs: number, reply: FastifyReply, closing: Set<() => void>): Promise<boolean> {
  if (delayMs <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (answered: boolean) => {
      clearTimeout(timer);
      closing.delete(now);
      reply.raw.off('close', gone);
      resolve(answered);
    };
    const now = () => finish(true);
    const gone = () => finish(false);
    const timer = setTimeout(now, delayMs);
    closing.add(now);
    reply.raw.once('close', gone);
  });
}

/** `Content-Length` as a number of bytes; 0 when absent or not a number (the body is then counted as read). */
const declaredLength = (h: string | undefined): number => (h !== undefined && /^\d{1,15}$/.test(h) ? Number(h) : 0);

/** contract §2: over the body limit is a validation_error; the connection closes rather than read the rest. */
function bodyTooLarge(reply: FastifyReply): ServiceError {
  reply.header('Connection', 'close');
  const limit = `${SINK_LIMITS.readBodyBytes / (1024 * 1024)} MB`;
  return new ServiceError('validation_error', `request body is larger than ${limit}`, [{ path: ['body'], message: `too large (limit ${limit})` }]);
}

/** Whether a body held whole carries its endpoint's signature. */
function verifiedOver(body: Buffer, headers: SinkArrival['headers'], secret: string, wallNowMs: number): boolean {
  const check = sinkSignatureCheck(headers, secret, wallNowMs);
  check.update(body);
  return check.result().ok;
}

export function sandboxSinksRoutes(app: FastifyInstance, deps: ServiceDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const feed = new SinkRequestsFeed(deps);
  const delayed = new Set<() => void>();
  // Per sink, in this process: bytes a second its receiver takes in (SINK_LIMITS.intakeBytesPerSec).
  const intake = new TokenBuckets({ ratePerSec: SINK_LIMITS.intakeBytesPerSec, burst: SINK_LIMITS.intakeBytesPerSec });
  // Held reads answer (with no requests) and delayed answers are sent before the server waits for open requests.
  app.addHook('preClose', async () => {
    feed.close();
    for (const answerNow of [...delayed]) answerNow();
  });

  r.post(
    '/v1/sandbox/sinks',
    {
      schema: {
        tags,
        summary: "Create a sink: a webhook endpoint served by the service itself that keeps what it receives; the endpoint's secret is shown only here",
        description: [
          '`{respond?: {status, failFirst, delayMs}, events?}` (`events` as an endpoint\'s filter; default every event). Answers the sink',
          'and `secret`, its endpoint\'s signing secret (as `POST /v1/webhooks` does; null in an Idempotency-Key replay). Its endpoint',
          'counts toward the 50 endpoints of the account (409 beyond). 409 too when the service does not listen on an address it can',
          'reach itself.',
          '',
          SINK_RULES,
        ].join('\n'),
        body: CreateSinkBody,
        response: { 201: SinkWithSecretSchema },
      },
    },
    async (req, reply) => {
      const created = await commitOnce(deps, req, 201, async (tx) => {
        const origin = ownOrigin(app.server);
        if (!origin) throw conflict('this service is not listening on an address it can reach itself, so it cannot serve a sink');
        const made = await createSink(tx, req.auth, req.body, origin);
        return { ...sinkView(made), secret: made.secret };
      });
      return reply.status(201).send(created);
    },
  );

  r.get(
    '/v1/sandbox/sinks',
    {
      schema: {
        tags,
        summary: 'List sinks (a bounded list: all of them, newest first, hasMore false)',
        description: `Each sink is one of the account's webhook endpoints (50 at most), so the list is returned whole; no secrets.\n\n${SINK_RULES}`,
        querystring: z.object({ format: z.enum(['array']).optional() }),
        response: { 200: listResponse(SinkSchema) },
      },
    },
    async (req, reply) => {
      const data = (await deps.uow.read((tx) => listSinks(tx, req.auth))).map(sinkView);
      return sendList(req, reply, { data, hasMore: false, nextCursor: null });
    },
  );

  r.get(
    '/v1/sandbox/sinks/:id/requests',
    {
      schema: {
        tags,
        summary: 'The requests a sink kept: newest first, paged; `wait` holds a read until one arrives',
        description: [
          REQUEST_FIELDS,
          '',
          '`order=desc` (default) reads newest first, back from `before`; `order=asc` reads oldest first, forward from `after`. Both',
          'bounds may be given. `cursor` is the position after the last item in reading order: pass it as `before` (desc) or',
          '`after` (asc). With no items, `cursor` is the position given (asc without `after`: the start; desc without bounds: the',
          'newest), so it also works as `after` to follow new requests; `after=now` answers none and the newest position.',
          `\`wait\` (0-${FEED_WAIT_MAX_SECS} s): a read without \`before\` that finds none is held until the sink keeps one (answered at once) or the`,
          'time runs out (answered with none and the same `cursor`). Cursors are opaque; a malformed one is `validation_error` on',
          `\`["query","after"]\` or \`["query","before"]\`. Only the newest ${SINK_LIMITS.keptRequests} are kept: a position older than that has nothing left.`,
        ].join('\n'),
        params: IdParams,
        querystring: SinkRequestsQuery,
        response: { 200: SinkRequestPageSchema },
      },
    },
    async (req, reply) => {
      const page = await whileClientWaits(req, reply, req.query.wait, (signal) => feed.read(req.auth, req.params.id, req.query, signal));
      return { data: page.requests.map(sinkRequestView), cursor: page.cursor, hasMore: page.hasMore };
    },
  );

  r.delete(
    '/v1/sandbox/sinks/:id',
    {
      schema: {
        tags,
        summary: 'Delete a sink with its endpoint, its delivery log and the requests it kept',
        description: 'Scheduled attempts to it stop. A test key may not delete a sink made with a live key (403 `forbidden`, contract §2).',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      await deps.uow.write((tx) => deleteSink(tx, req.auth, req.params.id));
      return reply.status(204).send(null);
    },
  );

  // The receivers: any body, read as text (the signature is over the raw bytes), in a context of
  // their own so no other route accepts a body that is not JSON.
  app.register(async (receivers) => {
    receivers.removeAllContentTypeParsers();
    // The body is left unread here: the handler reads it as a stream, once the sink is known and
    // its intake has room, holding only its first bytes (bounded-body.ts).
    receivers.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    receivers.post(
      `${SINK_PATH_PREFIX}:id`,
      {
        config: { public: true },
        bodyLimit: SINK_LIMITS.readBodyBytes,
        schema: {
          tags,
          summary: "A sink's receiver: where its endpoint's deliveries arrive (without auth, as any webhook receiver)",
          description: [
            'Keeps the request and answers as the sink was told (`POST /v1/sandbox/sinks`): its status with `{"received": true}`,',
            `or ${SINK_FAIL_STATUS} with \`{"error": …}\`, after its delay. Any content type; an unknown sink → 404 \`not_found\`.`,
            '',
            REQUEST_FIELDS,
          ].join('\n'),
          security: [],
          consumes: ['application/json'],
          params: IdParams,
          response: { 200: z.object({ received: z.literal(true) }) },
        } as never,
      },
      async (req: FastifyRequest<{ Params: { id: string } }>, reply) => {
        const sinkId = req.params.id;
        const declared = declaredLength(req.headers['content-length']);
        if (declared > SINK_LIMITS.readBodyBytes) throw bodyTooLarge(reply);
        // README "Sinks' intake" (the OpenAPI's SINK_RULES): refused before a byte of the body is read, which Node then drops.
        const admitted = intake.take(sinkId, Math.max(declared, SINK_LIMITS.intakeRequestBytes));
        if (!admitted.allowed) throw rateLimited(admitted.retryAfterSecs);
        const wallNowMs = deps.wall();
        const stream = req.body as Readable | undefined;
        let arrival: SinkArrival;
        if (!stream || (declared > 0 && declared <= SINK_LIMITS.keptBodyBytes)) {
          // A body short enough to be kept whole is read whole, then verified in the write.
          const read = stream ? await readBoundedBody(stream, SINK_LIMITS.keptBodyBytes, declared, () => {}) : { head: Buffer.alloc(0), bytes: 0, tooLarge: false };
          if (read.tooLarge) throw bodyTooLarge(reply);
          arrival = { headers: req.headers, head: read.head, bytes: read.bytes, signatureValid: (secret) => verifiedOver(read.head, req.headers, secret, wallNowMs) };
        } else {
          // A longer one is verified as it streams by (the secret read first) and held only in part.
          const secret = await deps.uow.read((tx) => sinkSecret(tx, sinkId));
          const check = sinkSignatureCheck(req.headers, secret ?? '', wallNowMs);
          const read = await readBoundedBody(stream, SINK_LIMITS.keptBodyBytes, SINK_LIMITS.readBodyBytes, (piece) => check.update(piece));
          if (read.tooLarge) throw bodyTooLarge(reply);
          // A body longer than it said (or sent in chunks, unsaid) is counted once read.
          if (read.bytes > Math.max(declared, SINK_LIMITS.intakeRequestBytes)) intake.charge(sinkId, read.bytes - Math.max(declared, SINK_LIMITS.intakeRequestBytes));
          const ok = secret !== undefined && check.result().ok;
          arrival = { headers: req.headers, head: read.head, bytes: read.bytes, signatureValid: (current) => ok && current === secret };
        }
        const answer: SinkAnswer = await deps.uow.write((tx) => receiveAtSink(tx, req.params.id, arrival), SINK_WRITE);
        // A client gone before the answer (its timeout ran out) is answered into the void: it is noted.
        if (!(await waitToAnswer(answer.delayMs, reply, delayed))) await deps.uow.write((tx) => answeredNobody(tx, answer));
        const body = answer.status >= 200 && answer.status < 300 ? { received: true } : { error: `this sink answers ${answer.status} (as it was told)` };
        return reply.status(answer.status).type('application/json; charset=utf-8').serializer(JSON.stringify).send(answer.status === 204 || answer.status === 304 ? undefined : body);
      },
    );
  });
}
