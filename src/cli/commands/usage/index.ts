import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { parseWhen, type When } from './when.js';

export interface UsageOptions {
  from?: When;
  to?: When;
}

/** `svc usage` is a verb of its own (the group acts): GET /v1/usage. */
export function register(cmd: Command, ctx: CliContext, runF?: RunF<UsageOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./usage.run.js')).runUsage(ctx, opts));
  return cmd
    .option('--from <when>', 'start, inclusive: 2026-11-01, 2026-11-01T09:00:00Z, or back from now: 7d (default: the start of this month)')
    .option('--to <when>', 'end, exclusive: a date, an instant, now, or back from now (default: now)')
    .addHelpText(
      'after',
      `
Spend per category (SMS, numbers, voice, email, registrations, ports…) with a total row. On a
terminal amounts show in dollars; -o json gives the API's answer in cents (data, totalCents, from,
to) and -o csv/ndjson one row per category with amountCents. Relative times count back from the
service clock, so they stay right after \`svc clock advance\`.

Examples:
  $ svc usage
  $ svc usage --from 7d
  $ svc usage --from 2026-11-01 --to 2026-12-01 -o json`,
    )
    .action(async (o: { from?: string; to?: string }) =>
      run({ from: o.from === undefined ? undefined : parseWhen(o.from, '--from'), to: o.to === undefined ? undefined : parseWhen(o.to, '--to') }),
    );
}
