import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceDeps } from './deps.js';
import { zodValidatorCompiler } from './http/validation.js';
import { installErrorHandling, sendError, UNAVAILABLE_RETRY_AFTER_S } from './http/error-handler.js';
import { installAuth } from './http/auth.js';
import { installRateLimit, limitShare } from './http/rate-limit.js';
import { installIdempotency, noteArrival } from './http/idempotency.js';
import { installJsonBodyParser, MAX_JSON_MEMBERS, MAX_JSON_VALUES } from './http/json-body.js';
import { installBodylessRule } from './http/bodyless.js';
import { closeConnectionsAfterAnswers } from './http/closing.js';
import { answerClientError, limitConnections } from './http/connections.js';
import { MAX_HEADER_BYTES, MAX_JSON_DEPTH, REFUSED_BODY_READ_MAX_BYTES, SERVER_LIMITS, UNAUTHENTICATED_RATE, type ServerLimits } from '../api/values/http.js';
import { RouteCatalog } from './http/route-catalog.js';
import { ClientHolds, HOLD_LIMITS } from './http/client-holds.js';
import { limitSlowBodies } from './http/slow-bodies.js';
import { buildOpenApiDocument } from './http/openapi.js';
import { randomBase62 } from './ids.js';
import { SERVICE_TIME_HEADER } from '../api/values/sandbox.js';
import { MAX_ERROR_DETAILS } from '../api/schemas/errors.js';
import { keysRoutes } from './routes/keys.js';
import { subaccountRoutes } from './routes/subaccounts.js';
import { sandboxClockRoutes } from './routes/sandbox-clock.js';
import { webhooksRoutes } from './routes/webhooks.js';
import { eventsRoutes } from './routes/events.js';
import { messagesRoutes } from './routes/messages.js';
import { conversationsRoutes } from './routes/conversations.js';
import { optOutsRoutes } from './routes/opt-outs.js';
import { numbersRoutes } from './routes/numbers.js';
import { numberRouteRoutes } from './routes/numbers-route.js';
import { sandboxMessagingRoutes } from './routes/sandbox-messaging.js';
import { sandboxWebhooksRoutes } from './routes/sandbox-webhooks.js';
import { sandboxSinksRoutes } from './routes/sandbox-sinks.js';
import { blockedNumbersRoutes } from './routes/blocked-numbers.js';
import { softphoneRoutes } from './routes/softphone.js';
import { callsRoutes } from './routes/calls.js';
import { sandboxCallsRoutes } from './routes/sandbox-calls.js';
import { sandboxCallTestsRoutes } from './routes/sandbox-call-tests.js';
import { brandsRoutes } from './routes/brands.js';
import { campaignsRoutes } from './routes/campaigns.js';
import { registrationsRoutes } from './routes/registrations.js';
import { registrationToolsRoutes } from './routes/registration-tools.js';
import { sandboxRegistrationRoutes } from './routes/sandbox-registration.js';
import { hostedPagesRoutes } from './routes/hosted-pages.js';
import { portsRoutes } from './routes/ports.js';
import { emailsRoutes } from './routes/emails.js';
import { suppressionsRoutes } from './routes/suppressions.js';
import { sandboxPortsRoutes } from './routes/sandbox-ports.js';
import { domainsRoutes } from './routes/domains.js';
import { sandboxDnsRoutes } from './routes/sandbox-dns.js';
import { emailEventsRoutes } from './routes/email-events.js';
import { sandboxEmailRoutes } from './routes/sandbox-email.js';
import { billingRoutes } from './routes/billing.js';
import { sandboxBillingRoutes } from './routes/sandbox-billing.js';
import { consoleSessionRoutes } from './routes/console-sessions.js';
import { consoleRoutes } from './routes/console/index.js';
import { sandboxChaosRoutes } from './routes/sandbox-chaos.js';
import { installChaosHook } from './http/chaos-hook.js';
import { MCP_WAIT_MAX_SECS } from '../api/values/mcp.js';
import { MCP_BODY_LIMIT_BYTES, mcpRoutes, type McpEndpointFactory } from './routes/mcp.js';

// contract §2: body limit 3 MB.
export const BODY_LIMIT_BYTES = 3 * 1024 * 1024;

