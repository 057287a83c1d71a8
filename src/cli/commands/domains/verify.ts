import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { parseDuration } from '../../duration.js';
import { DOMAIN_ARG } from './domain-arg.js';

export interface VerifyDomainOptions {
  domain: string;
  wait: boolean;
  /** `--timeout`, in seconds. */
  timeoutSecs: number;
}

export function verifyCommand(parent: Command, ctx: CliContext, runF?: RunF<VerifyDomainOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./domains.run.js')).runVerifyDomain(ctx, opts));
  return parent
    .command('verify')
    .description("Check a domain's DNS records now (with --wait, until verified or failed)")
    .argument(...DOMAIN_ARG)
    .option('--wait', 're-check until the domain is verified or failed (pending while DNS propagates keeps waiting)')
    .option('--timeout <duration>', 'with --wait, give up after this long (30s, 5m)', '5m')
    .addHelpText(
      'after',
      `
Prints the domain and each record's status (valid, invalid, missing, pending). With --wait the
check is repeated every second while the domain is pending, each record's status said on stderr
when it changes.

Exit status: 0 when the domain is verified or still pending (without --wait); 1 when it is failed
or degraded (a required record is missing or wrong: sending from it is refused) or when --wait
timed out. Exit 1, "any other failure", because the check itself succeeded: its answer is the
failure, and codes 2-8 name API errors.

Examples:
  $ svc domains verify send.example.com
  $ svc domains verify send.example.com --wait --timeout 2m`,
    )
    .action(async (domain: string, o: { wait?: boolean; timeout: string }) => run({ domain, wait: Boolean(o.wait), timeoutSecs: timeout(o.timeout) }));
}

function timeout(text: string): number {
  let secs: number;
  try {
    secs = parseDuration(text, '--timeout');
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`--timeout: ${err.message}`, '--timeout');
    throw err;
  }
  if (secs < 1) throw new UsageError('--timeout must be at least 1s', '--timeout');
  return secs;
}
