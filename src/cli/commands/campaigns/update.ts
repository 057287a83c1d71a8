import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { addFieldOptions, CAMPAIGN_FIELDS, fieldValues } from '../brands/fields.js';
import { CAMPAIGN_RENAME } from './create.js';

export interface UpdateCampaignOptions {
  campaign: string;
  fields: Record<string, string | undefined>;
  file?: string;
}

export function updateCommand(parent: Command, ctx: CliContext, runF?: RunF<UpdateCampaignOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./campaigns.run.js')).runUpdateCampaign(ctx, opts));
  const cmd = parent
    .command('update')
    .description("Change a campaign's content (then svc campaigns resubmit a rejected one)")
    .argument('<campaign>', 'campaign id')
    .option('-f, --file <file>', 'YAML or JSON with the fields to change (API field names); - for stdin');
  addFieldOptions(cmd, CAMPAIGN_FIELDS, CAMPAIGN_RENAME);
  return cmd
    .addHelpText('after', '\nFlags override the file.\n\nExamples:\n  $ svc campaigns update 7c1e… --privacy-policy-link https://acme.example/privacy\n  $ svc campaigns update 7c1e… -f campaign.yaml')
    .action(async (campaign: string, o: Record<string, unknown>) => run({ campaign, fields: fieldValues(o, CAMPAIGN_FIELDS, CAMPAIGN_RENAME), file: o.file as string | undefined }));
}