const API_DESCRIPTION = [
  'The svc local service: a complete, stateful implementation of the API (service-spec.md), with the',
  'answers of contract.md where the spec is silent. Decisions recorded here:',
  '- Error `details` paths start with the request location: `body`, `query`, `params` or `headers`',
  '  (e.g. `["body","to"]`, `["headers","service-subaccount"]`).',
  '- A known path called with an unsupported method answers 404 `not_found` with an `Allow` header',
  '  (the error table has no 405).',
  '- Every POST accepts `Idempotency-Key` (24 h, scoped to account, method, path and key). A replay',
  '  never carries a secret: API keys and webhook signing secrets (shown once) are null in a replay.',
  '- Every response carries `Service-Time`: the service clock (ISO 8601), which the sandbox clock',
  '  advance moves; clients measure relative times against it.',
  '- Rate limit: token bucket per key; `RateLimit-Limit` is the bucket size, `RateLimit-Reset` the',
  '  seconds until it is full again; 429 carries `Retry-After`. Requests whose credentials are refused',
  `  (none, malformed, unknown, revoked) are limited per client address: ${UNAUTHENTICATED_RATE.burst} in a burst, then`,
  `  ${UNAUTHENTICATED_RATE.ratePerSec} a second, then 429 with \`Retry-After\`; a valid key on the same address keeps its own bucket.`,
  '  Replicas on one PostgreSQL database each enforce their share of every limit (1/N of the burst and of',
  '  the rate, N the replicas alive): a client spread over them gets no more than the limit in all, one that stays on',
  '  one replica gets that share; `RateLimit-Limit` is the answering replica\'s share.',
  '- API keys are taken from the `Authorization` header only; a key in the URL is refused (401) and',
  '  never written to the log (nor is any credential in a URL or header).',
  `- Bounds on a client: the request line and headers must arrive within ${SERVER_LIMITS.headersTimeoutMs / 1000} s and be at most`,
  `  ${MAX_HEADER_BYTES / 1024} KB; the whole request, body included, within ${SERVER_LIMITS.requestTimeoutMs / 1000} s (a held read, \`wait\`, is not cut: the bound`,
  `  is on receiving); an idle keep-alive connection is closed after ${SERVER_LIMITS.keepAliveTimeoutMs / 1000} s. At most ${SERVER_LIMITS.maxConnections} open connections,`,
  `  ${SERVER_LIMITS.maxConnectionsPerAddress} per client address; a connection over a cap is answered 429 \`rate_limited\` (\`Retry-After: 1\`) and closed,`,
  `  unless it can take the place of the oldest connection (of its address, or at the total cap of any) that has not sent its`,
  `  request headers within ${SERVER_LIMITS.slowHeadersGraceMs / 1000} s of opening: that one is answered 408 \`request_timeout\` and closed.`,
  `- A request body must keep arriving at ${SERVER_LIMITS.bodyMinBytesPerSec / 1024} KB/s at least, judged over every ${SERVER_LIMITS.bodyRateWindowMs / 1000} s: slower, it is answered 408`,
  `  \`request_timeout\` and the connection closed. The rest of a body answered before it was read (a refused one) must arrive`,
  `  within ${SERVER_LIMITS.bodyRateWindowMs / 1000} s of the answer, or the connection is closed.`,
  `- Requests held open for an account (the key's) at once: at most ${HOLD_LIMITS.perAccount}, counting bodies still arriving ${SERVER_LIMITS.bodyRateWindowMs / 1000} s`,
  `  after their headers, held reads (\`wait\`) and console streams; held reads at most ${HOLD_LIMITS.heldReadsPerKey} per key, console streams`,
  `  ${HOLD_LIMITS.streamsPerSession} per session. Beyond one, 429 \`rate_limited\` with \`Retry-After: 1\` at once (a slow body: and the connection closed).`,
  '- Answers given before routing are the envelope too, with `Request-Id` and `Connection: close`: headers or URL too',
  '  large and a malformed request are 400 `validation_error` (as a body over the limit is); a request not received in',
  '  time is 408 `request_timeout` (an extension to the error table; it may be retried).',
  `- A body whose \`Content-Length\` is over the route's limit is answered 400 \`validation_error\` at once, and the rest of it`,
  `  is read and dropped (up to ${REFUSED_BODY_READ_MAX_BYTES / (1024 * 1024)} MB declared; the connection is kept), so a client that writes its whole body`,
  '  before reading sees the answer, not a reset connection. A larger one is answered and the connection closed.',
  `- A JSON body nested deeper than ${MAX_JSON_DEPTH} levels, or holding more than ${MAX_JSON_MEMBERS} object members or ${MAX_JSON_VALUES} values in all, is`,
  `  a 400 \`validation_error\` on \`["body"]\`; one with more than ${MAX_ERROR_DETAILS} unknown top-level fields is refused naming them (the`,
  `  first ${MAX_ERROR_DETAILS}, then their count), before it is parsed.`,
  '- A POST or DELETE that takes no body refuses one: any body is a 400 `validation_error` (unknown fields by name),',
  '  whatever its content type, and changes nothing. No body, an empty one, or the empty JSON object `{}` count as none.',
  '  A read (GET, HEAD) refuses any body: its filters go in the query string.',
  '- No string of a request (body, query or path; field names included) may hold NUL (U+0000) or an unpaired UTF-16',
  '  surrogate: 400 `validation_error` naming its path. Names and labels shown in tables (key and sub-account',
  '  names, number, device and route labels, endpoint descriptions) also refuse the Unicode direction overrides and',
  '  isolates U+202A to U+202E and U+2066 to U+2069, which would make one value read as another; the text of a',
  '  conversation (message, email and voicemail bodies) keeps them. Direction marks (U+200E, U+200F) are allowed.',
  `- While the service cannot reach its database (PostgreSQL stopped, restarting or cut off), requests that need it are`,
  `  answered 503 \`service_unavailable\` (an extension to the error table) with \`Retry-After: ${UNAVAILABLE_RETRY_AFTER_S}\`, and \`/healthz\` (readiness)`,
  '  answers 503 `{"ok":false,"database":"unreachable"}`; both recover by themselves once it is back. A write cut off at',
  '  its commit may have been done: send it again with its `Idempotency-Key`.',
  '- A URL the service or a visitor will use is checked when saved, not only when used: `pageConfig.logoUrl` must be an',
  '  https URL with no spaces, control characters, quotes or angle brackets; `decisionWebhook.url` follows the webhook',
  '  endpoint rules (https, or http to loopback; no private, link-local or metadata address). Both are checked again when used.',
  '- `POST /mcp` (not listed below: it speaks JSON-RPC, not this API) serves the `svc mcp` tools over the Model Context Protocol',
  '  (streamable HTTP transport, stateless: each message is a POST, answered as a server-sent stream; GET and DELETE answer 405). It takes',
  '  an API key as any route does (401 and 403 as here; `Service-Subaccount` scopes it) and one request from its bucket;',
  '  each tool call is an API request with that key, so the tenancy, test-key rules and rate limit are the API\'s.',
  `  \`/mcp?groups=messages,numbers\` serves only those groups' tools (an unknown group is a 400 \`validation_error\` on`,
  `  \`["query","groups"]\` naming the groups). Bodies up to ${MCP_BODY_LIMIT_BYTES / (1024 * 1024)} MB; at most ${HOLD_LIMITS.mcpRequestsPerKey} MCP requests at once per key (a`,
  `  tool call may wait: \`wait_for_event\`, \`wait_for_email\`, up to ${MCP_WAIT_MAX_SECS} s), then 429 with \`Retry-After: 1\`.`,
].join('\n');

