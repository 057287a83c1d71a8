import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { notice, printOne } from '../../command-kit.js';
import { CliError, UsageError } from '../../errors.js';
import { parseDuration } from '../../duration.js';
import { FINAL_STATUSES, MESSAGE_COLUMNS } from './columns.js';
import type { Message, SendMessageBody } from '../../../api/schemas/messages.js';

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

export function sendCommand(parent: Command, ctx: CliContext): Command {
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
      runSend(ctx, {
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

/** Reads the body from its flag or file, and checks everything the service would refuse (exit 2, nothing sent). */
export async function buildSendBody(ctx: CliContext, opts: SendOptions): Promise<SendMessageBody> {
  const { requireE164 } = await import('../../phone-numbers.js');
  const { MESSAGE_BODY_MAX, MEDIA_URLS_MAX } = await import('../../../api/schemas/messages.js');
  const to = requireE164(opts.to, '--to');
  const from = requireE164(opts.from, '--from');
  if (opts.body !== undefined && opts.bodyFile !== undefined) throw new UsageError('give --body or --body-file, not both', '--body-file');
  let body = opts.body;
  let bodyFlag = '--body';
  if (opts.bodyFile !== undefined) {
    bodyFlag = '--body-file';
    body = await readBodyFile(ctx, opts.bodyFile);
  }
  // spec: Limits — body 1600 characters (counted as the service counts them: UTF-16 code units).
  if (body !== undefined && body.length > MESSAGE_BODY_MAX) {
    throw new UsageError(`${bodyFlag}: the body is ${body.length} characters; the limit is ${MESSAGE_BODY_MAX}`, bodyFlag);
  }
  // spec: Limits — 10 media URLs, each fetched by the carrier (http/https).
  if (opts.media.length > MEDIA_URLS_MAX) throw new UsageError(`--media: ${opts.media.length} media URLs; the limit is ${MEDIA_URLS_MAX}`, '--media');
  for (const url of opts.media) {
    if (!isHttpUrl(url)) throw new UsageError(`--media: "${url}" is not an http(s) URL`, '--media');
  }
  // spec: Errors — a send with neither body nor media is a validation_error; an empty body counts as none.
  if (!body && opts.media.length === 0) throw new UsageError('nothing to send: give --body (or --body-file) or --media', '--body');
  const send: SendMessageBody = { to, from };
  if (body) send.body = body;
  if (opts.media.length) send.mediaUrls = opts.media;
  return send;
}

async function readBodyFile(ctx: CliContext, file: string): Promise<string> {
  if (file === '-') {
    const { readStdin } = await import('../../read-stdin.js');
    return stripFinalNewline(await readStdin(ctx.io, '--body-file'));
  }
  const { readFile } = await import('node:fs/promises');
  try {
    return stripFinalNewline(await readFile(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--body-file: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, '--body-file');
  }
}

// `echo hi | svc messages send --body-file -` means "hi", not "hi\n".
const stripFinalNewline = (text: string): string => text.replace(/\r?\n$/, '');

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

export async function runSend(ctx: CliContext, opts: SendOptions): Promise<void> {
  if (opts.waitTimeoutSecs < 1) throw new UsageError('--wait-timeout must be at least 1s', '--wait-timeout');
  const body = await buildSendBody(ctx, opts);
  const { randomUUID } = await import('node:crypto');
  // cli.md Retries: sends always carry an Idempotency-Key. Generated here (not in the client) so a
  // failure that leaves the outcome unknown can tell the user how to retry safely.
  const idempotencyKey = opts.idempotencyKey ?? randomUUID();
  const client = await ctx.client();
  const { sendMessage } = await import('../../../api/resources/messages.js');
  let sent: Awaited<ReturnType<typeof sendMessage>>;
  try {
    sent = await sendMessage(client, body, { idempotencyKey });
  } catch (err) {
    const { NetworkError } = await import('../../../api/client/errors.js');
    if (err instanceof NetworkError) notice(ctx, `the message may or may not have been sent; to retry without sending twice, add --idempotency-key ${idempotencyKey}`);
    throw err;
  }
  if (sent.replayed) notice(ctx, `--idempotency-key ${idempotencyKey} was used before: this is the original message; nothing new was sent`);
  if (!opts.wait) {
    await printOne(ctx, sent.message, MESSAGE_COLUMNS);
    return;
  }
  const final = await waitForFinalStatus(ctx, sent.message, opts.waitTimeoutSecs);
  await printOne(ctx, final.message, MESSAGE_COLUMNS);
  if (final.timedOut) throw new CliError(await timeoutMessage(ctx, final.message, opts.waitTimeoutSecs));
  if (final.message.status === 'failed' || final.message.status === 'undelivered') {
    const why = final.message.reason ?? 'no reason given by the carrier';
    throw new CliError(`message ${final.message.id} failed: ${why}${final.message.status === 'undelivered' ? ' (undelivered)' : ''}`);
  }
}

/** How often --wait asks; a local live send takes about 800 ms end to end. */
const POLL_INTERVAL_MS = 250;

/**
 * Polls GET /v1/messages/{id} until a final status or the timeout (wall-clock time: the user's
 * patience, not the service's clock). Ctrl-C stops waiting; the message is sent either way.
 */
export async function waitForFinalStatus(ctx: CliContext, first: Message, timeoutSecs: number): Promise<{ message: Message; timedOut: boolean }> {
  const { startSpinner } = await import('../../../output/spinner.js');
  const { getMessage } = await import('../../../api/resources/messages.js');
  const { setTimeout: sleep } = await import('node:timers/promises');
  const client = await ctx.client();
  const deadline = ctx.now().getTime() + timeoutSecs * 1000;
  const spinner = startSpinner(ctx.io, `message ${first.id}: ${first.status}`);
  const stop = new AbortController();
  void ctx.environment.waitForInterrupt?.().then(() => stop.abort());
  let message = first;
  try {
    for (;;) {
      message = await getMessage(client, first.id);
      spinner.update(`message ${message.id}: ${message.status}`);
      if (FINAL_STATUSES.has(message.status)) break;
      const left = deadline - ctx.now().getTime();
      if (left <= 0) {
        await spinner.fail(`message ${message.id}: still ${message.status} after ${timeoutSecs}s`);
        return { message, timedOut: true };
      }
      try {
        await sleep(Math.min(POLL_INTERVAL_MS, left), undefined, { signal: stop.signal });
      } catch {
        const { CancelledError } = await import('../../errors.js');
        await spinner.stop();
        throw new CancelledError(`stopped waiting; message ${message.id} was sent (svc messages get ${message.id})`);
      }
    }
  } catch (err) {
    await spinner.stop();
    throw err;
  }
  if (message.status === 'delivered') await spinner.succeed(`message ${message.id}: delivered`);
  else await spinner.fail(`message ${message.id}: ${message.status}`);
  return { message, timedOut: false };
}

async function timeoutMessage(ctx: CliContext, message: Message, timeoutSecs: number): Promise<string> {
  let hint = 'check later with `svc messages get ' + message.id + '`, or wait longer with --wait-timeout';
  try {
    // Only the local service has a sandbox clock; elsewhere this fails and the generic hint stays.
    const { getClock } = await import('../../../api/resources/sandbox.js');
    const clock = await getClock(await ctx.client());
    if (clock.mode === 'manual') {
      hint = 'the service clock is manual, so messages only move when it is advanced (`svc clock advance 1s`); then `svc messages get ' + message.id + '`';
    }
  } catch {
    // not the local service
  }
  return `timed out after ${timeoutSecs}s waiting for message ${message.id} (still ${message.status}): ${hint}`;
}
