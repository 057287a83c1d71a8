import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { CancelledError, CliError, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { keyOriginHint } from '../../key-mode-hint.js';
import { keyModeOf } from '../../../api/values/keys.js';
import { readMailbox } from '../../../api/resources/sandbox-email.js';
import { compileUserPattern, UserPatternError, type UserPattern } from '../../../api/values/user-pattern.js';
import { MAILBOX_COLUMNS } from './columns.js';
import { waitEmailOptionsOf, type WaitEmailFlags, type WaitEmailOptions } from './wait-options.js';

type MailboxMessage = Awaited<ReturnType<typeof readMailbox>>['data'][number];

/** The longest the service holds one mailbox request (the events feed's `wait`, contract §8). */
const MAX_WAIT_SECS = 25;

/**
 * contract §8 (mail sandbox): reads the mailbox for `--to` from its start (messages already
 * delivered count, from `--since` on), then long-polls after the last cursor until a match or the
 * timeout (wall clock: the test's patience).
 */
export async function runWaitEmailVerb(ctx: CliContext, flags: WaitEmailFlags): Promise<void> {
  await runWaitEmail(ctx, waitEmailOptionsOf(flags));
}

export async function runWaitEmail(ctx: CliContext, opts: WaitEmailOptions): Promise<void> {
  let subject: UserPattern | undefined;
  try {
    // Linear-time matching: a pattern that backtracks would hold the event loop past the timeout.
    subject = opts.subjectMatch !== undefined ? compileUserPattern(opts.subjectMatch) : undefined;
  } catch (err) {
    if (err instanceof UserPatternError) throw new UsageError(`--subject-match: ${err.message}`, '--subject-match');
    throw err;
  }
  const to = opts.to.trim().toLowerCase();
  const client = await ctx.client();
  await refuseTestKey(ctx);
  const deadline = ctx.now().getTime() + opts.timeoutSecs * 1000;
  const stop = new AbortController();
  void ctx.environment.waitForInterrupt?.().then(() => stop.abort());

  let page = await readMailbox(client, { to: opts.to }, { signal: stop.signal });
  // Measured after the first answer, so the service's clock (Service-Time) is known.
  const sinceMs = opts.since === 'all' ? -Infinity : ctx.serviceNow().getTime() - (opts.since === 'now' ? 0 : opts.since) * 1000;
  const matches = (m: MailboxMessage) => m.to.toLowerCase() === to && Date.parse(m.deliveredAt) >= sinceMs && (!subject || subject.test(m.subject ?? ''));
  let found = page.data.find(matches);
  while (!found) {
    const left = deadline - ctx.now().getTime();
    if (left <= 0) throw new CliError(`timed out after ${opts.timeoutSecs}s: no message to ${opts.to}${subject ? ` with a subject matching /${subject.source}/` : ''} in the mail sandbox (a test key sends nothing; on a manual clock mail moves only when it does)`);
    const wait = Math.max(1, Math.min(MAX_WAIT_SECS, Math.floor(left / 1000)));
    try {
      page = await readMailbox(client, { to: opts.to, after: page.cursor, wait }, { signal: stop.signal, timeoutMs: (wait + 10) * 1000 });
    } catch (err) {
      if (stop.signal.aborted) throw new CancelledError(`stopped waiting for a message to ${opts.to}`);
      throw err;
    }
    found = page.data.find(matches);
  }
  await printOne(ctx, found, MAILBOX_COLUMNS);
}

/**
 * contract §2: a test key's emails play their outcomes but never reach the mail sandbox, so waiting
 * under one would only time out. Refused at once with exit 3, as the service refuses a
 * test key what it may not do (`forbidden`), not 2: no flag or argument is wrong, the key is.
 */
async function refuseTestKey(ctx: CliContext): Promise<void> {
  const settings = await ctx.settings();
  if (keyModeOf(settings.apiKey) !== 'test') return;
  const origin = keyOriginHint(settings, 'live') ?? 'use a live key';
  throw new CliError(`a test key's emails never reach the mail sandbox, so there is nothing to wait for: send and wait with a live key; ${origin}`, EXIT.auth);
}