export interface BuildAppOptions {
  logger?: FastifyServerOptions['logger'];
  /** Timeouts and connection caps; tests lower them to prove them in seconds. */
  server?: Partial<ServerLimits>;
  /** What serves /mcp (`svc server start` passes the CLI's tools); absent: /mcp answers 404. */
  mcp?: McpEndpointFactory;
}

/**
 * A Fastify instance with every route; never calls listen() (conventions: app factory). Only HTTP:
 * hooks, routes, OpenAPI. The service's objects, jobs and workers come built from composeService.
 */
export async function buildApp(deps: ServiceDeps, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const limits: ServerLimits = { ...SERVER_LIMITS, ...opts.server };
  const serviceTime = () => ({ [SERVICE_TIME_HEADER]: new Date(deps.clock.nowMs()).toISOString() });
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Every wait on a client is bounded (SERVER_LIMITS in api/values/http.ts says why each value). No idle
    // socket timeout (Fastify's connectionTimeout stays 0): it would cut a held read or a slow answer.
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: limits.timeoutCheckIntervalMs,
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    // What Node's parser rejects (headers too large, a broken request line, a timeout) is
    // answered with the envelope, a Request-Id and Connection: close, not Fastify's own body.
    clientErrorHandler: (err, socket) => answerClientError(err, socket, serviceTime),
    // Route schemas bound their own params (ids up to 200 characters); this is only the router's cap.
    routerOptions: { maxParamLength: 500 },
    genReqId: () => `req_${randomBase62(16)}`,
    // Errors Fastify raises before routing (a URL with broken percent-encoding…) get the envelope too.
    frameworkErrors: (err, req, reply) => {
      reply.header('Request-Id', req.id);
      // Fastify's own text names its internals; say what is wrong in our words.
      sendError(reply, 'validation_error', 'the request URL could not be read', [{ path: ['url'], message: 'malformed URL (bad percent-encoding, or a path segment over 500 characters)' }]);
    },
  });
  limitConnections(app.server, limits, serviceTime);
  // What a client holds open (slow bodies, held reads, console streams), per account, key and session.
  app.decorate('clientHolds', new ClientHolds());
  limitSlowBodies(app.server, limits, app.clientHolds, serviceTime);
  closeConnectionsAfterAnswers(app);
  app.setValidatorCompiler(zodValidatorCompiler);
  installJsonBodyParser(app);
  app.setSerializerCompiler(serializerCompiler);

  const catalog = new RouteCatalog();
  catalog.attach(app);

  // contract §2: every response carries Request-Id (set first, so even a 401 has it).
  // Our extension: Service-Time, the service clock's time (which `svc clock advance` moves), so a
  // client shows "2 minutes ago" against the clock its records were stamped with.
  // contract §2: a request's arrival orders it against an answer to its Idempotency-Key (idempotency.ts).
  app.decorateRequest('arrivedAt', 0);
  app.addHook('onRequest', async (req, reply) => {
    noteArrival(req);
    reply.header('Request-Id', req.id);
    reply.header(SERVICE_TIME_HEADER, new Date(deps.clock.nowMs()).toISOString());
  });
  installErrorHandling(app, catalog);
  installAuth(app, deps);
  // The API's injected faults (429, 502, slow), once the request's account is known
  // (contract §9: its profile applies), before anything else reads the request.
  if (deps.options.sandbox) installChaosHook(app, deps.chaos);
  installRateLimit(app, deps.options.rateLimit, limitShare(deps.store));
  installBodylessRule(app);
  await installIdempotency(app, deps);

  const publicRoute = { public: true };
  // Readiness, which is what a load balancer's health check asks: 503 while the database cannot be
  // reached (PostgreSQL), so it stops routing here, and 200 again once it can, by itself. Answered
  // from what the store last saw (its requests, heartbeat and listening connection), never a query
  // per probe. Liveness is that the process answers at all (any status: `svc server status`).
  app.get(
    '/healthz',
    {
      config: publicRoute,
      schema: {
        tags: ['service'],
        summary: 'Readiness, without auth',
        description: 'Ready: 200 `{"ok":true}`. While the service cannot reach its database: 503 `{"ok":false,"database":"unreachable"}` with `Retry-After`.',
        security: [],
        response: { 200: z.object({ ok: z.literal(true) }), 503: z.object({ ok: z.literal(false), database: z.literal('unreachable') }) },
      },
    } as never,
    async (_req, reply) => {
      if (deps.store.databaseReachable()) return { ok: true as const };
      reply.header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
      return reply.status(503).send({ ok: false as const, database: 'unreachable' as const });
    },
  );

  keysRoutes(app, deps);
  subaccountRoutes(app, deps);
  if (deps.options.sandbox) sandboxClockRoutes(app, deps);
  webhooksRoutes(app, deps);
  eventsRoutes(app, deps);

  messagesRoutes(app, deps);
  conversationsRoutes(app, deps);
  optOutsRoutes(app, deps);
  numbersRoutes(app, deps);
  numberRouteRoutes(app, deps);
  blockedNumbersRoutes(app, deps);
  softphoneRoutes(app, deps);
  callsRoutes(app, deps);
  brandsRoutes(app, deps);
  campaignsRoutes(app, deps);
  registrationsRoutes(app, deps);
  registrationToolsRoutes(app, deps);
  hostedPagesRoutes(app, deps);
  if (deps.options.sandbox) sandboxMessagingRoutes(app, deps);
  if (deps.options.sandbox) sandboxWebhooksRoutes(app, deps);
  if (deps.options.sandbox) sandboxSinksRoutes(app, deps);
  if (deps.options.sandbox) sandboxCallsRoutes(app, deps);
  if (deps.options.sandbox) sandboxCallTestsRoutes(app, deps);
  if (deps.options.sandbox) sandboxRegistrationRoutes(app, deps);
  portsRoutes(app, deps);
  if (deps.options.sandbox) sandboxPortsRoutes(app, deps);
  domainsRoutes(app, deps);
  if (deps.options.sandbox) sandboxDnsRoutes(app, deps);
  emailsRoutes(app, deps);
  suppressionsRoutes(app, deps);
  emailEventsRoutes(app, deps);
  if (deps.options.sandbox) sandboxEmailRoutes(app, deps);
  billingRoutes(app, deps);
  if (deps.options.sandbox) sandboxBillingRoutes(app, deps);
  // The console (HTML pages under /console) and the API call that mints its one-time link.
  consoleSessionRoutes(app, deps);
  consoleRoutes(app, deps);
  if (deps.options.sandbox) sandboxChaosRoutes(app, deps);
  mcpRoutes(app, opts.mcp);

  let openapi: Record<string, unknown> | undefined;
  app.get('/openapi.json', { config: publicRoute, schema: { hide: true } as never }, async (_req, reply) => {
    openapi ??= buildOpenApiDocument(catalog, API_DESCRIPTION);
    return reply.type('application/json').serializer(JSON.stringify).send(openapi);
  });

  return app;
}
