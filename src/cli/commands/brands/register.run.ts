import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { Wizard } from '../../wizard/wizard.js';
import { listItems } from '../../wizard/questions.js';
import { ApiError } from '../../../api/client/errors.js';
import { resolveFormat } from '../../../output/formatters.js';
import { draftRegistration, predictRegistration, submitRegistration } from '../../../api/resources/registrations.js';
import { BusinessInfoBody, RegistrationBody, type Prediction } from '../../../api/schemas/registrations.js';
import type { CampaignDraft } from '../../../api/schemas/campaigns.js';
import { PRICES } from '../../../api/values/prices.js';
import { KEY_PREFIX } from '../../../api/values/keys.js';
import { dollars } from '../../money.js';
import { requireFunds } from '../billing/preflight.js';
import { predictionLines } from '../registrations/prediction-report.js';
import { BRAND_QUESTIONS, CAMPAIGN_QUESTIONS, REGISTER_QUESTIONS } from './questions.js';
import { BRAND_COLUMNS, CAMPAIGN_COLUMNS } from './columns.js';
import type { RegisterOptions } from './options.js';

// `svc brands register` (cli.md "Wizards"): brand questions, campaign questions (a draft offered),
// the approval prediction, the price, then POST /v1/registrations. Every check that needs no money
// runs before the paid step.

export async function runRegister(ctx: CliContext, opts: RegisterOptions): Promise<void> {
  const flags: Record<string, string | undefined> = {};
  for (const [name, v] of Object.entries(opts.brand)) flags[`brand.${name}`] = v;
  for (const [name, v] of Object.entries(opts.campaign)) flags[`campaign.${name}`] = v;
  const wizard = await Wizard.start(ctx, {
    name: 'brands-register',
    // One interrupted registration is kept (a new brand has no id yet), found with or without --mock:
    // --mock changes where the answers go, not what they are.
    subject: 'new',
    title: 'the registration',
    command: ['brands', 'register', ...(opts.mock ? ['--mock'] : [])],
    // The price (or, for --mock, the registration) is confirmed: the command without questions says --yes.
    unattended: ['--yes'],
    questions: REGISTER_QUESTIONS,
    flags,
    ...(opts.answers !== undefined ? { answersFile: { path: opts.answers, flag: '--answers' } } : {}),
    resume: opts.resume,
  });
  let answers = await wizard.ask(BRAND_QUESTIONS);
  if (ctx.prompter.enabled && !CAMPAIGN_QUESTIONS.some((q) => wizard.answered(q.field))) {
    await offerDraft(ctx, wizard, answers.brand as Record<string, unknown>);
  }
  answers = await wizard.ask(CAMPAIGN_QUESTIONS);
  let body = wizard.check(RegistrationBody, { brand: { ...(answers.brand as object), ...(opts.mock ? { mock: true } : {}) }, campaign: answers.campaign });

  const client = await ctx.client();
  // The prediction is free: shown before the price. A low band on a terminal asks to go on or fix.
  if (!client.dryRun) {
    for (;;) {
      const prediction = await predictRegistration(client, { brand: body.brand, campaign: body.campaign });
      showPrediction(ctx, prediction);
      if (prediction.band !== 'low' || !ctx.prompter.enabled || ctx.flags.yes) break;
      const next = await ctx.prompter.select('Approval is unlikely as it stands. Go on anyway, or fix the campaign?', [
        { value: 'fix', name: 'Fix the campaign answers' },
        { value: 'go', name: 'Go on and register as it is' },
      ], { flag: '--yes' });
      if (next === 'go') break;
      answers = await wizard.revise(CAMPAIGN_QUESTIONS.filter((q) => q.ask !== false));
      body = wizard.check(RegistrationBody, { brand: { ...(answers.brand as object), ...(opts.mock ? { mock: true } : {}) }, campaign: answers.campaign });
    }
  }

  if (opts.mock) {
    await ctx.confirm(`Register the test brand ${body.brand.legalName} and its campaign (mock: free, approved at once)?`);
  } else {
    // contract §11: brand 400 + campaign 1500 cents; cli.md "Money": dollars on screen.
    const settings = await ctx.settings();
    const free = settings.apiKey?.startsWith(KEY_PREFIX.test) ? ' (test key: not charged)' : '';
    const total = PRICES.brandRegistration + PRICES.campaignRegistration;
    // The whole price is checked before it is asked about: the brand and the campaign are paid in
    // one request, refused whole when the wallet cannot pay both.
    const resume = wizard.resumeCommand;
    await requireFunds(ctx, client, total, `registering ${body.brand.legalName} (brand ${dollars(PRICES.brandRegistration)} + campaign ${dollars(PRICES.campaignRegistration)})`, resume ? `; your answers are saved: then run \`${resume}\`` : '');
    await ctx.confirm(
      `Register ${body.brand.legalName} for ${dollars(total)} (brand ${dollars(PRICES.brandRegistration)} + campaign ${dollars(PRICES.campaignRegistration)})${free}?`,
    );
  }
  const registration = await submitRegistration(client, body, { idempotencyKey: opts.idempotencyKey });
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'resource' });
  if (format === 'table') {
    await printOne(ctx, registration.brand, BRAND_COLUMNS);
    await printOne(ctx, registration.campaign, CAMPAIGN_COLUMNS);
  } else await printOne(ctx, registration);
  if (ctx.io.stderrTTY) {
    const next = registration.brand.status === 'approved' ? 'the campaign is submitted now' : 'the registry decides the brand in about an hour; the campaign follows once it is approved';
    notice(ctx, `registered brand ${registration.brand.id} (${registration.brand.status}) and campaign ${registration.campaign.id} (${registration.campaign.status}): ${next}`);
  }
  await wizard.finish();
}

