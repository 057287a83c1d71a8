import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

/** The verification fields as the command holds them: strings until checked. */
export interface TollfreeFields {
  businessName?: string;
  website?: string;
  useCase?: string;
  useCaseSummary?: string;
  sampleMessage?: string;
  optInWorkflow?: string;
  monthlyVolume?: string;
}

export interface VerifyTollfreeOptions {
  number: string;
  fields: TollfreeFields;
  /** `--answers`: YAML or JSON with the same fields; flags win over it. */
  answers?: string;
  /** `--from-file`: the older name of --answers. */
  fromFile?: string;
  /** `--resume`: take the answers saved from an interrupted run without asking. */
  resume?: boolean;
}

export function verifyTollfreeCommand(parent: Command, ctx: CliContext, runF?: RunF<VerifyTollfreeOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./verify-tollfree.run.js')).runVerifyTollfree(ctx, opts));
  return parent
    .command('verify-tollfree')
    .description('Submit toll-free verification for a toll-free number (the carrier decides about 72 h later)')
    .argument('<number>', 'number id (num_…) or E.164')
    .option('--business-name <name>', 'the business sending the messages')
    .option('--website <url>', 'the business website (a submission without one is rejected)')
    .option('--use-case <text>', 'what the messages are for')
    .option('--use-case-summary <text>', 'a longer description of the use case')
    .option('--sample-message <text>', 'an example message, with opt-out language (STOP)')
    .option('--opt-in-workflow <text>', 'how recipients agree to receive messages')
    .option('--monthly-volume <n>', 'messages per month')
    .option('--answers <file>', 'YAML or JSON with the same fields (businessName, website, …); flags override it')
    .option('--from-file <file>', 'another name for --answers')
    .option('--resume', 'continue with the answers saved when this wizard was interrupted, without asking')
    .addHelpText(
      'after',
      `
Missing fields are asked for on a terminal, one at a time, each checked as it is given; without a
terminal (or with --no-input or CI) every missing or invalid one is listed in one error naming its
flag (exit 2). Keys in --answers are the API's names (businessName, useCaseSummary, …) or the flag
names (business-name, use-case-summary, …). Answers typed so far are saved (config dir, wizards/)
until the submission succeeds: run the command again to resume them after Ctrl-C.

Examples:
  $ svc numbers verify-tollfree +18885550123 --answers tfv.yaml
  $ svc numbers verify-tollfree +18885550123 --business-name "Acme Dental" --website https://acme.example \\
      --use-case "appointment reminders" --use-case-summary "Reminders a day before each visit" \\
      --sample-message "Acme: see you tomorrow at 3pm. Reply STOP to opt out." \\
      --opt-in-workflow "Patients tick a box on the intake form" --monthly-volume 2000`,
    )
    .action(async (number: string, o: TollfreeFields & { answers?: string; fromFile?: string; resume?: boolean }) => {
      const { answers, fromFile, resume, ...fields } = o;
      await run({ number, fields, answers, fromFile, resume });
    });
}
