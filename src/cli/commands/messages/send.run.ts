import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { CancelledError, CliError, UsageError } from '../../errors.js';
import { requireE164 } from '../../phone-numbers.js';
import { readStdin } from '../../read-stdin.js';
import { checkFlags } from '../../schema-flags.js';
import { getMessage, sendMessage } from '../../../api/resources/messages.js';
import { getClock } from '../../../api/resources/sandbox.js';
import { ApiError, NetworkError } from '../../../api/client/errors.js';
import type { Message, SendMessageBody } from '../../../api/schemas/messages.js';
import { FINAL_MESSAGE_STATUSES } from '../../../api/values/messages.js';
import { OPTED_OUT_REASON } from '../../../api/values/opt-outs.js';
import { startSpinner } from '../../../output/spinner.js';
import { MESSAGE_COLUMNS } from './columns.js';
import { sendOptionsOf, type SendFlags, type SendOptions } from './send-options.js';

export interface BuiltSend {
  body: SendMessageBody;
  /**
   * Checks the body with the API's own schema (the service's rules: length, media, body or media)
   * and throws a usage error naming the flag (exit 2) when it breaks one. It loads zod, which costs
   * more than starting node (140-370 ms on the bench machine, `svc messages send` was 3.8x bare
   * node), so a send that goes through never calls it: the service judges the body with the same
   * schema, and only when a send fails (or under --dry-run, which asks no one) is the body checked
   * here, so an invalid body is still reported by its flag, in the same words, with nothing sent.
   */
  explain(): Promise<void>;
}

/** Reads the body from its flag or file; the phone numbers are checked here (zod-free, exit 2). */
export async function buildSendBody(ctx: CliContext, opts: SendOptions): Promise<BuiltSend> {
  const to = requireE164(opts.to, '--to');
  const from = requireE164(opts.from, '--from');
  if (opts.body !== undefined && opts.bodyFile !== undefined) throw new UsageError('give --body or --body-file, not both', '--body-file');
  let body = opts.body;
  let bodyFlag = '--body';
  if (opts.bodyFile !== undefined) {
    bodyFlag = '--body-file';
    body = await readBodyFile(ctx, opts.bodyFile);
  }
  const send: SendMessageBody = { to, from };
  if (body) send.body = body;
  if (opts.media.length) send.mediaUrls = opts.media;
  const explain = async (): Promise<void> => {
    // spec: Limits and Errors — body length, media count and URLs, body or media: the API's own rules.
    const { SendMessageBody } = await import('../../../api/schemas/messages.js');
    checkFlags(SendMessageBody, { ...send, body }, { to: '--to', from: '--from', body: bodyFlag, mediaUrls: '--media' });
  };
  return { body: send, explain };
}

async function readBodyFile(ctx: CliContext, file: string): Promise<string> {
  if (file === '-') {
    return stripFinalNewline(await readStdin(ctx.io, '--body-file'));
  }
  try {
    return stripFinalNewline(await readFile(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--body-file: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, '--body-file');
  }
}

// `echo hi | svc messages send --body-file -` means "hi", not "hi\n".
const stripFinalNewline = (text: string): string => text.replace(/\r?\n$/, '');

export async function runSend(ctx: CliContext, opts: SendOptions): Promise<void> {
  if (opts.waitTimeoutSecs < 1) throw new UsageError('--timeout must be at least 1s', '--timeout');
  const { body, explain } = await buildSendBody(ctx, opts);
  // cli.md Retries: sends always carry an Idempotency-Key. Generated here (not in the client) so a
  // failure that leaves the outcome unknown can tell the user how to retry safely.
  const idempotencyKey = opts.idempotencyKey ?? randomUUID();
  let sent: Awaited<ReturnType<typeof sendMessage>>;
  try {
    sent = await sendMessage(await ctx.client(), body, { idempotencyKey });
  } catch (err) {
    // Whatever went wrong (the service refused the body, could not be reached, --dry-run, no key),
    // a body that breaks the API's rules is what the user hears about first, as before the send.
    await explain();
    if (err instanceof NetworkError) notice(ctx, `the message may or may not have been sent; to retry without sending twice, add --idempotency-key ${idempotencyKey}`);
    if (err instanceof ApiError && needsCampaign(err)) err.hint = await campaignHint(ctx, body.from);
    if (err instanceof ApiError) err.hint ??= optedOutHint(err, body);
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
      if (FINAL_MESSAGE_STATUSES.has(message.status)) break;
      const left = deadline - ctx.now().getTime();
      if (left <= 0) {
        await spinner.fail(`message ${message.id}: still ${message.status} after ${timeoutSecs}s`);
        return { message, timedOut: true };
      }
      try {
        await sleep(Math.min(POLL_INTERVAL_MS, left), undefined, { signal: stop.signal });
      } catch {
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
  let hint = 'check later with `svc messages get ' + message.id + '`, or wait longer with --timeout';
  try {
    // Only the local service has a sandbox clock; elsewhere this fails and the generic hint stays.
    const clock = await getClock(await ctx.client());
    if (clock.mode === 'manual') {
      hint = 'the service clock is manual, so messages only move when it is advanced (`svc clock advance 1s`); then `svc messages get ' + message.id + '`';
    }
  } catch {
    // not the local service
  }
  return `timed out after ${timeoutSecs}s waiting for message ${message.id} (still ${message.status}): ${hint}`;
}

/** spec: Send body — a live send from a local number without an approved campaign (409 on `from`). */
const needsCampaign = (err: ApiError): boolean =>
  err.code === 'conflict' && Array.isArray(err.details) && err.details.some((d: { path?: unknown[] }) => Array.isArray(d?.path) && d.path.join('.') === 'body.from');

/**
 * contract §4: a consumer who opted out (422 channel_unsupported, `details.reason: opted_out`): who,
 * of which number, when and with which word, and the verb that lists them (exit 8 stays).
 */
function optedOutHint(err: ApiError, body: SendMessageBody): string | undefined {
  const d = err.details as { reason?: unknown; keyword?: unknown; at?: unknown } | undefined;
  if (err.code !== 'channel_unsupported' || !d || d.reason !== OPTED_OUT_REASON) return undefined;
  return `${body.to} opted out of ${body.from} at ${String(d.at)} with ${String(d.keyword)}; \`svc opt-outs list --from ${body.from}\` lists everyone who did`;
}

/** The CLI steps that get a just-bought number sending (without them the first real step is a dead end). */
async function campaignHint(ctx: CliContext, from: string): Promise<string> {
  const local = (await ctx.settings()).isLocal;
  const testKey = local
    ? '  svc --profile local-test messages send …   (the same flags: the local test key needs no campaign and bills nothing)'
    : '  SVC_API_KEY=sk_test_… svc messages send …   (a test key needs no campaign and bills nothing)';
  return ['to send now:', testKey, 'or attach an approved 10DLC campaign to the number:', `  svc numbers assign ${from} --campaign <campaign-id>`].join('\n');
}

/** The verb: flags as given, checked and turned into a send. */
export async function runSendVerb(ctx: CliContext, flags: SendFlags): Promise<void> {
  await runSend(ctx, sendOptionsOf(flags));
}
