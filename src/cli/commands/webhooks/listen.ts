import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { parseTypeList } from '../events/types-flag.js';

export interface ListenOptions {
  /** `--forward-to`, as given: `URL` or `TYPE_PATTERN=URL`, in order. */
  forwardTo: string[];
  events?: string[];
  headers: string[];
  secret?: string;
  printSecret: boolean;
  since?: string;
  cursorFile?: string;
  concurrency: number;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function listenCommand(parent: Command, ctx: CliContext, runF?: RunF<ListenOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./listen.run.js')).runListen(ctx, opts));
  return parent
    .command('listen')
    .description('Forward every event to a local URL, signed as the service signs webhooks, until Ctrl-C')
    .option('--forward-to <url>', 'handler URL, or TYPE_PATTERN=URL to route types (repeatable; first match wins)', collect)
    .option('--events <types>', 'only these types, comma-separated; <family>.* patterns accepted')
    .option('--headers <name:value>', 'an extra request header for the handler (repeatable)', collect)
    .option('--secret <whsec_…>', 'sign with this secret (default: a local secret kept per profile)')
    .option('--print-secret', 'print the signing secret and exit (for scripts)')
    .option('--since <now|cursor>', 'start here: now skips the backlog (default: the cursor file, else now)')
    .option('--cursor-file <file>', 'where the position is kept (default: one per profile and --forward-to)')
    .option('--concurrency <n>', 'events in flight at once (1: in order, one at a time)', '1')
    .addHelpText(
      'after',
      `
Follows the events feed (long-polling on the local service, polling every 2 s elsewhere) and POSTs
each event to its handler with the exact body the service delivers (the event fields plus id, type,
createdAt) and the same headers: Content-Type: application/json, X-Service-Signature (t=…,v1=…,
HMAC-SHA256 with the local secret; verify with verifyWebhookSignature from svc/webhooks),
Service-Event-Id, Service-Event-Type, Service-Delivery-Attempt, plus --headers.

The local secret (whsec_…) is generated once per profile and kept in listen-secrets.json in the
config dir (mode 0600), so it stays the same across restarts; --secret fixes it instead. A "ready"
line on stderr (terminal or not) says it is listening and shows the secret and the handlers.

One line per delivery attempt: time, type, event id, status (HTTP status or the connection error),
ms; with -v also the handler's response and the first lines of its body on stderr. -o ndjson (or
-o json) prints each attempt as a JSON object. Events go in order, one at a time (--concurrency N to
have up to N in flight). A non-2xx answer or a connection error is retried (1s, 2s, 4s … 30s) until it
succeeds: nothing is skipped, and the position only moves past an event once it was delivered. An
event no --forward-to pattern matches is skipped (a "skipped" line) and the position moves on.

The position is kept in a cursor file (default: listen-cursors/ in the config dir, one per profile
and set of --forward-to), so a restart picks up what arrived while it was down; --since now skips
the backlog. If the service stops answering it says so on stderr and keeps retrying.

Ctrl-C is the normal way to stop: the POST in flight is abandoned (it is sent again next time), the
position is saved, and it exits 0 (not 130).

Examples:
  $ svc webhooks listen --forward-to http://localhost:3000/webhooks
  $ svc webhooks listen --forward-to 'message.*=http://localhost:3000/sms' --forward-to http://localhost:3000/other
  $ svc webhooks listen --forward-to http://localhost:3000/hook --events message.received --since now
  $ SECRET=$(svc webhooks listen --print-secret)`,
    )
    .action(
      async (o: { forwardTo?: string[]; events?: string; headers?: string[]; secret?: string; printSecret?: boolean; since?: string; cursorFile?: string; concurrency: string }) => {
        const concurrency = Number(o.concurrency);
        if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 50) throw new UsageError('--concurrency must be a whole number from 1 to 50', '--concurrency');
        await run({
          forwardTo: o.forwardTo ?? [],
          events: parseTypeList(o.events, '--events'),
          headers: o.headers ?? [],
          secret: o.secret,
          printSecret: Boolean(o.printSecret),
          since: o.since,
          cursorFile: o.cursorFile,
          concurrency,
        });
      },
    );
}
