import { defineVerb, runConverted } from '../../verb.js';
import { plainGet } from '../../plain-verbs.js';
import { LIST_FLAGS } from '../../list-flags.js';
import { campaignEndpoints, campaignList } from '../../../api/resources/campaigns.js';
import { registrationEndpoints } from '../../../api/resources/registrations.js';
import { CAMPAIGN_STATUSES } from '../../../api/values/registration.js';
import { CAMPAIGN_FIELDS, fieldFlags } from '../brands/fields.js';
import { CAMPAIGN_COLUMNS } from '../brands/columns.js';
import { CAMPAIGN_RENAME, createCampaignOptionsOf, updateCampaignOptionsOf } from './options.js';

// svc campaigns: spec Campaign (10DLC); contract §7; cli.md "Wizards" for lint.
const CAMPAIGN_ARG = { name: 'campaign', help: 'campaign id', complete: 'campaigns' } as const;

export const verbs = [
  defineVerb({
    name: 'create',
    summary: 'Register a campaign for an approved brand (reviewed over about a day)',
    flags: [
      { flags: '--brand <id>', help: 'the approved brand (or brandId in the file)', complete: 'brands' },
      { flags: '-f, --file <file>', help: 'YAML or JSON with the campaign (API field names); - for stdin', local: { content: 'document' } },
      ...fieldFlags(CAMPAIGN_FIELDS, CAMPAIGN_RENAME),
    ],
    details: 'Flags override the file. Check a campaign file first with svc campaigns lint -f FILE.',
    examples: [
      'svc campaigns create --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10 -f campaign.yaml',
      `svc campaigns create --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10 --name Reminders --use-case ACCOUNT_NOTIFICATION \\
      --description "Appointment reminders" --opt-in-details "Patients tick a box on the web form" \\
      --sample "Acme Dental: see you tomorrow at 3pm. Reply STOP to opt out." \\
      --sample "Acme Dental: your cleaning is booked. Reply STOP to opt out."`,
    ],
    changes: true,
    api: campaignEndpoints.create,
    run: runConverted(async () => (await import('./campaigns.run.js')).runCreateCampaign, createCampaignOptionsOf),
  }),
  defineVerb({
    name: 'list',
    summary: 'List your 10DLC campaigns (summaries), newest first',
    flags: [
      ...LIST_FLAGS,
      { flags: '--status <status>', help: CAMPAIGN_STATUSES.join(', '), choices: CAMPAIGN_STATUSES },
      { flags: '--brand <id>', help: "only this brand's campaigns", complete: 'brands' },
    ],
    examples: ['svc campaigns list', 'svc campaigns list --status rejected --brand 0b6f3a52-8d1e-4c7a-9f20-5e4b1c7d9a10'],
    api: { method: 'GET', path: campaignList.path },
    run: async () => (await import('./campaigns.run.js')).runListCampaigns,
  }),
  plainGet({
    summary: 'Show a campaign: its status, content and why it was rejected',
    arg: CAMPAIGN_ARG,
    endpoint: campaignEndpoints.get,
    columns: CAMPAIGN_COLUMNS,
    examples: ['svc campaigns get 7c1e…', 'svc campaigns get 7c1e… -o yaml > campaign.yaml'],
  }),
  defineVerb({
    name: 'update',
    summary: "Change a campaign's content (then svc campaigns resubmit a rejected one)",
    args: [CAMPAIGN_ARG],
    flags: [{ flags: '-f, --file <file>', help: 'YAML or JSON with the fields to change (API field names); - for stdin', local: { content: 'document' } }, ...fieldFlags(CAMPAIGN_FIELDS, CAMPAIGN_RENAME)],
    details: 'Flags override the file.',
    examples: ['svc campaigns update 7c1e… --privacy-policy-link https://acme.example/privacy', 'svc campaigns update 7c1e… -f campaign.yaml'],
    changes: true,
    api: campaignEndpoints.update,
    run: runConverted(async () => (await import('./campaigns.run.js')).runUpdateCampaign, updateCampaignOptionsOf),
  }),
  defineVerb({
    name: 'resubmit',
    summary: 'Send a rejected campaign for review again (counts a remediation attempt)',
    args: [CAMPAIGN_ARG],
    examples: ['svc campaigns lint -f campaign.yaml && svc campaigns update 7c1e… -f campaign.yaml && svc campaigns resubmit 7c1e…'],
    changes: true,
    api: campaignEndpoints.resubmit,
    run: async () => (await import('./campaigns.run.js')).runResubmitCampaign,
  }),
  defineVerb({
    name: 'lint',
    summary: 'Predict whether a campaign file would be approved: each check pass or fail with its suggestion',
    flags: [{ flags: '-f, --file <file>', help: 'YAML or JSON: a campaign (API field names, brandId to check it against that brand) or {brand, campaign}; - for stdin', required: true, local: { content: 'document' } }],
    details: `Free, and nothing is registered. Exit 0 when the approval band is high, 1 when it is medium or low
(2 for a file that cannot be read).`,
    examples: ['svc campaigns lint -f campaign.yaml', 'svc campaigns get 7c1e… -o yaml | svc campaigns lint -f -'],
    api: registrationEndpoints.predict,
    run: async () => (await import('./campaigns.run.js')).runLintCampaign,
  }),
];
