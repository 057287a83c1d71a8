import type { ZodType } from 'zod';
import type { Question } from '../../wizard/wizard.js';
import { BrandRegistrationBody } from '../../../api/schemas/brands.js';
import { CampaignContentBody } from '../../../api/schemas/campaigns.js';
import { EIN_REQUIRED_ENTITY_TYPES, VERTICALS, verticalKey, verticalOf, type EntityType } from '../../../api/values/registration.js';
import { closest } from '../../closest.js';
import type { Checked } from '../../wizard/questions.js';
import { usAddressProblems } from '../../../api/values/brand-formats.js';
import { BRAND_FIELDS, CAMPAIGN_FIELDS, type FieldSpec } from './fields.js';

// The `brands register` wizard's questions (cli.md "Wizards"), each checked with the API's own schema
// for its field (spec: Registration inputs), by path in the combined body `{brand, campaign}`.

const BRAND = BrandRegistrationBody.shape as unknown as Record<string, ZodType>;
const CAMPAIGN = CampaignContentBody.shape as unknown as Record<string, ZodType>;

const entityOf = (answers: Record<string, unknown>): EntityType | undefined => (answers.brand as { entityType?: EntityType } | undefined)?.entityType;

function question(section: 'brand' | 'campaign', f: FieldSpec, schema: ZodType): Question {
  const field = `${section}.${f.name}`;
  const base = { field, flag: f.flag, message: f.message ?? f.description, kind: f.kind, schema, ...(f.message ? {} : { ask: false }) } as const;
  // contract §7: PRIVATE_PROFIT and PUBLIC_PROFIT brands are rejected without an EIN: asked, and
  // required, only for those.
  if (field === 'brand.ein') {
    return { ...base, required: true, when: (a) => EIN_REQUIRED_ENTITY_TYPES.includes(entityOf(a) as EntityType) };
  }
  // Decision (Registration inputs leaves `vertical` free text): the API stores any string, but the
  // wizard takes only the registry's verticals, so an address typed one question early is refused.
  if (field === 'brand.vertical') return { ...base, normalize: registryVertical };
  // contract §7: the state and postal code when the country is US — the API's rule, refused as typed.
  if (field === 'brand.state' || field === 'brand.postalCode') {
    return {
      ...base,
      acrossFields: (value, a) => usAddressProblems({ country: countryOf(a), [f.name]: value }).find((p) => p.field === f.name)?.message ?? null,
    };
  }
  return base;
}

/** A typed vertical in the registry's spelling, or refused naming the nearest one. */
function registryVertical(text: string): Checked {
  const vertical = verticalOf(text);
  if (vertical) return { ok: true, value: vertical };
  const near = closest(verticalKey(text), VERTICALS);
  return { ok: false, reason: `must be one of the registry's verticals; did you mean ${near}? (${VERTICALS.join(', ')})` };
}

const countryOf = (answers: Record<string, unknown>): string | undefined => (answers.brand as { country?: string } | undefined)?.country;

/** The country is asked first of the address, so the state and postal code are checked as typed. */
function countryFirst(questions: readonly Question[]): Question[] {
  const country = questions.find((q) => q.field === 'brand.country')!;
  const rest = questions.filter((q) => q !== country);
  const street = rest.findIndex((q) => q.field === 'brand.street');
  return [...rest.slice(0, street), country, ...rest.slice(street)];
}

export const BRAND_QUESTIONS: readonly Question[] = countryFirst(BRAND_FIELDS.map((f) => question('brand', f, BRAND[f.name]!)));
export const CAMPAIGN_QUESTIONS: readonly Question[] = CAMPAIGN_FIELDS.map((f) => question('campaign', f, CAMPAIGN[f.name]!));
export const REGISTER_QUESTIONS: readonly Question[] = [...BRAND_QUESTIONS, ...CAMPAIGN_QUESTIONS];
