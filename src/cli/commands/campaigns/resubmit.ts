import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface ResubmitCampaignOptions {
  campaign: string;
}

export function resubmitCommand(parent: Command, ctx: CliContext, runF?: RunF<ResubmitCampaignOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./campaigns.run.js')).runResubmitCampaign(ctx, opts));
  return parent
    .command('resubmit')
    .description('Send a rejected campaign for review again (counts a remediation attempt)')
    .argument('<campaign>', 'campaign id')
    .addHelpText('after', '\nExamples:\n  $ svc campaigns lint -f campaign.yaml && svc campaigns update 7c1e… -f campaign.yaml && svc campaigns resubmit 7c1e…')
    .action(async (campaign: string) => run({ campaign }));
}