function showPrediction(ctx: CliContext, p: Prediction): void {
  notice(ctx, `Approval prediction:\n${predictionLines(p).map((l) => `  ${l}`).join('\n')}`);
}

/** The campaign answers a draft gives, as the wizard holds them (a list one item per line). */
function draftAnswers(draft: CampaignDraft): Map<string, string> {
  const raw = new Map<string, string>();
  for (const q of CAMPAIGN_QUESTIONS) {
    const v = (draft as Record<string, unknown>)[q.field.slice('campaign.'.length)];
    if (v === null || v === undefined) continue;
    raw.set(q.field, Array.isArray(v) ? v.map(String).join('\n') : String(v));
  }
  return raw;
}

/**
 * cli.md: campaign questions "offering a draft from `registrations draft`": written from a
 * description of the business, shown, then accepted, edited answer by answer, or set aside.
 */
async function offerDraft(ctx: CliContext, wizard: Wizard, brand: Record<string, unknown>): Promise<void> {
  const how = await ctx.prompter.select('The campaign: what you will text, and how people agree to it', [
    { value: 'draft', name: 'Draft it for me from a description of my business' },
    { value: 'own', name: 'Write it myself' },
  ], { flag: '--campaign-name' });
  if (how === 'own') return;
  const description = await ctx.prompter.input('What does your business do, and what will you text people?', {
    flag: '--description',
    validate: (v) => (BusinessInfoBody.shape.description.safeParse(v.trim()).success ? true : 'required'),
  });
  const optInChannel = await ctx.prompter.input('How do people opt in (web form, keyword, paper form, point of sale)?', { flag: '--opt-in-details', default: 'web form' });
  let draft: CampaignDraft;
  try {
    const info = BusinessInfoBody.parse({
      legalName: brand.legalName,
      description: description.trim(),
      ...(typeof brand.ein === 'string' && brand.ein ? { ein: brand.ein } : {}),
      ...(typeof brand.website === 'string' && brand.website ? { website: brand.website } : {}),
      ...(typeof brand.vertical === 'string' && brand.vertical ? { vertical: brand.vertical } : {}),
      ...(optInChannel.trim() ? { optInChannel: optInChannel.trim() } : {}),
    });
    draft = await draftRegistration(await ctx.client(), info);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    notice(ctx, `no draft (${err.code}: ${err.message}); write the campaign yourself`);
    return;
  }
  const raw = draftAnswers(draft);
  notice(ctx, `Draft campaign:\n${[...raw].map(([field, v]) => {
    const q = CAMPAIGN_QUESTIONS.find((x) => x.field === field)!;
    return q.kind === 'list' ? `  ${q.flag.slice(2)}:\n${listItems(v).map((item) => `    - ${item}`).join('\n')}` : `  ${q.flag.slice(2)}: ${v}`;
  }).join('\n')}`);
  const take = await ctx.prompter.select('Use this draft?', [
    { value: 'accept', name: 'Accept it' },
    { value: 'edit', name: 'Edit it, answer by answer' },
    { value: 'own', name: 'Write my own' },
  ], { flag: '--campaign-name' });
  if (take === 'accept') await wizard.take(raw);
  else if (take === 'edit') wizard.offer(raw);
}
