import { defineVerb } from '../../verb.js';
import { EVENTS_FEED_PATH, eventEndpoints } from '../../../api/resources/events.js';
import { FEED_ORDERS } from '../../../api/values/events.js';

// svc events: spec Events feed; contract §10.
const TYPES_FLAG = { flags: '--types <types>', help: 'only these types, comma-separated; <family>.* patterns accepted (message.*)' } as const;

export const verbs = [
  defineVerb({
    name: 'list',
    summary: 'List events from the durable feed, newest first like every list (--order asc for oldest first)',
    flags: [
      TYPES_FLAG,
      { flags: '--after <cursor>', help: 'events after this cursor (now: none, just the head cursor)' },
      { flags: '--before <cursor>', help: 'events before this cursor (paging back with --order desc)' },
      { flags: '--order <order>', help: 'desc (newest first; the default) or asc (oldest first; the default with --after)', choices: FEED_ORDERS },
      { flags: '--limit <n>', help: 'events in one page (1-100, default 20)', json: 'integer' },
      { flags: '--all', help: 'follow every page (constant memory)' },
    ],
    details: `Each event is what a webhook receives (its fields plus id, type, createdAt) plus eventId. After a
page that has more, the next cursor is printed on stderr: pass it as --after (asc) or --before (desc).
The feed pages with its own words, --after and --before (a position in time, either way), where every
other list takes --cursor. Columns: createdAt, type, id and a short summary (json, yaml, ndjson: the
whole event).`,
    examples: [
      'svc events list',
      'svc events list --types message.received,message.status --limit 50',
      'svc events list --order asc --limit 10 -o json',
      "svc events list --types 'email.*' --all -o ndjson",
    ],
    api: { method: 'GET', path: EVENTS_FEED_PATH },
    run: async () => (await import('./list.run.js')).runListEvents,
  }),
  defineVerb({
    name: 'follow',
    summary: 'Print each event as it arrives, until Ctrl-C',
    flags: [
      TYPES_FLAG,
      { flags: '--since <now|cursor>', help: 'start here: now (only new events) or a cursor (default: the cursor file, else now)' },
      { flags: '--cursor-file <file>', help: 'resume from the position saved in FILE, and save it after each event printed', local: {} },
    ],
    details: `One line per event: on a terminal its time, type, id and a short summary; piped, the same as
tab-separated columns (ISO time); -o ndjson (or -o json) prints each event as one JSON object per
line, exactly as the feed has it (the webhook body plus eventId).

On the local service it long-polls (an event prints the moment it is created); elsewhere, or if the
service does not support long-polling, it asks every 2 s. With --cursor-file the position is saved
(atomically, mode 0600) after each event printed: stop it and start it again with the same file and
nothing is lost and nothing repeats. --since overrides the file's position. If the service stops
answering it says so once on stderr and keeps retrying with backoff.

Ctrl-C is the normal way to stop: it stops cleanly and exits 0 (not 130).`,
    examples: [
      'svc events follow',
      "svc events follow --types 'message.*' -o ndjson | jq .",
      'svc events follow --cursor-file ~/.cache/svc-events.cursor -o ndjson >> events.ndjson',
      'svc events follow --since now --types webhook_endpoint.disabled',
    ],
    // It never ends on its own: not an MCP tool.
    terminal: true,
    api: { method: 'GET', path: EVENTS_FEED_PATH },
    run: async () => (await import('./follow.run.js')).runFollowEvents,
  }),
  defineVerb({
    name: 'resend',
    summary: 'Deliver past events again: a new delivery per endpoint, freshly signed, same event id',
    args: [{ name: 'event-id', help: 'event id (evt_…), from svc events list', variadic: true }],
    flags: [{ flags: '--endpoint <id>', help: 'only to this endpoint (we_…), whatever its filter', complete: 'webhooks' }],
    details: `Each event gets a new delivery (its own id, in the endpoint's delivery log) to every enabled endpoint
subscribed to its type, or to --endpoint only; the worker sends it at once with the event's own id
and body, signed with the endpoint's current secret, and retries it on the usual schedule. Events go
in the order given; the first refused stops it (the ones before it were resent). Prints the new
deliveries. A test key resends only test events (a live one: exit 3, forbidden) and signs only with
endpoints a test key created.`,
    examples: ['svc events resend evt_S8Bq37q53Fx1ZziV3BwL', 'svc events resend evt_S8Bq37q53Fx1ZziV3BwL evt_oJ6tB79nWm5cpXVXjJGh --endpoint we_S8Bq37q53Fx1ZziV3BwL -o json'],
    changes: true,
    api: eventEndpoints.resend,
    run: async () => (await import('./resend.run.js')).runResend,
  }),
];

