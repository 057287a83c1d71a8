import { z } from 'zod';
import { E164, Timestamp } from './common.js';
import { ListQuerySchema, pageOf } from './page.js';
import {
  BRAND_RELATIONSHIPS,
  BRAND_STATUSES,
  ENTITY_TYPES,
  IDENTITY_STATUSES,
  REGISTRATION_LIMITS,
  VERTICALS,
  VETTING_CLASSES,
  VETTING_PROVIDERS,
} from '../values/registration.js';
import { BRAND_FORMAT_WORDS, COUNTRY_CODE_PATTERN, EIN_PATTERN, isWebUrl, usAddressProblems, type BrandAddress } from '../values/brand-formats.js';
import { isCountryCode } from '../values/countries.js';
import { addressProblem } from '../values/mailbox-address.js';

// spec: Brand (10DLC), Registration inputs (brand registration request); contract §7.

const Str = z.string().max(REGISTRATION_LIMITS.shortText);
const OptStr = Str.nullable().optional();
export const EntityType = z.enum(ENTITY_TYPES);
export const BrandRelationship = z.enum(BRAND_RELATIONSHIPS);
export const BrandStatus = z.enum(BRAND_STATUSES);

// contract §7: the field formats (api/values/brand-formats.ts). A text over the length limit is said
// once, not again as a bad format; no check aborts, so the rule across fields still runs and every
// failure of a body is reported at once.
const SHORT = REGISTRATION_LIMITS.shortText;
const Bounded = z.string().max(SHORT);
const formatted = (isValid: (v: string) => boolean, message: string) => Bounded.refine((v) => v.length > SHORT || isValid(v), message);
const Ein = formatted((v) => EIN_PATTERN.test(v), BRAND_FORMAT_WORDS.ein).meta({ pattern: EIN_PATTERN.source, examples: ['12-3456789'] });
const Website = formatted(isWebUrl, BRAND_FORMAT_WORDS.website).meta({ format: 'uri', examples: ['https://acme.example'] });
const Mailbox = Bounded.superRefine((value, ctx) => {
  const problem = value.length > SHORT ? null : addressProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `${BRAND_FORMAT_WORDS.mailbox} (${problem})` });
}).meta({ format: 'email', examples: ['hello@acme.example'] });
const Phone = E164.meta({ examples: ['+14155550100'] });
const Country = z
  .string()
  .refine(isCountryCode, BRAND_FORMAT_WORDS.country)
  .meta({ pattern: COUNTRY_CODE_PATTERN.source, description: 'ISO 3166-1 alpha-2', examples: ['US'] });

/**
 * spec: Registration inputs — `vertical` is an optional string: stored as given (existing brands and
 * clients keep their values); the registry's list is documented, and the CLI's wizard checks it.
 */
export const VERTICAL_WORDS = `the industry; the registry (TCR) lists ${VERTICALS.join(', ')}. The API stores the string it is given; svc brands register accepts only these (any case, spaces or hyphens for underscores)`;

/** The registration request's fields, before the rule across them (a base `omit`/`partial` can derive from). */
const brandFields = z.strictObject({
  legalName: z.string().min(1).max(REGISTRATION_LIMITS.shortText),
  displayName: OptStr,
  ein: Ein.nullable().optional().describe('a US EIN: 12-3456789 or nine digits'),
  website: Website.nullable().optional().describe('an http(s) URL whose host has a dot'),
  vertical: OptStr.describe(VERTICAL_WORDS),
  entityType: EntityType.nullable().optional(),
  einIssuingCountry: Country.nullable().optional(),
  email: Mailbox.nullable().optional(),
  phone: Phone.nullable().optional(),
  street: OptStr,
  city: OptStr,
  state: OptStr.describe('a two-letter code when country is US'),
  postalCode: OptStr.describe('five digits or ZIP+4 when country is US'),
  country: Country.nullable().optional(),
  businessContactEmail: Mailbox.nullable().optional(),
  stockSymbol: OptStr,
  stockExchange: OptStr,
  altBusinessId: OptStr,
  altBusinessIdType: OptStr,
  brandRelationship: BrandRelationship.nullable().optional(),
  mock: z.boolean().optional().describe('a free test brand: approved at once, no charge, no vetting; its campaigns are mock and cannot be shared'),
});

/** contract §7: `state` and `postalCode` when `country` is `US`, each problem on its own field. */
function usAddress(body: BrandAddress, ctx: z.RefinementCtx): void {
  for (const p of usAddressProblems(body)) ctx.addIssue({ code: 'custom', path: [p.field], message: p.message });
}

/** spec: Registration inputs — the brand registration request; `legalName` is the only required field. */
export const BrandRegistrationBody = brandFields.superRefine(usAddress).meta({ id: 'BrandRegistrationBody' });
export type BrandRegistrationBody = z.infer<typeof BrandRegistrationBody>;

