import { defineVerb, runConverted } from '../../verb.js';
import { plainGet, plainList } from '../../plain-verbs.js';
import { brandEndpoints, brandList } from '../../../api/resources/brands.js';
import { registrationEndpoints } from '../../../api/resources/registrations.js';
import { BRAND_STATUSES, VETTING_CLASSES, VETTING_PROVIDERS } from '../../../api/values/registration.js';
import { PRICES } from '../../../api/values/prices.js';
import { BRAND_FIELDS, CAMPAIGN_FIELDS, fieldFlags } from './fields.js';
import { BRAND_COLUMNS, BRAND_LIST_COLUMNS } from './columns.js';
import { registerOptionsOf, updateBrandOptionsOf, vetOptionsOf } from './options.js';

// svc brands: spec Brand (10DLC); contract §7.
const cents = (n: number): string => `$${(n / 100).toFixed(2)}`;
const BRAND_ARG = { name: 'brand', help: 'brand id', complete: 'brands' } as const;

export const verbs = [
  defineVerb({
    name: 'register',
    summary: 'Register a 10DLC brand and its first campaign, step by step (the wizard)',
    flags: [
      { flags: '--answers <file>', help: 'YAML or JSON: {brand: {...}, campaign: {...}} with the API field names; flags override it', local: {} },
      { flags: '--resume', help: 'continue with the answers saved when this wizard was interrupted, without asking', local: {} },
      { flags: '--mock', help: 'register a free test brand: approved at once, never charged, not sent to the registry' },
      { flags: '--idempotency-key <key>', help: 'send the registration with this Idempotency-Key (a retry never registers twice)' },
      ...fieldFlags(BRAND_FIELDS),
      ...fieldFlags(CAMPAIGN_FIELDS),
    ],
    details: `Asks for the brand, then the campaign (offering a draft written from a description of your
business: accept it, edit it or write your own), then shows the approval prediction with each failed
check and its suggestion, then the price — brand ${cents(PRICES.brandRegistration)} + campaign ${cents(PRICES.campaignRegistration)} — and registers
both after you confirm (--yes skips). --mock registers a free test brand with no price.

Every answer has a flag (above) or a key in --answers. Without a terminal (or with --no-input or CI)
nothing is asked: every missing answer is listed in one error with its flag (exit 2). Answers typed
so far are saved (config dir, wizards/): run the command again (with or without --mock), or add
--resume, after Ctrl-C. At the end the same registration is printed as a command that asks nothing
(its answers file, the flags given, --yes): a run without --answers writes what was typed to
wizards/brands-register-new.yaml; a run given --answers FILE writes no file of its own and names
FILE, with any answer typed at a prompt as a flag.`,
    examples: [
      'svc brands register',
      'svc brands register --mock --answers acme.yaml --yes',
      `svc brands register --legal-name "Acme Dental LLC" --entity-type PRIVATE_PROFIT --ein 12-3456789 \\
      --website https://acme.example --email hello@acme.example --answers campaign.yaml`,
    ],
    prompts: true,
    changes: true,
    api: registrationEndpoints.create,
    run: runConverted(async () => (await import('./register.run.js')).runRegister, registerOptionsOf),
  }),
  plainList({
    summary: 'List your 10DLC brands, newest first',
    endpoint: brandList,
    noun: 'brands',
    columns: BRAND_LIST_COLUMNS,
    filters: [{ flags: '--status <status>', help: BRAND_STATUSES.join(', '), choices: BRAND_STATUSES }],
    examples: ['svc brands list', 'svc brands list --status approved -o ids'],
  }),
  plainGet({
    summary: 'Show a brand: its status, identity, vetting and hosted compliance page URLs',
    arg: BRAND_ARG,
    endpoint: brandEndpoints.get,
    columns: BRAND_COLUMNS,
    examples: ['svc brands get 0b6f…', 'svc brands get 0b6f… -o json'],
  }),
  defineVerb({
    name: 'update',
    summary: "Change a brand's details, or the design and texts of its hosted opt-in page",
    args: [BRAND_ARG],
    flags: [{ flags: '-f, --file <file>', help: 'YAML or JSON with the fields to change (API names; pageConfig, compliancePages); - for stdin', local: { content: 'document' } }, ...fieldFlags(BRAND_FIELDS)],
    details: 'Flags override the file. A rejected brand is sent to the registry again with svc brands resubmit.',
    examples: ['svc brands update 0b6f… --ein 12-3456789', 'svc brands update 0b6f… -f page.yaml     # pageConfig: {headline: …, accentColor: "#1a73e8"}'],
    changes: true,
    api: brandEndpoints.update,
    run: runConverted(async () => (await import('./brands.run.js')).runUpdateBrand, updateBrandOptionsOf),
  }),
  defineVerb({
    name: 'resubmit',
    summary: 'Send a rejected brand to the registry again (after fixing it with svc brands update)',
    args: [BRAND_ARG],
    examples: ['svc brands update 0b6f… --ein 12-3456789 && svc brands resubmit 0b6f…'],
    changes: true,
    api: brandEndpoints.resubmit,
    run: async () => (await import('./brands.run.js')).runResubmitBrand,
  }),
  defineVerb({
    name: 'vet',
    summary: `Ask for external vetting of a brand (a higher score, higher limits; ${cents(PRICES.brandVetting)})`,
    args: [BRAND_ARG],
    flags: [
      { flags: '--provider <provider>', help: 'the vetting partner', choices: VETTING_PROVIDERS, required: true },
      { flags: '--class <class>', help: 'the kind of vetting', choices: VETTING_CLASSES, default: VETTING_CLASSES[0] },
    ],
    details: 'Asks to confirm the price (--yes skips).',
    examples: ['svc brands vet 0b6f… --provider AEGIS', 'svc brands vet 0b6f… --provider WMC --class ENHANCED --yes'],
    prompts: true,
    changes: true,
    api: brandEndpoints.vet,
    run: runConverted(async () => (await import('./brands.run.js')).runVetBrand, vetOptionsOf),
  }),
];
