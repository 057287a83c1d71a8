import { defineVerb, runConverted } from '../../verb.js';
import { LIST_FLAGS } from '../../list-flags.js';
import { webhookEndpoints, webhookListPath } from '../../../api/resources/webhooks.js';
import { EVENTS_FEED_PATH } from '../../../api/resources/events.js';
import { DELIVERY_STATUSES } from '../../../api/values/webhooks.js';
import { MAX_REPLAY_EVENTS } from '../../../api/values/sinks.js';

const MAX_REPLAY_EVENTS_TEXT = MAX_REPLAY_EVENTS.toLocaleString('en-US');
import { TAIL_COLUMNS } from './columns.js';
import { createWebhookOptionsOf, DEFAULT_LISTEN_CONCURRENCY, DEFAULT_TAIL_LAST, listenOptionsOf, tailOptionsOf, updateWebhookOptionsOf } from './options.js';
import { DEFAULT_SINK_REQUESTS_LIMIT, replayOptionsOf, sinkCreateOptionsOf, sinkRequestsOptionsOf } from './sink-options.js';
import { sinkEndpoints, sinkListPath } from '../../../api/resources/sinks.js';
import { SINK_LIMITS } from '../../../api/values/sinks.js';
import { plainDelete } from '../../plain-verbs.js';

// svc webhooks: spec Events and webhooks; contract §10.
const ID_ARG = { name: 'id', help: 'endpoint id (we_…)', complete: 'webhooks' } as const;
const SINK_ARG = { name: 'id', help: 'sink id (snk_…)', complete: 'sinks' } as const;

export const subgroups = { sink: 'Sinks: webhook endpoints the local service serves itself, keeping every request they receive' };

