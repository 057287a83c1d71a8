import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { UsageError } from '../../errors.js';
import { parseDuration } from '../../duration.js';
import { collectAddresses } from './recipients.js';

export interface SendEmailOptions {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text?: string;
  /** `--text-file FILE`, `-` for stdin. */
  textFile?: string;
  /** `--html-file FILE`, `-` for stdin. */
  htmlFile?: string;
  tags: string[];
  /** `--metadata K=V`, in the order given. */
  metadata: Array<[string, string]>;
  externalRef?: string;
  idempotencyKey?: string;
  wait: boolean;
  /** `--wait-timeout`, in seconds. */
  waitTimeoutSecs: number;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

function collectPair(value: string, previous: Array<[string, string]> | undefined): Array<[string, string]> {
  const eq = value.indexOf('=');
  if (eq < 1) throw new UsageError(`--metadata: "${value}" is not KEY=VALUE`, '--metadata');
  return [...(previous ?? []), [value.slice(0, eq), value.slice(eq + 1)]];
}

export function sendCommand(parent: Command, ctx: CliContext, runF?: RunF<SendEmailOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./send.run.js')).runSendEmail(ctx, opts));
  return parent
    .command('send')
    .description('Send an email from a verified domain')
    .requiredOption('--from <addr>', 'an address on a verified domain, or "Name <address>"')
    .option('--to <addr>', 'a recipient; repeat, or separate with commas', collectAddresses)
    .option('--cc <addr>', 'a copy recipient; repeat, or separate with commas', collectAddresses)
    .option('--bcc <addr>', 'a blind copy recipient; repeat, or separate with commas', collectAddresses)
    .requiredOption('--subject <text>', 'the subject line')
    .option('--text <text>', 'the plain-text body')
    .option('--text-file <file>', 'read the plain-text body from FILE (- for standard input)')
    .option('--html-file <file>', 'read the HTML body from FILE (- for standard input)')
    .option('--tag <tag>', 'a tag carried on every event; repeat for up to 10', collect)
    .option('--metadata <key=value>', 'a metadata pair carried on every event; repeat for up to 20', collectPair)
    .option('--external-ref <ref>', 'your own reference, carried on every event')
    .option('--idempotency-key <key>', 'fix the Idempotency-Key: sending again with it never sends twice (default: a fresh key)')
    .option('--wait', 'wait until every recipient has a final delivery, then print each outcome')
    .option('--wait-timeout <duration>', 'with --wait, give up after this long (30s, 2m)', '60s')
    .addHelpText(
      'after',
      `
At least one recipient (--to, --cc or --bcc, 50 in all) and a body (--text, --text-file or
--html-file; a text and an HTML body may both be given). Only one file may be - (standard input).
Checked before anything is sent (exit 2, naming the flag): the recipients' count, the body size
(1 MiB each), tags and metadata; the service checks the rest (a domain that is not verified: exit 5).
Every send carries an Idempotency-Key, the same on every retry; pass --idempotency-key to make a
re-run of the command safe as well.

With --wait the command reads the email until every recipient that was not suppressed has a final
delivery (delivered, bounced or failed), then prints one row per recipient; exit 1 when any bounced
or failed, or after --wait-timeout. On a local service with a manual clock, mail moves only when
the clock does (svc clock advance 5s).

Examples:
  $ svc emails send --from hello@send.example.com --to ada@example.org --subject "Welcome" --text "Hi Ada"
  $ svc emails send --from "Acme <hello@send.example.com>" --to a@example.org,b@example.org --subject Hi --html-file welcome.html --text-file welcome.txt
  $ echo "Your code is 1234" | svc emails send --from hello@send.example.com --to ada@example.org --subject Code --text-file -
  $ svc emails send --from hello@send.example.com --to ada@example.org --subject Hi --text hi --tag welcome --metadata user=42 --wait
  $ svc emails send --from hello@send.example.com --to bounce@simulator.test --subject Test --text hi   # local: a hard bounce`,
    )
    .action(
      async (o: {
        from: string;
        to?: string[];
        cc?: string[];
        bcc?: string[];
        subject: string;
        text?: string;
        textFile?: string;
        htmlFile?: string;
        tag?: string[];
        metadata?: Array<[string, string]>;
        externalRef?: string;
        idempotencyKey?: string;
        wait?: boolean;
        waitTimeout: string;
      }) =>
        run({
          from: o.from,
          to: o.to ?? [],
          cc: o.cc ?? [],
          bcc: o.bcc ?? [],
          subject: o.subject,
          text: o.text,
          textFile: o.textFile,
          htmlFile: o.htmlFile,
          tags: o.tag ?? [],
          metadata: o.metadata ?? [],
          externalRef: o.externalRef,
          idempotencyKey: o.idempotencyKey,
          wait: Boolean(o.wait),
          waitTimeoutSecs: waitTimeout(o.waitTimeout),
        }),
    );
}

function waitTimeout(text: string): number {
  let secs: number;
  try {
    secs = parseDuration(text, '--wait-timeout');
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`--wait-timeout: ${err.message}`, '--wait-timeout');
    throw err;
  }
  if (secs < 1) throw new UsageError('--wait-timeout must be at least 1s', '--wait-timeout');
  return secs;
}
