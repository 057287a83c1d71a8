import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface LintCampaignOptions {
  file: string;
}

export function lintCommand(parent: Command, ctx: CliContext, runF?: RunF<LintCampaignOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./campaigns.run.js')).runLintCampaign(ctx, opts));
  return parent
    .command('lint')
    .description('Predict whether a campaign file would be approved: each check pass or fail with its suggestion')
    .requiredOption('-f, --file <file>', 'YAML or JSON: a campaign (API field names, brandId to check it against that brand) or {brand, campaign}; - for stdin')
    .addHelpText(
      'after',
      `
Free, and nothing is registered. Exit 0 when the approval band is high, 1 when it is medium or low
(2 for a file that cannot be read).

Examples:
  $ svc campaigns lint -f campaign.yaml
  $ svc campaigns get 7c1e… -o yaml | svc campaigns lint -f -`,
    )
    .action(async (o: { file: string }) => run({ file: o.file }));
}
