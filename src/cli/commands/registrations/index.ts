import { defineVerb, runConverted } from '../../verb.js';
import { registrationEndpoints } from '../../../api/resources/registrations.js';
import { PRICES } from '../../../api/values/prices.js';
import { draftOptionsOf } from './options.js';

// svc registrations: spec Registration inputs; contract §7.
const price = `$${((PRICES.brandRegistration + PRICES.campaignRegistration) / 100).toFixed(2)}`;

export const verbs = [
  defineVerb({
    name: 'draft',
    summary: 'Write a campaign (description, sample messages, opt-in, keywords) from a description of the business',
    flags: [
      { flags: '--legal-name <name>', help: 'the business (named in every sample message)' },
      { flags: '--description <text>', help: 'what the business does and what it will text' },
      { flags: '--ein <ein>', help: 'tax id' },
      { flags: '--website <url>', help: 'the business website' },
      { flags: '--vertical <vertical>', help: 'industry, e.g. HEALTHCARE' },
      { flags: '--opt-in-channel <channel>', help: 'how consumers opt in: web form, keyword, paper form, point of sale' },
      { flags: '-f, --file <file>', help: 'YAML or JSON with the same fields (legalName, description, …); - for stdin', local: { content: 'document' } },
    ],
    details: `Free, and nothing is registered. The draft is a campaign file: save it, check it with
svc campaigns lint, then register it.`,
    examples: [
      `svc registrations draft --legal-name "Acme Dental" --description "Dental clinic; appointment reminders" \\
      --opt-in-channel "web form" -o yaml > campaign.yaml`,
      'svc campaigns lint -f campaign.yaml',
    ],
    api: registrationEndpoints.draft,
    run: runConverted(async () => (await import('./registrations.run.js')).runDraft, draftOptionsOf),
  }),
  defineVerb({
    name: 'predict',
    summary: 'The approval prediction of a registration file: score, band, and each check with its suggestion',
    flags: [{ flags: '-f, --file <file>', help: 'YAML or JSON {brand?, campaign} (API field names); - for stdin', required: true, local: { content: 'document' } }],
    details: 'Free, and nothing is registered (svc campaigns lint exits 1 below high).',
    examples: ['svc registrations predict -f registration.yaml', 'svc registrations predict -f registration.yaml -o json'],
    api: registrationEndpoints.predict,
    run: async () => (await import('./registrations.run.js')).runPredict,
  }),
  defineVerb({
    name: 'submit',
    summary: `Register a brand and its first campaign from a file, both or neither (${price}; --mock free)`,
    flags: [
      { flags: '-f, --file <file>', help: 'YAML or JSON {brand: {...}, campaign: {...}} (API field names); - for stdin', required: true, local: { content: 'document' } },
      { flags: '--mock', help: 'a free test brand: approved at once, never charged' },
      { flags: '--idempotency-key <key>', help: 'a retry with the same key never registers twice' },
    ],
    details: `Checked locally with the API's schema first; the price is shown and confirmed (--yes skips). The
wizard svc brands register asks for the same answers one at a time.`,
    examples: ['svc registrations submit -f registration.yaml', 'svc registrations submit -f registration.yaml --mock --yes'],
    prompts: true,
    changes: true,
    api: registrationEndpoints.create,
    run: async () => (await import('./registrations.run.js')).runSubmit,
  }),
];
