import { defineVerb } from '../../verb.js';
import { plainGet } from '../../plain-verbs.js';
import { LIST_FLAGS } from '../../list-flags.js';
import { messageEndpoints, messageList } from '../../../api/resources/messages.js';
import { MESSAGE_DIRECTIONS, MESSAGE_STATUSES } from '../../../api/values/messages.js';
import { MESSAGE_COLUMNS } from './columns.js';
import { DEFAULT_SEND_TIMEOUT } from './send-options.js';

// svc messages: spec Messages; contract §4.
export const verbs = [
  defineVerb({
    name: 'send',
    summary: 'Send an SMS, or an MMS with --media',
    flags: [
      { flags: '--to <e164>', help: 'destination, E.164 (+14155550123)', required: true },
      { flags: '--from <e164>', help: 'one of your numbers, or the test sender +15005550006', required: true, complete: 'numbers' },
      { flags: '--body <text>', help: 'message text, up to 1600 characters' },
      { flags: '--body-file <file>', help: 'read the text from FILE (- for standard input)', local: {} },
      { flags: '--media <url>', help: 'attach a media URL (http/https); repeat for up to 10', repeatable: true },
      { flags: '--idempotency-key <key>', help: 'fix the Idempotency-Key: sending again with it never sends twice (default: a fresh key)' },
      { flags: '--wait', help: 'wait until the message is delivered, failed or undelivered' },
      { flags: '--timeout <duration>', help: 'give up waiting after this long (30s, 2m)', default: DEFAULT_SEND_TIMEOUT, aliases: ['--wait-timeout'] },
    ],
    details: `Body or media is required. Checked before anything is sent (exit 2, naming the flag): E.164 numbers,
body length, number of media URLs. Every send carries an Idempotency-Key, the same on every retry, so
a retry never sends twice; pass --idempotency-key to make a re-run of the command safe as well.

With --wait the command polls the message until its final status (a spinner on a terminal):
  delivered           prints the message, exit 0
  failed/undelivered  prints the message, then "message <id> failed: <reason>" on stderr, exit 1
  still moving after --timeout (--wait-timeout, its old name, still works): prints the message as
  last seen, exit 1. On a local service started with --clock manual, messages only move when the
  clock does (svc clock advance 1s).`,
    examples: [
      'svc messages send --to +14155550123 --from +14155550100 --body "Your table is ready"',
      'svc messages send --to +14155550123 --from +15005550006 --body hi --wait',
      'echo "long text" | svc messages send --to +14155550123 --from +18005550100 --body-file -',
      'svc messages send --to +14155550123 --from +14155550100 --media https://example.com/menu.jpg',
      'svc messages send --to +14155550123 --from +14155550100 --body hi --idempotency-key order-1234-ready',
    ],
    changes: true,
    api: messageEndpoints.send,
    run: async () => (await import('./send.run.js')).runSendVerb,
  }),
  defineVerb({
    name: 'list',
    summary: 'List messages, newest first',
    flags: [
      ...LIST_FLAGS,
      { flags: '--direction <direction>', help: 'outbound or inbound', choices: MESSAGE_DIRECTIONS },
      { flags: '--from <e164>', help: 'sent from this number' },
      { flags: '--to <e164>', help: 'sent to this number' },
      { flags: '--status <status>', help: 'only messages in this status', choices: MESSAGE_STATUSES },
    ],
    details: 'Columns: id, direction, from, to, status, segments, createdAt, body (piped: tab-separated, ISO times).',
    examples: ['svc messages list', 'svc messages list --status failed --limit 50', 'svc messages list --direction inbound --to +14155550100 --all -o ndjson'],
    api: { method: 'GET', path: messageList.path },
    run: async () => (await import('./list.run.js')).runListMessages,
  }),
  plainGet({
    summary: 'Show one message: status, carrier reason, segments, media',
    arg: { name: 'id', help: 'message id (msg_…)', complete: 'messages' },
    endpoint: messageEndpoints.get,
    columns: MESSAGE_COLUMNS,
    examples: ['svc messages get msg_lzTOcfKdfTmly4HUFYrt', 'svc messages get msg_lzTOcfKdfTmly4HUFYrt -o json | jq -r .status'],
  }),
];
