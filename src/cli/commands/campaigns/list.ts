import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addListOptions, enumOption, type ListFlags, type RunF } from '../../command-kit.js';
import { CAMPAIGN_STATUSES, type CampaignStatus } from '../../../api/values/registration.js';

export interface ListCampaignsOptions extends ListFlags {
  status?: CampaignStatus;
  brand?: string;
}

export function listCommand(parent: Command, ctx: CliContext, runF?: RunF<ListCampaignsOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./campaigns.run.js')).runListCampaigns(ctx, opts));
  return addListOptions(parent.command('list').description('List your 10DLC campaigns (summaries), newest first'))
    .addOption(enumOption('--status <status>', CAMPAIGN_STATUSES.join(', '), CAMPAIGN_STATUSES))
    .option('--brand <id>', "only this brand's campaigns")
    .addHelpText('after', '\nExamples:\n  $ svc campaigns list\n  $ svc campaigns list --status rejected --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10')
    .action(async (o: ListCampaignsOptions) => run(o));
}
