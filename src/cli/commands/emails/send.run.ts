import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { CancelledError, CliError, UsageError } from '../../errors.js';
import { readStdin } from '../../read-stdin.js';
import { checkFlags, namingFlags } from '../../schema-flags.js';
import { getEmail, sendEmail } from '../../../api/resources/emails.js';
import { ApiError, NetworkError } from '../../../api/client/errors.js';
import { SendEmailBody, type Email } from '../../../api/schemas/email.js';
import { EMAIL_LIMITS } from '../../../api/values/email.js';
import { printList, resolveFormat } from '../../../output/formatters.js';
import { startSpinner } from '../../../output/spinner.js';
import { EMAIL_COLUMNS, FINAL_RECIPIENT_STATUSES, RECIPIENT_COLUMNS } from './columns.js';
import { sendEmailOptionsOf, type SendEmailFlags, type SendEmailOptions } from './send-options.js';

/** The body field each flag fills: an error on a field names the flag (spec: Send email body). */
function flagsOf(opts: SendEmailOptions): Record<string, string> {
  return {
    from: '--from',
    to: '--to',
    cc: '--cc',
    bcc: '--bcc',
    subject: '--subject',
    text: opts.textFile !== undefined ? '--text-file' : '--text',
    html: '--html-file',
    tags: '--tag',
    metadata: '--metadata',
    externalRef: '--external-ref',
  };
}

/** Reads the bodies and checks what is cheap to check here (exit 2, nothing sent); the service stays the authority. */
export async function buildSendEmailBody(ctx: CliContext, opts: SendEmailOptions): Promise<SendEmailBody> {
  if (opts.text !== undefined && opts.textFile !== undefined) throw new UsageError('give --text or --text-file, not both', '--text-file');
  if (opts.text === undefined && opts.textFile === undefined && opts.htmlFile === undefined) throw new UsageError('a body is required: --text, --text-file or --html-file', '--text');
  if (opts.textFile === '-' && opts.htmlFile === '-') throw new UsageError('only one of --text-file and --html-file can read standard input (-)', '--html-file');
  // spec: Limits — 50 recipients in total across to, cc and bcc.
  const total = opts.to.length + opts.cc.length + opts.bcc.length;
  if (total === 0) throw new UsageError('at least one recipient is required: --to, --cc or --bcc', '--to');
  if (total > EMAIL_LIMITS.recipients) throw new UsageError(`--to: ${total} recipients in --to, --cc and --bcc; the limit is ${EMAIL_LIMITS.recipients}`, '--to');
  const text = opts.textFile !== undefined ? await readBodyFile(ctx, opts.textFile, '--text-file') : opts.text;
  const html = opts.htmlFile !== undefined ? await readBodyFile(ctx, opts.htmlFile, '--html-file') : undefined;
  // spec: Limits — each body at most 1 MiB (bytes, not characters).
  for (const [value, flag] of [[text, opts.textFile !== undefined ? '--text-file' : '--text'], [html, '--html-file']] as const) {
    const bytes = value === undefined ? 0 : Buffer.byteLength(value, 'utf8');
    if (bytes > EMAIL_LIMITS.bodyBytes) throw new UsageError(`${flag}: ${bytes} bytes; the limit is ${EMAIL_LIMITS.bodyBytes}`, flag);
  }
  const metadata = Object.fromEntries(opts.metadata);
  const pairs = Object.keys(metadata).length;
  if (pairs > EMAIL_LIMITS.metadataPairs) throw new UsageError(`--metadata: ${pairs} pairs; the limit is ${EMAIL_LIMITS.metadataPairs}`, '--metadata');
  const body: SendEmailBody = { from: opts.from, subject: opts.subject };
  if (opts.to.length) body.to = opts.to;
  if (opts.cc.length) body.cc = opts.cc;
  if (opts.bcc.length) body.bcc = opts.bcc;
  if (text !== undefined) body.text = text;
  if (html !== undefined) body.html = html;
  if (opts.tags.length) body.tags = opts.tags;
  if (pairs) body.metadata = metadata;
  if (opts.externalRef !== undefined) body.externalRef = opts.externalRef;
  checkFlags(SendEmailBody, body, flagsOf(opts));
  return body;
}

async function readBodyFile(ctx: CliContext, file: string, flag: string): Promise<string> {
  if (file === '-') return readStdin(ctx.io, flag);
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, flag);
  }
}

export async function runSendEmailVerb(ctx: CliContext, flags: SendEmailFlags): Promise<void> {
  await runSendEmail(ctx, sendEmailOptionsOf(flags));
}

