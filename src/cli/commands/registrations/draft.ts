import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

/** The business info flags by API name (spec: Business info). */
export interface DraftOptions {
  fields: { legalName?: string; description?: string; ein?: string; website?: string; vertical?: string; optInChannel?: string };
  file?: string;
}

export function draftCommand(parent: Command, ctx: CliContext, runF?: RunF<DraftOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./registrations.run.js')).runDraft(ctx, opts));
  return parent
    .command('draft')
    .description('Write a campaign (description, sample messages, opt-in, keywords) from a description of the business')
    .option('--legal-name <name>', 'the business (named in every sample message)')
    .option('--description <text>', 'what the business does and what it will text')
    .option('--ein <ein>', 'tax id')
    .option('--website <url>', 'the business website')
    .option('--vertical <vertical>', 'industry, e.g. HEALTHCARE')
    .option('--opt-in-channel <channel>', 'how consumers opt in: web form, keyword, paper form, point of sale')
    .option('-f, --file <file>', 'YAML or JSON with the same fields (legalName, description, …); - for stdin')
    .addHelpText(
      'after',
      `
Free, and nothing is registered. The draft is a campaign file: save it, check it with
svc campaigns lint, then register it.

Examples:
  $ svc registrations draft --legal-name "Acme Dental" --description "Dental clinic; appointment reminders" \\
      --opt-in-channel "web form" -o yaml > campaign.yaml
  $ svc campaigns lint -f campaign.yaml`,
    )
    .action(async (o: DraftOptions['fields'] & { file?: string }) => {
      const { file, ...fields } = o;
      await run({ fields, file });
    });
}