/**
 * contract §7: the prediction's brand — any field may be missing (a file being linted), but a field
 * given has its format.
 */
export const PartialBrandBody = brandFields.partial().superRefine(usAddress);

/**
 * Decision (spec: pageConfig's inner shape is not shown): the design of the hosted opt-in page — what
 * a business sets to make the page its own. Colours are #rrggbb (contrast is checked when rendered).
 */
export const PageConfigSchema = z
  .strictObject({
    headline: z.string().max(120).nullable().optional(),
    body: z.string().max(1000).nullable().optional().describe('text above the form'),
    logoUrl: z.string().max(1000).nullable().optional().describe('https URL of a logo image (shown as a link-free <img>; no script or style is loaded from elsewhere)'),
    accentColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour like #1a73e8').nullable().optional(),
    buttonText: z.string().max(40).nullable().optional(),
    messageFrequency: z.string().max(120).nullable().optional().describe('e.g. "up to 4 messages a month"; shown in the consent disclosure'),
    messagePurpose: z.string().max(200).nullable().optional().describe('what the texts are about, e.g. "order updates and delivery alerts"; shown in the consent disclosure (carriers require the purpose)'),
  })
  .meta({ id: 'PageConfig' });
export type PageConfig = z.infer<typeof PageConfigSchema>;

/** spec: Brand — `compliancePages`: the texts of the hosted pages. */
export const CompliancePagesSchema = z
  .strictObject({
    optIn: z.string().max(REGISTRATION_LIMITS.longText),
    privacy: z.string().max(REGISTRATION_LIMITS.longText),
    messagingTerms: z.string().max(REGISTRATION_LIMITS.longText),
  })
  .meta({ id: 'CompliancePages' });
export type CompliancePages = z.infer<typeof CompliancePagesSchema>;

export const ComplianceUrlsSchema = z
  .object({ optInUrl: z.string(), privacyUrl: z.string(), messagingTermsUrl: z.string() })
  .meta({ id: 'ComplianceUrls' });

/**
 * PATCH /v1/brands/{id}: any registration field but `mock`, plus the hosted page's design and texts.
 * The address rule is checked here on what the body gives, and by the domain on the merged brand.
 */
export const UpdateBrandBody = brandFields
  .omit({ mock: true })
  .partial()
  .extend({
    legalName: z.string().min(1).max(REGISTRATION_LIMITS.shortText).optional(),
    pageConfig: PageConfigSchema.nullable().optional(),
    compliancePages: CompliancePagesSchema.nullable().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'give at least one field to change' })
  .superRefine(usAddress)
  .meta({ id: 'UpdateBrandBody' });
export type UpdateBrandBody = z.infer<typeof UpdateBrandBody>;

export const VettingBody = z
  .strictObject({ provider: z.enum(VETTING_PROVIDERS), vettingClass: z.enum(VETTING_CLASSES) })
  .meta({ id: 'VettingBody' });
export type VettingBody = z.infer<typeof VettingBody>;

const NStr = z.string().nullable();
export const BrandSchema = z
  .object({
    id: z.uuid(),
    tenantId: z.uuid(),
    legalName: z.string(),
    displayName: NStr,
    ein: NStr,
    website: NStr,
    vertical: NStr,
    status: BrandStatus,
    tcrBrandId: NStr,
    mock: z.boolean(),
    entityType: EntityType.nullable(),
    einIssuingCountry: NStr,
    email: NStr,
    phone: NStr,
    street: NStr,
    city: NStr,
    state: NStr,
    postalCode: NStr,
    country: NStr,
    businessContactEmail: NStr,
    stockSymbol: NStr,
    stockExchange: NStr,
    altBusinessId: NStr,
    altBusinessIdType: NStr,
    brandRelationship: BrandRelationship.nullable(),
    identityStatus: z.enum(IDENTITY_STATUSES).nullable(),
    vettingProvider: NStr,
    vettingClass: NStr,
    vettingScore: z.number().int().nullable(),
    carrierSuspended: z.record(z.string(), z.boolean()).nullable(),
    // Read back as plain objects (unknown keys dropped, as in every response), not the strict inputs.
    compliancePages: z.object(CompliancePagesSchema.shape).nullable(),
    // The colour's rule is the input's; read back it is any text (a rule's custom message cannot travel
    // through JSON Schema to the CLI's compiled parser).
    pageConfig: z.object({ ...PageConfigSchema.shape, accentColor: z.string().nullable().optional() }).nullable(),
    /** spec: present on reads, creates and updates; omitted on resubmit, vetting and registration responses. */
    complianceUrls: ComplianceUrlsSchema.nullable().optional(),
    /** Decision (spec: Brand has no such field): why the registry rejected it, null otherwise. */
    rejectionReason: NStr,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Brand' });
export type Brand = z.infer<typeof BrandSchema>;
export const BrandPage = pageOf(BrandSchema);
export const ListBrandsQuery = ListQuerySchema.extend({ status: BrandStatus.optional() });