export async function runSendEmail(ctx: CliContext, opts: SendEmailOptions): Promise<void> {
  const body = await buildSendEmailBody(ctx, opts);
  // cli.md Retries: sends always carry an Idempotency-Key. Generated here (not in the client) so a
  // failure that leaves the outcome unknown can tell the user how to retry safely.
  const idempotencyKey = opts.idempotencyKey ?? randomUUID();
  const client = await ctx.client();
  let sent: Awaited<ReturnType<typeof sendEmail>>;
  try {
    sent = await namingFlags(flagsOf(opts), () => sendEmail(client, body, { idempotencyKey }));
  } catch (err) {
    if (err instanceof NetworkError) notice(ctx, `the email may or may not have been sent; to retry without sending twice, add --idempotency-key ${idempotencyKey}`);
    if (err instanceof ApiError && err.code === 'conflict' && err.status === 409) err.hint = fromDomainHint(opts.from);
    throw err;
  }
  if (sent.replayed) notice(ctx, `--idempotency-key ${idempotencyKey} was used before: this is the original email; nothing new was sent`);
  if (!opts.wait) {
    await printOne(ctx, sent.email, EMAIL_COLUMNS);
    return;
  }
  const final = await waitForDeliveries(ctx, sent.email, opts.waitTimeoutSecs);
  await printOutcome(ctx, final.email);
  if (final.timedOut) {
    const open = final.email.recipients.filter((r) => r.status !== 'suppressed' && !FINAL_RECIPIENT_STATUSES.has(r.status)).map((r) => `${r.address} ${r.status}`);
    throw new CliError(`timed out after ${opts.waitTimeoutSecs}s waiting for email ${final.email.id} (${open.join(', ')}); on a manual clock mail moves only when it does (svc clock advance 5s); then svc emails get ${final.email.id}`);
  }
  if (final.email.status !== 'delivered') throw new CliError(`email ${final.email.id} ${final.email.status}: svc emails events ${final.email.id} says why`);
}

/** A 409 on send is a domain that is not verified (contract §8): say how to get it verified. */
function fromDomainHint(from: string): string {
  const domain = /@([^@>\s]+)>?\s*$/.exec(from)?.[1];
  return domain ? `is ${domain} verified? svc domains verify ${domain} --wait (svc trigger dns.publish --domain ${domain} on the local service)` : 'send from an address on a verified domain (svc domains list --status verified)';
}

/** On a table, one row per recipient (the outcome); any other format, the whole email. */
async function printOutcome(ctx: CliContext, email: Email): Promise<void> {
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'resource' });
  if (format !== 'table') return printOne(ctx, email, EMAIL_COLUMNS);
  await printList(ctx.io, email.recipients, { format: 'table', columns: RECIPIENT_COLUMNS, now: ctx.serviceNow() });
}

/** How often --wait reads the email (wall clock). */
const POLL_INTERVAL_MS = 250;

/** contract §8: done when every recipient that was not suppressed has a final delivery. */
const settled = (email: Email): boolean => email.recipients.every((r) => r.status === 'suppressed' || FINAL_RECIPIENT_STATUSES.has(r.status));

/** Polls GET /v1/emails/{id} until settled or the timeout (wall clock). Ctrl-C stops waiting; the email is sent either way. */
export async function waitForDeliveries(ctx: CliContext, first: Email, timeoutSecs: number): Promise<{ email: Email; timedOut: boolean }> {
  const client = await ctx.client();
  const deadline = ctx.now().getTime() + timeoutSecs * 1000;
  const spinner = startSpinner(ctx.io, `email ${first.id}: ${first.status}`);
  const stop = new AbortController();
  void ctx.environment.waitForInterrupt?.().then(() => stop.abort());
  let email = first;
  try {
    for (;;) {
      email = await getEmail(client, first.id);
      spinner.update(`email ${email.id}: ${email.status}`);
      if (settled(email)) break;
      const left = deadline - ctx.now().getTime();
      if (left <= 0) {
        await spinner.fail(`email ${email.id}: still ${email.status} after ${timeoutSecs}s`);
        return { email, timedOut: true };
      }
      try {
        await sleep(Math.min(POLL_INTERVAL_MS, left), undefined, { signal: stop.signal });
      } catch {
        await spinner.stop();
        throw new CancelledError(`stopped waiting; email ${email.id} was sent (svc emails get ${email.id})`);
      }
    }
  } catch (err) {
    await spinner.stop();
    throw err;
  }
  if (email.status === 'delivered') await spinner.succeed(`email ${email.id}: delivered`);
  else await spinner.fail(`email ${email.id}: ${email.status}`);
  return { email, timedOut: false };
}
