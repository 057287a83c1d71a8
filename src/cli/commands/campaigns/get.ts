import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface GetCampaignOptions {
  campaign: string;
}

export function getCommand(parent: Command, ctx: CliContext, runF?: RunF<GetCampaignOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./campaigns.run.js')).runGetCampaign(ctx, opts));
  return parent
    .command('get')
    .description('Show a campaign: its status, content and why it was rejected')
    .argument('<campaign>', 'campaign id')
    .addHelpText('after', '\nExamples:\n  $ svc campaigns get 7c1e…\n  $ svc campaigns get 7c1e… -o yaml > campaign.yaml')
    .action(async (campaign: string) => run({ campaign }));
}
