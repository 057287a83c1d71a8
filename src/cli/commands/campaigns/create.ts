import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { addFieldOptions, CAMPAIGN_FIELDS, fieldValues } from '../brands/fields.js';

/** Here the campaign's name is `--name` (in `brands register` it is `--campaign-name`). */
export const CAMPAIGN_RENAME = { name: '--name' } as const;

export interface CreateCampaignOptions {
  brand?: string;
  /** Flags by API name; a list one item per line. */
  fields: Record<string, string | undefined>;
  file?: string;
}

export function createCommand(parent: Command, ctx: CliContext, runF?: RunF<CreateCampaignOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./campaigns.run.js')).runCreateCampaign(ctx, opts));
  const cmd = parent
    .command('create')
    .description("Register a campaign for an approved brand (reviewed over about a day)")
    .option('--brand <id>', 'the approved brand (or brandId in the file)')
    .option('-f, --file <file>', 'YAML or JSON with the campaign (API field names); - for stdin');
  addFieldOptions(cmd, CAMPAIGN_FIELDS, CAMPAIGN_RENAME);
  return cmd
    .addHelpText(
      'after',
      `
Flags override the file. Check a campaign file first with svc campaigns lint -f FILE.

Examples:
  $ svc campaigns create --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10 -f campaign.yaml
  $ svc campaigns create --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10 --name Reminders --use-case ACCOUNT_NOTIFICATION \\
      --description "Appointment reminders" --opt-in-details "Patients tick a box on the web form" \\
      --sample "Acme Dental: see you tomorrow at 3pm. Reply STOP to opt out." \\
      --sample "Acme Dental: your cleaning is booked. Reply STOP to opt out."`,
    )
    .action(async (o: Record<string, unknown>) => run({ brand: o.brand as string | undefined, fields: fieldValues(o, CAMPAIGN_FIELDS, CAMPAIGN_RENAME), file: o.file as string | undefined }));
}
