import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { checkFlags } from '../../schema-flags.js';
import { UsageError } from '../../errors.js';
import { resolveFormat } from '../../../output/formatters.js';
import { draftRegistration, predictRegistration, submitRegistration } from '../../../api/resources/registrations.js';
import { BusinessInfoBody, PredictBody, RegistrationBody } from '../../../api/schemas/registrations.js';
import { PRICES } from '../../../api/values/prices.js';
import { KEY_PREFIX } from '../../../api/values/keys.js';
import { dollars } from '../../money.js';
import { BRAND_COLUMNS, CAMPAIGN_COLUMNS } from '../brands/columns.js';
import { readDocument } from './document-file.js';
import { predictionLines } from './prediction-report.js';
import type { DraftOptions, PredictOptions, SubmitOptions } from './options.js';

// The registrations verbs (spec: Registration inputs; contract §7).

const DRAFT_FLAGS = { legalName: '--legal-name', description: '--description', ein: '--ein', website: '--website', vertical: '--vertical', optInChannel: '--opt-in-channel' };

const isTable = (ctx: CliContext): boolean => resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'resource' }).format === 'table';

export async function runDraft(ctx: CliContext, opts: DraftOptions): Promise<void> {
  const body: Record<string, unknown> = opts.file !== undefined ? await readDocument(ctx, opts.file, '--file') : {};
  for (const [name, v] of Object.entries(opts.fields)) if (v !== undefined) body[name] = v;
  checkFlags(BusinessInfoBody, body, DRAFT_FLAGS);
  const draft = await draftRegistration(await ctx.client(), body as BusinessInfoBody);
  await printOne(ctx, draft);
}

export async function runPredict(ctx: CliContext, opts: PredictOptions): Promise<void> {
  const doc = await readDocument(ctx, opts.file, '--file');
  checkFlags(PredictBody, doc, {});
  const prediction = await predictRegistration(await ctx.client(), doc as PredictBody);
  if (isTable(ctx)) ctx.io.stdout.write(`${predictionLines(prediction).join('\n')}\n`);
  else await printOne(ctx, prediction);
}

export async function runSubmit(ctx: CliContext, opts: SubmitOptions): Promise<void> {
  const doc = await readDocument(ctx, opts.file, '--file');
  if (opts.mock) {
    const brand = doc.brand;
    if (brand === null || typeof brand !== 'object') throw new UsageError('--file: brand: required (a mapping of the brand fields)', '--file');
    doc.brand = { ...(brand as object), mock: true };
  }
  // The API's schema before anything is sent or priced (cli.md: validate before any paid step).
  checkFlags(RegistrationBody, doc, {});
  const body = doc as RegistrationBody;
  const client = await ctx.client();
  if (body.brand.mock) {
    await ctx.confirm(`Register the test brand ${body.brand.legalName} and its campaign (mock: free, approved at once)?`);
  } else {
    const settings = await ctx.settings();
    const free = settings.apiKey?.startsWith(KEY_PREFIX.test) ? ' (test key: not charged)' : '';
    const total = PRICES.brandRegistration + PRICES.campaignRegistration;
    await ctx.confirm(`Register ${body.brand.legalName} for ${dollars(total)} (brand ${dollars(PRICES.brandRegistration)} + campaign ${dollars(PRICES.campaignRegistration)})${free}?`);
  }
  const registration = await submitRegistration(client, body, { idempotencyKey: opts.idempotencyKey });
  if (isTable(ctx)) {
    await printOne(ctx, registration.brand, BRAND_COLUMNS);
    await printOne(ctx, registration.campaign, CAMPAIGN_COLUMNS);
  } else await printOne(ctx, registration);
  if (ctx.io.stderrTTY) notice(ctx, `registered brand ${registration.brand.id} (${registration.brand.status}) and campaign ${registration.campaign.id} (${registration.campaign.status})`);
}
