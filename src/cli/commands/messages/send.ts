import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { parseDuration } from '../../duration.js';

export interface SendOptions {
  to: string;
  from: string;
  /** `--body TEXT`. */
  body?: string;
  /** `--body-file FILE`, `-` for stdin. */
  bodyFile?: string;
  media: string[];
  idempotencyKey?: string;
  wait: boolean;
  /** `--wait-timeout`, in seconds. */
  waitTimeoutSecs: number;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function sendCommand(parent: Command, ctx: CliContext, runF?: RunF<SendOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./send.run.js')).runSend(ctx, opts));
  return parent
    .command('send')
    .description('Send an SMS, or an MMS with --media')
    .requiredOption('--to <e164>', 'destination, E.164 (+14155550123)')
    .requiredOption('--from <e164>', 'one of your numbers, or the test sender +15005550006')
    .option('--body <text>', 'message text, up to 1600 characters')
    .option('--body-file <file>', 'read the text from FILE (- for standard input)')
    .option('--media <url>', 'attach a media URL (http/https); repeat for up to 10', collect)
    .option('--idempotency-key <key>', 'fix the Idempotency-Key: sending again with it never sends twice (default: a fresh key)')
    .option('--wait', 'wait until the message is delivered, failed or undelivered')
    .option('--wait-timeout <duration>', 'give up waiting after this long (30s, 2m)', '60s')
    .addHelpText(
      'after',
      `
Body or media is required. Checked before anything is sent (exit 2, naming the flag): E.164 numbers,
body length, number of media URLs. Every send carries an Idempotency-Key, the same on every retry, so
a retry never sends twice; pass --idempotency-key to make a re-run of the command safe as well.

With --wait the command polls the message until its final status (a spinner on a terminal):
  delivered           prints the message, exit 0
  failed/undelivered  prints the message, then "message <id> failed: <reason>" on stderr, exit 1
  still moving after --wait-timeout: prints the message as last seen, exit 1. On a local service
  started with --clock manual, messages only move when the clock does (svc clock advance 1s).

Examples:
  $ svc messages send --to +14155550123 --from +14155550100 --body "Your table is ready"
  $ svc messages send --to +14155550123 --from +15005550006 --body hi --wait
  $ echo "long text" | svc messages send --to +14155550123 --from +18005550100 --body-file -
  $ svc messages send --to +14155550123 --from +14155550100 --media https://example.com/menu.jpg
  $ svc messages send --to +14155550123 --from +14155550100 --body hi --idempotency-key order-1234-ready`,
    )
    .action(async (o: { to: string; from: string; body?: string; bodyFile?: string; media?: string[]; idempotencyKey?: string; wait?: boolean; waitTimeout: string }) =>
      run({
        to: o.to,
        from: o.from,
        body: o.body,
        bodyFile: o.bodyFile,
        media: o.media ?? [],
        idempotencyKey: o.idempotencyKey,
        wait: Boolean(o.wait),
        waitTimeoutSecs: waitTimeout(o.waitTimeout),
      }),
    );
}

function waitTimeout(text: string): number {
  try {
    return parseDuration(text, '--wait-timeout');
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`--wait-timeout: ${err.message}`, '--wait-timeout');
    throw err;
  }
}
