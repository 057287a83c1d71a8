import { defineVerb } from '../../verb.js';
import { plainList } from '../../plain-verbs.js';
import { emailEndpoints, emailList } from '../../../api/resources/emails.js';
import { MAILBOX_PATH } from '../../../api/resources/sandbox-email.js';
import { EMAIL_STATUSES } from '../../../api/values/email.js';
import { EMAIL_LIST_COLUMNS } from './columns.js';
import { DEFAULT_SEND_EMAIL_TIMEOUT } from './send-options.js';
import { DEFAULT_WAIT_SINCE, DEFAULT_WAIT_TIMEOUT } from './wait-options.js';

// svc emails: spec Email resource, Send email body; contract §8.
const EMAIL_ARG = { name: 'email', help: 'email id (eml_…)', complete: 'emails' } as const;

export const verbs = [
  defineVerb({
    name: 'send',
    summary: 'Send an email from a verified domain',
    flags: [
      { flags: '--from <addr>', help: 'an address on a verified domain, or "Name <address>"', required: true },
      { flags: '--to <addr>', help: 'a recipient; repeat, or separate with commas', repeatable: true },
      { flags: '--cc <addr>', help: 'a copy recipient; repeat, or separate with commas', repeatable: true },
      { flags: '--bcc <addr>', help: 'a blind copy recipient; repeat, or separate with commas', repeatable: true },
      { flags: '--subject <text>', help: 'the subject line', required: true },
      { flags: '--text <text>', help: 'the plain-text body' },
      { flags: '--text-file <file>', help: 'read the plain-text body from FILE (- for standard input)', local: {} },
      { flags: '--html-file <file>', help: 'read the HTML body from FILE (- for standard input)', local: { content: 'html' } },
      { flags: '--tag <tag>', help: 'a tag carried on every event; repeat for up to 10', repeatable: true },
      { flags: '--metadata <key=value>', help: 'a metadata pair carried on every event; repeat for up to 20', repeatable: true },
      { flags: '--external-ref <ref>', help: 'your own reference, carried on every event' },
      { flags: '--idempotency-key <key>', help: 'fix the Idempotency-Key: sending again with it never sends twice (default: a fresh key)' },
      { flags: '--wait', help: 'wait until every recipient has a final delivery, then print each outcome' },
      { flags: '--timeout <duration>', help: 'with --wait, give up after this long (30s, 2m)', default: DEFAULT_SEND_EMAIL_TIMEOUT, aliases: ['--wait-timeout'] },
    ],
    details: `At least one recipient (--to, --cc or --bcc, 50 in all) and a body (--text, --text-file or
--html-file; a text and an HTML body may both be given). Only one file may be - (standard input).
Checked before anything is sent (exit 2, naming the flag): the recipients' count, the body size
(1 MiB each), tags and metadata; the service checks the rest (a domain that is not verified: exit 5).
Every send carries an Idempotency-Key, the same on every retry; pass --idempotency-key to make a
re-run of the command safe as well.

With --wait the command reads the email until every recipient that was not suppressed has a final
delivery (delivered, bounced or failed), then prints one row per recipient; exit 1 when any bounced
or failed, or after --timeout (--wait-timeout, its old name, still works). On a local service with
a manual clock, mail moves only when the clock does (svc clock advance 5s).`,
    examples: [
      'svc emails send --from hello@send.example.com --to ada@example.org --subject "Welcome" --text "Hi Ada"',
      'svc emails send --from "Acme <hello@send.example.com>" --to a@example.org,b@example.org --subject Hi --html-file welcome.html --text-file welcome.txt',
      'echo "Your code is 1234" | svc emails send --from hello@send.example.com --to ada@example.org --subject Code --text-file -',
      'svc emails send --from hello@send.example.com --to ada@example.org --subject Hi --text hi --tag welcome --metadata user=42 --wait',
      'svc emails send --from hello@send.example.com --to bounce@simulator.test --subject Test --text hi   # local: a hard bounce',
    ],
    changes: true,
    api: emailEndpoints.send,
    run: async () => (await import('./send.run.js')).runSendEmailVerb,
  }),
  defineVerb({
    name: 'get',
    summary: 'Show an email and the delivery of each recipient',
    args: [EMAIL_ARG],
    examples: ['svc emails get eml_k0Pw1UTo4AoEs8XfvbDy', 'svc emails get eml_k0Pw1UTo4AoEs8XfvbDy -o json'],
    api: emailEndpoints.get,
    run: async () => (await import('./emails.run.js')).runGetEmail,
  }),
  defineVerb({
    name: 'events',
    summary: "An email's timeline: each recipient's sends, deliveries, bounces, opens, clicks, oldest first",
    args: [EMAIL_ARG],
    details: `One row per entry: when, type, recipient, kind, status and detail (the bounce, the clicked url or the
unsubscribe method). -o json, yaml and ndjson print the entries as the API gives them.`,
    examples: ['svc emails events eml_k0Pw1UTo4AoEs8XfvbDy', 'svc emails events eml_k0Pw1UTo4AoEs8XfvbDy -o json'],
    api: emailEndpoints.timeline,
    run: async () => (await import('./emails.run.js')).runEmailEvents,
  }),
  plainList({
    summary: 'List the emails you sent, newest first',
    endpoint: emailList,
    noun: 'emails',
    columns: EMAIL_LIST_COLUMNS,
    filters: [{ flags: '--status <status>', help: EMAIL_STATUSES.join(', '), choices: EMAIL_STATUSES }],
    examples: ['svc emails list', 'svc emails list --status bounced --all'],
  }),
  defineVerb({
    name: 'wait',
    summary: "Block until the local service's mail sandbox has delivered a matching message (for tests)",
    flags: [
      { flags: '--to <addr>', help: 'the recipient address', required: true },
      { flags: '--subject-match <regex>', help: 'only a message whose subject matches (a regular expression in RE2 syntax: no lookarounds or backreferences)' },
      { flags: '--timeout <duration>', help: 'give up after this long (wall clock: 30s, 2m)', default: DEFAULT_WAIT_TIMEOUT },
      { flags: '--since <duration>', help: 'count messages delivered this long ago or later, in service time; all, or now for new ones only', default: DEFAULT_WAIT_SINCE },
    ],
    details: `A test usually sends first and waits after, so a message already delivered counts: by default any
message to --to delivered in the last minute of the service's clock (--since 1m). --since all counts
every message the sandbox kept; --since now only those delivered from the service time the command
starts at. The oldest match is printed (from, to, subject, text; -o json the whole message). Local service only:
the mail sandbox holds what live keys send (a test key sends nothing).

Exit status: 0 with a match; 1 when --timeout passes first (as messages send --wait), 2 for a bad
--subject-match.`,
    examples: ['svc emails wait --to ada@example.org', 'svc emails wait --to ada@example.org --subject-match "^Your code" --timeout 10s -o json', 'svc emails wait --to ada@example.org --since now'],
    api: { method: 'GET', path: MAILBOX_PATH },
    run: async () => (await import('./wait.run.js')).runWaitEmailVerb,
  }),
];