export const verbs = [
  defineVerb({
    name: 'create',
    summary: 'Create a webhook endpoint; its signing secret is printed once',
    flags: [
      { flags: '--url <url>', help: 'where events are POSTed: https (http only for localhost / 127.0.0.1)', required: true },
      { flags: '--events <types>', help: 'event types, comma-separated; <family>.* patterns accepted (default: every event)' },
      { flags: '--description <text>', help: 'a note to recognise it by' },
    ],
    details: `The signing secret (whsec_…) is in the output this one time; save it to verify the
X-Service-Signature header of each delivery (verifyWebhookSignature from svc/webhooks).
A URL the service refuses (not https, a private or metadata address): exit 2 naming body.url.`,
    examples: [
      'svc webhooks create --url https://example.com/hooks/svc',
      `svc webhooks create --url https://example.com/sms --events 'message.*' --description "SMS handler"`,
      'svc webhooks create --url http://localhost:3000/hook -o json | jq -r .secret',
    ],
    changes: true,
    api: webhookEndpoints.create,
    run: runConverted(async () => (await import('./create.run.js')).runCreate, createWebhookOptionsOf),
  }),
  defineVerb({
    name: 'list',
    summary: 'List webhook endpoints (all of them, newest first; secrets are never shown)',
    details: 'The service answers every endpoint at once (a bounded list): there is no page, so no --cursor.',
    examples: ['svc webhooks list', 'svc webhooks list -o ids'],
    api: { method: 'GET', path: webhookListPath },
    run: async () => (await import('./list.run.js')).runListWebhooks,
  }),
  defineVerb({
    name: 'get',
    summary: 'Show a webhook endpoint (without its secret)',
    args: [ID_ARG],
    examples: ['svc webhooks get we_S8Bq37q53Fx1ZziV3BwL', 'svc webhooks get we_S8Bq37q53Fx1ZziV3BwL -o json'],
    api: webhookEndpoints.get,
    run: async () => (await import('./get.run.js')).runGet,
  }),
  defineVerb({
    name: 'update',
    summary: 'Change a webhook endpoint: URL, events, description, enabled',
    args: [ID_ARG],
    flags: [
      { flags: '--url <url>', help: 'new URL (same rules as create)' },
      { flags: '--events <types>', help: 'new event filter, comma-separated (* for every event)' },
      { flags: '--description <text>', help: 'new description ("" clears it)' },
      { flags: '--enable', help: 're-enable it (clears the failing streak; abandoned deliveries are not resent)' },
      { flags: '--disable', help: 'disable it by hand (its scheduled deliveries are abandoned)' },
    ],
    details: 'Give at least one change. A new URL or filter applies from the next attempt and the next event.',
    examples: [
      "svc webhooks update we_S8Bq37q53Fx1ZziV3BwL --events 'message.*,call.completed'",
      'svc webhooks update we_S8Bq37q53Fx1ZziV3BwL --enable',
      'svc webhooks update we_S8Bq37q53Fx1ZziV3BwL --url https://example.com/v2/hooks --description ""',
    ],
    changes: true,
    api: webhookEndpoints.update,
    run: runConverted(async () => (await import('./update.run.js')).runUpdate, updateWebhookOptionsOf),
  }),
  defineVerb({
    name: 'delete',
    aliases: ['remove'],
    summary: 'Delete a webhook endpoint and its delivery log (asks first)',
    args: [ID_ARG],
    details: 'Scheduled retries stop at once. Without a terminal, pass --yes (otherwise exit 2, nothing deleted).',
    examples: ['svc webhooks delete we_S8Bq37q53Fx1ZziV3BwL', 'svc webhooks delete we_S8Bq37q53Fx1ZziV3BwL --yes'],
    prompts: true,
    changes: true,
    api: webhookEndpoints.delete,
    run: async () => (await import('./delete.run.js')).runDelete,
  }),
  defineVerb({
    name: 'test',
    summary: 'Send a signed sample delivery (webhook_endpoint.test) now and show how it went',
    args: [ID_ARG],
    details: `One attempt, whatever the endpoint's filter and even when it is disabled; it shows in the delivery
log but never in the events feed. Prints the delivery; exit 1 when the receiver did not answer 2xx.`,
    examples: ['svc webhooks test we_S8Bq37q53Fx1ZziV3BwL', 'svc webhooks test we_S8Bq37q53Fx1ZziV3BwL -o json | jq .responseStatus'],
    changes: true,
    api: webhookEndpoints.test,
    run: async () => (await import('./test.run.js')).runTest,
  }),
  defineVerb({
    name: 'rotate-secret',
    summary: 'Replace the signing secret (asks first); the new one is printed once',
    args: [ID_ARG],
    details: `The old secret stops at once: every attempt from now on, retries included, is signed with the new
one. Without a terminal, pass --yes (otherwise exit 2, nothing changed).`,
    examples: ['svc webhooks rotate-secret we_S8Bq37q53Fx1ZziV3BwL', 'svc webhooks rotate-secret we_S8Bq37q53Fx1ZziV3BwL --yes -o json | jq -r .secret'],
    prompts: true,
    changes: true,
    api: webhookEndpoints.rotateSecret,
    run: async () => (await import('./rotate-secret.run.js')).runRotateSecret,
  }),
  defineVerb({
    name: 'deliveries',
    summary: "An endpoint's delivery log: the last 7 days, newest first",
    args: [ID_ARG],
    flags: [...LIST_FLAGS, { flags: '--status <status>', help: 'only deliveries in this status', choices: DELIVERY_STATUSES }],
    details: `A delivery is one event to this endpoint, showing its latest attempt: attempt (attempts so far),
status, responseStatus, error and nextAttemptAt (failed ones are retried on the service's schedule).`,
    examples: ['svc webhooks deliveries we_S8Bq37q53Fx1ZziV3BwL', 'svc webhooks deliveries we_S8Bq37q53Fx1ZziV3BwL --status failed --all -o ndjson'],
    api: webhookEndpoints.deliveries,
    run: async () => (await import('./deliveries.run.js')).runListDeliveries,
  }),
  defineVerb({
    name: 'retry',
    summary: 'Redeliver one delivery now (freshly signed) and show how it went',
    args: [ID_ARG, { name: 'deliveryId', help: 'delivery id (whd_…), from svc webhooks deliveries' }],
    details: `Prints the delivery after the attempt; exit 1 when the receiver did not answer 2xx (a retryable
failure then continues on the usual schedule). A disabled endpoint, or an attempt already in flight:
exit 5.`,
    examples: [
      'svc webhooks retry we_S8Bq37q53Fx1ZziV3BwL whd_oJ6tB79nWm5cpXVXjJGh',
      'svc webhooks deliveries we_S8Bq37q53Fx1ZziV3BwL --status failed -o ids | xargs -n1 svc webhooks retry we_S8Bq37q53Fx1ZziV3BwL',
    ],
    changes: true,
    api: webhookEndpoints.retry,
    run: async () => (await import('./retry.run.js')).runRetry,
  }),
  defineVerb({
    name: 'tail',
    summary: "Follow an endpoint's delivery log live: new deliveries, attempts, status, next retry",
    args: [ID_ARG],
    flags: [{ flags: '--last <n>', help: 'print the newest N deliveries of the log first (0: only what happens from now)', default: DEFAULT_TAIL_LAST, json: 'integer' }],
    details: `Reads the log about every second and prints one line for each new delivery and each change of one
(attempt, status, responseStatus, nextAttemptAt): on a terminal time, delivery, event type, event id,
attempt, status, HTTP status, next retry; piped, tab-separated columns (${TAIL_COLUMNS.join(', ')});
-o ndjson (or -o json) prints the delivery itself, one JSON object per line.

If the service stops answering it says so once on stderr and keeps retrying. Ctrl-C is the normal
way to stop: it stops cleanly and exits 0 (not 130). A deleted endpoint ends it with exit 4.`,
    examples: ['svc webhooks tail we_S8Bq37q53Fx1ZziV3BwL', `svc webhooks tail we_S8Bq37q53Fx1ZziV3BwL --last 0 -o ndjson | jq 'select(.status == "failed")'`],
    // It never ends on its own: not an MCP tool.
    terminal: true,
    api: webhookEndpoints.deliveries,
    run: runConverted(async () => (await import('./tail.run.js')).runTail, tailOptionsOf),
  }),
  defineVerb({
    name: 'listen',
    summary: 'Forward every event to a local URL, signed as the service signs webhooks, until Ctrl-C',
    flags: [
      { flags: '--forward-to <url>', help: 'handler URL, or TYPE_PATTERN=URL to route types (repeatable; first match wins)', repeatable: true },
      { flags: '--events <types>', help: 'only these types, comma-separated; <family>.* patterns accepted' },
      { flags: '--headers <name:value>', help: 'an extra request header for the handler (repeatable)', repeatable: true },
      { flags: '--secret <whsec_…>', help: 'sign with this secret (default: a local secret kept per profile)' },
      { flags: '--print-secret', help: 'print the signing secret and exit (for scripts)' },
      { flags: '--since <now|cursor>', help: 'start here: now skips the backlog (default: the cursor file, else now)' },
      { flags: '--cursor-file <file>', help: 'where the position is kept (default: one per profile and --forward-to)', local: {} },
      { flags: '--concurrency <n>', help: 'events in flight at once (1: in order, one at a time)', default: DEFAULT_LISTEN_CONCURRENCY, json: 'integer' },
    ],
    details: `Follows the events feed (long-polling on the local service, polling every 2 s elsewhere) and POSTs
each event to its handler with the exact body the service delivers (the event fields plus id, type,
createdAt) and the same headers: Content-Type: application/json, X-Service-Signature (t=…,v1=…,
HMAC-SHA256 with the local secret; verify with verifyWebhookSignature from svc/webhooks),
Service-Event-Id, Service-Event-Type, Service-Delivery-Attempt, plus --headers.

The local secret (whsec_…) is generated once per profile and kept in listen-secrets.json in the
config dir (mode 0600), so it stays the same across restarts; --secret fixes it instead. A "ready"
line on stderr (terminal or not) says it is listening and shows the secret and the handlers.

One line per delivery attempt: time (the event's createdAt, on every attempt), type, event id,
status (HTTP status or the connection error), ms; with -v also the handler's response and the first lines of its body on stderr. -o ndjson (or
-o json) prints each attempt as a JSON object. Events go in order, one at a time (--concurrency N to
have up to N in flight). A non-2xx answer or a connection error is retried (1s, 2s, 4s … 30s) until it
succeeds: nothing is skipped, and the position only moves past an event once it was delivered. An
event no --forward-to pattern matches is skipped (a "skipped" line) and the position moves on.

The position is kept in a cursor file (default: listen-cursors/ in the config dir, one per profile
and set of --forward-to), so a restart picks up what arrived while it was down; --since now skips
the backlog. If the service stops answering it says so on stderr and keeps retrying.

Ctrl-C is the normal way to stop: the POST in flight is abandoned (it is sent again next time), the
position is saved, and it exits 0 (not 130).`,
    examples: [
      'svc webhooks listen --forward-to http://localhost:3000/webhooks',
      "svc webhooks listen --forward-to 'message.*=http://localhost:3000/sms' --forward-to http://localhost:3000/other",
      'svc webhooks listen --forward-to http://localhost:3000/hook --events message.received --since now',
      'SECRET=$(svc webhooks listen --print-secret)',
    ],
    terminal: true,
    api: { method: 'GET', path: EVENTS_FEED_PATH },
    run: runConverted(async () => (await import('./listen.run.js')).runListen, listenOptionsOf),
  }),
  defineVerb({
    name: 'replay',
    summary: "Deliver an endpoint's past events again (new deliveries, freshly signed); prints how many",
    flags: [
      { flags: '--endpoint <id>', help: 'the endpoint to deliver to (we_…)', required: true, complete: 'webhooks' },
      { flags: '--since <duration|cursor>', help: 'only events after this: a duration back from the service clock (1h, 30m) or a cursor of svc events list' },
      { flags: '--types <types>', help: 'only these event types, comma-separated; <family>.* patterns accepted' },
      { flags: '--status <status>', help: 'only events whose newest delivery to the endpoint is in this state (failed: still retried; abandoned: given up)', choices: DELIVERY_STATUSES },
    ],
    details: `Each matching past event of the feed (one the endpoint is subscribed to) gets a new delivery to the
endpoint, written in feed order and sent at once: the event's own id and body, signed at each attempt
with the endpoint's current secret. After a receiver's outage, --status failed (or abandoned) sends
exactly what it missed. Prints the number of events (-o json: {"count": N}; piped: the number alone).
At most ${MAX_REPLAY_EVENTS_TEXT} events at once: more is exit 2 (replay in parts, with a later --since). A
test key replays only test events.`,
    examples: [
      'svc webhooks replay --endpoint we_S8Bq37q53Fx1ZziV3BwL --status failed',
      "svc webhooks replay --endpoint we_S8Bq37q53Fx1ZziV3BwL --since 1h --types 'message.*'",
      'svc webhooks replay --endpoint we_S8Bq37q53Fx1ZziV3BwL --since "$(svc events list --limit 1 -o json | jq -r .[0].id)" -o json',
    ],
    changes: true,
    api: webhookEndpoints.replay,
    run: runConverted(async () => (await import('./replay.run.js')).runReplay, replayOptionsOf),
  }),
  defineVerb({
    name: 'sink create',
    summary: 'Make a sink: an endpoint served by the local service that keeps every request it receives',
    flags: [
      { flags: '--respond <status>', help: 'the HTTP status it answers (200-599; default 200)', json: 'integer' },
      { flags: '--fail-first <n>', help: 'answer 500 to the first N attempts of each event, then --respond', json: 'integer' },
      { flags: '--delay <duration>', help: `wait this long before answering (500ms, 2s; at most ${SINK_LIMITS.maxDelayMs / 1000}s)` },
      { flags: '--events <types>', help: 'event types, comma-separated; <family>.* patterns accepted (default: every event)' },
    ],
    details: `A sink is a webhook endpoint of the account whose URL is the local service's own /sinks/<id>: what
it receives never leaves the machine. It keeps each request (headers, body, whether the signature
verified with the endpoint's secret, the status it answered), the newest ${SINK_LIMITS.keptRequests} of them, so a
receiver's retries and timeouts can be watched without writing a server: --fail-first 2 shows the
retry schedule at work, a --delay of 10s or more is a timeout (the service waits 10 s for an answer).
Its endpoint's signing secret is printed this once. Local service only.`,
    examples: [
      'svc webhooks sink create',
      "svc webhooks sink create --fail-first 2 --events 'message.*'",
      'svc webhooks sink create --respond 503 --delay 2s -o json | jq -r .id',
    ],
    changes: true,
    api: sinkEndpoints.create,
    run: runConverted(async () => (await import('./sink-create.run.js')).runSinkCreate, sinkCreateOptionsOf),
  }),
  defineVerb({
    name: 'sink list',
    summary: 'List sinks: their URL, endpoint, how they answer and how many requests they received',
    details: 'Every sink at once (each is one of the account\'s endpoints: a bounded list).',
    examples: ['svc webhooks sink list', 'svc webhooks sink list -o ids'],
    api: { method: 'GET', path: sinkListPath },
    run: async () => (await import('./sink-list.run.js')).runSinkList,
  }),
  defineVerb({
    name: 'sink requests',
    summary: 'What a sink received, newest first; --follow prints each new request as it arrives',
    args: [SINK_ARG],
    flags: [
      { flags: '--follow', help: 'keep printing each request as the sink receives it, until Ctrl-C', terminal: true },
      { flags: '--limit <n>', help: `requests shown (1-100, default ${DEFAULT_SINK_REQUESTS_LIMIT}); with --follow, the newest shown first`, json: 'integer' },
    ],
    details: `One row per request: when, event type and id, attempt, the status the sink answered (empty when
the client went away before the answer) and whether the signature verified with the endpoint's
secret; -o json prints each request whole (headers and raw body too).

With --follow, the newest --limit are printed in the order they came, then each new one the moment
the sink keeps it: on a terminal a line with its time, event, attempt, answer and signature; piped,
tab-separated columns; -o ndjson (or -o json) one JSON object per line. Ctrl-C stops it with exit 0.
A deleted sink ends it with exit 4.`,
    examples: [
      'svc webhooks sink requests snk_S8Bq37q53Fx1ZziV3BwL',
      'svc webhooks sink requests snk_S8Bq37q53Fx1ZziV3BwL --follow',
      "svc webhooks sink requests snk_S8Bq37q53Fx1ZziV3BwL -o json | jq '.[0].headers'",
    ],
    api: sinkEndpoints.requests,
    run: runConverted(async () => (await import('./sink-requests.run.js')).runSinkRequests, sinkRequestsOptionsOf),
  }),
  {
    ...plainDelete({
      summary: 'Delete a sink with its endpoint, its delivery log and what it kept (asks first)',
      arg: SINK_ARG,
      endpoint: sinkEndpoints.delete,
      confirm: 'Delete sink {id}? Its endpoint, delivery log and kept requests go with it.',
      details: 'Without a terminal, pass --yes (otherwise exit 2, nothing deleted).',
      examples: ['svc webhooks sink delete snk_S8Bq37q53Fx1ZziV3BwL', 'svc webhooks sink delete snk_S8Bq37q53Fx1ZziV3BwL --yes'],
    }),
    name: 'sink delete',
  },
];
