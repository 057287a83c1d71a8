import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { runList } from '../../run-list.js';
import { checkFlags } from '../../schema-flags.js';
import { ExitStatus, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { campaignList, createCampaign, resubmitCampaign, updateCampaign } from '../../../api/resources/campaigns.js';
import { predictRegistration } from '../../../api/resources/registrations.js';
import { CreateCampaignBody, UpdateCampaignBody } from '../../../api/schemas/campaigns.js';
import type { PredictBody } from '../../../api/schemas/registrations.js';
import { readDocument, typedFields } from '../registrations/document-file.js';
import { predictionLines } from '../registrations/prediction-report.js';
import { CAMPAIGN_FIELDS } from '../brands/fields.js';
import { CAMPAIGN_COLUMNS, CAMPAIGN_LIST_COLUMNS } from '../brands/columns.js';
import { CAMPAIGN_RENAME, type CampaignArg, type CreateCampaignOptions, type LintCampaignOptions, type ListCampaignsOptions, type UpdateCampaignOptions } from './options.js';
import type { CampaignStatus } from '../../../api/values/registration.js';

// The campaigns verbs (spec: Campaign (10DLC); contract §7; cli.md "Wizards" for lint).

const KINDS: Record<string, string> = Object.fromEntries(CAMPAIGN_FIELDS.map((f) => [f.name, f.kind]));
const FLAGS: Record<string, string> = { ...Object.fromEntries(CAMPAIGN_FIELDS.map((f) => [f.name, (CAMPAIGN_RENAME as Record<string, string>)[f.name] ?? f.flag])), brandId: '--brand' };

/** The file's fields, then the flags over them. */
async function campaignBody(ctx: CliContext, file: string | undefined, fields: Record<string, string | undefined>): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = file !== undefined ? await readDocument(ctx, file, '--file') : {};
  return { ...body, ...typedFields(fields, KINDS) };
}

export async function runCreateCampaign(ctx: CliContext, opts: CreateCampaignOptions): Promise<void> {
  const body = await campaignBody(ctx, opts.file, opts.fields);
  if (opts.brand !== undefined) body.brandId = opts.brand;
  if (body.brandId === undefined) throw new UsageError('--brand is needed: the approved brand the campaign is for (or brandId in the file)', '--brand');
  checkFlags(CreateCampaignBody, body, FLAGS);
  const campaign = await createCampaign(await ctx.client(), body as CreateCampaignBody);
  await printOne(ctx, campaign, CAMPAIGN_COLUMNS);
  if (ctx.io.stderrTTY) notice(ctx, `campaign ${campaign.id} ${campaign.status}: reviewed in about an hour, decided about a day later`);
}

export async function runListCampaigns(ctx: CliContext, opts: ListCampaignsOptions): Promise<void> {
  await runList(ctx, opts, { endpoint: campaignList, query: { status: opts.status as CampaignStatus | undefined, brandId: opts.brand }, noun: 'campaigns', columns: CAMPAIGN_LIST_COLUMNS });
}

export async function runUpdateCampaign(ctx: CliContext, opts: UpdateCampaignOptions): Promise<void> {
  const body = await campaignBody(ctx, opts.file, opts.fields);
  if (!Object.keys(body).length) throw new UsageError('nothing to update: give a field flag (--description, --sample, …) or -f FILE', '--file');
  checkFlags(UpdateCampaignBody, body, FLAGS);
  await printOne(ctx, await updateCampaign(await ctx.client(), opts.campaign, body as UpdateCampaignBody), CAMPAIGN_COLUMNS);
}

export async function runResubmitCampaign(ctx: CliContext, opts: CampaignArg): Promise<void> {
  const campaign = await resubmitCampaign(await ctx.client(), opts.campaign);
  await printOne(ctx, campaign, CAMPAIGN_COLUMNS);
  if (ctx.io.stderrTTY) notice(ctx, `campaign ${campaign.id} resubmitted (attempt ${campaign.remediationAttempts}): ${campaign.status}`);
}

/** Fields a campaign read back has but a campaign request does not (`campaigns get -o yaml | lint -f -`). */
const READ_ONLY = ['id', 'tenantId', 'status', 'tcrCampaignId', 'mnoMetadata', 'cnpSharingStatus', 'remediationAttempts', 'lastRejectionReason', 'createdAt', 'updatedAt'];

export async function runLintCampaign(ctx: CliContext, opts: LintCampaignOptions): Promise<void> {
  const doc = await readDocument(ctx, opts.file, '--file');
  let body: PredictBody;
  if (typeof doc.campaign === 'object' && doc.campaign !== null) body = doc as unknown as PredictBody;
  else {
    const campaign = { ...doc };
    for (const k of READ_ONLY) delete campaign[k];
    body = { campaign } as PredictBody;
  }
  const prediction = await predictRegistration(await ctx.client(), body);
  ctx.io.stdout.write(`${predictionLines(prediction).join('\n')}\n`);
  // cli.md: exit 0 when the band is high, 1 otherwise.
  if (prediction.band !== 'high') throw new ExitStatus(EXIT.failure);
}
