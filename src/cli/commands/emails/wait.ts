import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { parseDuration } from '../../duration.js';

export interface WaitEmailOptions {
  to: string;
  /** `--subject-match RE`, as given. */
  subjectMatch?: string;
  /** `--timeout`, in seconds. */
  timeoutSecs: number;
  /** `--since`: seconds of service time back, or `all` (every message kept), or `now` (only new ones). */
  since: number | 'all' | 'now';
}

const seconds = (text: string, flag: string, min: number): number => {
  let secs: number;
  try {
    secs = parseDuration(text, flag);
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${flag}: ${err.message}`, flag);
    throw err;
  }
  if (secs < min) throw new UsageError(`${flag} must be at least ${min}s`, flag);
  return secs;
};

export function waitCommand(parent: Command, ctx: CliContext, runF?: RunF<WaitEmailOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./wait.run.js')).runWaitEmail(ctx, opts));
  return parent
    .command('wait')
    .description("Block until the local service's mail sandbox has delivered a matching message (for tests)")
    .requiredOption('--to <addr>', 'the recipient address')
    .option('--subject-match <regex>', 'only a message whose subject matches (JavaScript regular expression)')
    .option('--timeout <duration>', 'give up after this long (wall clock: 30s, 2m)', '30s')
    .option('--since <duration>', 'count messages delivered this long ago or later, in service time; all, or now for new ones only', '1m')
    .addHelpText(
      'after',
      `
A test usually sends first and waits after, so a message already delivered counts: by default any
message to --to delivered in the last minute of the service's clock (--since 1m). --since all counts
every message the sandbox kept; --since now only those delivered from the service time the command
starts at. The oldest match is printed (from, to, subject, text; -o json the whole message). Local service only:
the mail sandbox holds what live keys send (a test key sends nothing).

Exit status: 0 with a match; 1 when --timeout passes first (as messages send --wait), 2 for a bad
--subject-match.

Examples:
  $ svc emails wait --to ada@example.org
  $ svc emails wait --to ada@example.org --subject-match "^Your code" --timeout 10s -o json
  $ svc emails wait --to ada@example.org --since now`,
    )
    .action(async (o: { to: string; subjectMatch?: string; timeout: string; since: string }) => {
      const since = o.since.trim().toLowerCase();
      return run({
        to: o.to,
        subjectMatch: o.subjectMatch,
        timeoutSecs: seconds(o.timeout, '--timeout', 1),
        since: since === 'all' || since === 'now' ? since : seconds(o.since, '--since', 0),
      });
    });
}
