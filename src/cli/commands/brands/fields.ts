import type { FlagDef } from '../../verb.js';
import { BRAND_RELATIONSHIPS, ENTITY_TYPES, VERTICALS } from '../../../api/values/registration.js';

// The fields of a 10DLC brand and campaign as the command line knows them (spec: Registration
// inputs): the API's name, its flag, its help and how it is typed. Zod-free, so the verbs' flag
// definitions load at start-up without the schemas; the run modules pair each with the API's schema.

export interface FieldSpec {
  /** The API's field name in the brand or campaign body. */
  readonly name: string;
  readonly flag: `--${string}`;
  readonly description: string;
  readonly kind: 'text' | 'url' | 'choice' | 'list' | 'boolean';
  readonly choices?: readonly string[];
  /** The prompt on a terminal; a field without one is never asked, only taken from flags or a file. */
  readonly message?: string;
}

/** spec: Registration inputs — the brand registration request (`legalName` is the only required field). */
export const BRAND_FIELDS: readonly FieldSpec[] = [
  { name: 'legalName', flag: '--legal-name', description: 'the legal name of the business', kind: 'text', message: 'Legal business name' },
  { name: 'displayName', flag: '--display-name', description: 'the name consumers know it by', kind: 'text', message: 'Display name (the name consumers know)' },
  { name: 'entityType', flag: '--entity-type', description: `kind of organisation: ${ENTITY_TYPES.join(', ')}`, kind: 'choice', choices: ENTITY_TYPES, message: 'Entity type' },
  { name: 'ein', flag: '--ein', description: 'US tax id (EIN), 12-3456789 or nine digits; needed for PRIVATE_PROFIT and PUBLIC_PROFIT', kind: 'text', message: 'EIN, e.g. 12-3456789 (the registry rejects this entity type without one)' },
  { name: 'einIssuingCountry', flag: '--ein-issuing-country', description: 'country that issued the EIN (ISO 3166-1 alpha-2, e.g. US)', kind: 'text' },
  { name: 'website', flag: '--website', description: 'the business website, an http(s) URL', kind: 'url', message: 'Website, https://… (its domain should match the email)' },
  { name: 'email', flag: '--email', description: 'contact email address (its domain should match the website)', kind: 'text', message: 'Contact email' },
  { name: 'phone', flag: '--phone', description: 'contact phone, E.164 (+14155550100)', kind: 'text', message: 'Contact phone, e.g. +14155550100' },
  { name: 'vertical', flag: '--vertical', description: `industry; the registry's verticals: ${VERTICALS.join(', ')} (the register wizard takes only these, in any case: "real estate" reads REAL_ESTATE)`, kind: 'text', message: 'Industry (vertical), e.g. HEALTHCARE, RETAIL' },
  { name: 'street', flag: '--street', description: 'street address', kind: 'text', message: 'Street address' },
  { name: 'city', flag: '--city', description: 'city', kind: 'text', message: 'City' },
  { name: 'state', flag: '--state', description: 'state or region (in the US a two-letter code, e.g. CA)', kind: 'text', message: 'State (in the US two letters, e.g. CA)' },
  { name: 'postalCode', flag: '--postal-code', description: 'postal code (in the US five digits or ZIP+4)', kind: 'text', message: 'Postal code' },
  { name: 'country', flag: '--country', description: 'country, ISO 3166-1 alpha-2 code, e.g. US', kind: 'text', message: 'Country, a two-letter code (e.g. US)' },
  { name: 'businessContactEmail', flag: '--business-contact-email', description: 'email address of a business contact for the registry', kind: 'text' },
  { name: 'stockSymbol', flag: '--stock-symbol', description: 'stock symbol (PUBLIC_PROFIT)', kind: 'text' },
  { name: 'stockExchange', flag: '--stock-exchange', description: 'stock exchange (PUBLIC_PROFIT)', kind: 'text' },
  { name: 'altBusinessId', flag: '--alt-business-id', description: 'another business id (DUNS, LEI, …)', kind: 'text' },
  { name: 'altBusinessIdType', flag: '--alt-business-id-type', description: 'the kind of --alt-business-id', kind: 'text' },
  { name: 'brandRelationship', flag: '--brand-relationship', description: `size of the account: ${BRAND_RELATIONSHIPS.join(', ')}`, kind: 'choice', choices: BRAND_RELATIONSHIPS },
];

/** spec: Registration inputs — the campaign create request without `brandId` (the draft's shape too). */
export const CAMPAIGN_FIELDS: readonly FieldSpec[] = [
  { name: 'name', flag: '--campaign-name', description: 'a name for the campaign', kind: 'text', message: 'Campaign name' },
  { name: 'useCase', flag: '--use-case', description: 'registered use case, e.g. LOW_VOLUME, MARKETING, ACCOUNT_NOTIFICATION', kind: 'text', message: 'Use case (e.g. ACCOUNT_NOTIFICATION, MARKETING, LOW_VOLUME)' },
  { name: 'description', flag: '--description', description: 'what the messages are for', kind: 'text', message: 'Campaign description' },
  { name: 'optInDetails', flag: '--opt-in-details', description: 'how consumers opt in: the channel and the consent language they see', kind: 'text', message: 'How consumers opt in (channel and consent wording)' },
  { name: 'sampleMessages', flag: '--sample', description: 'a sample message (repeat for each; name the business, say "Reply STOP to opt out")', kind: 'list', message: 'Sample message' },
  { name: 'privacyPolicyLink', flag: '--privacy-policy-link', description: 'privacy policy URL', kind: 'url', message: 'Privacy policy URL' },
  { name: 'termsAndConditionsLink', flag: '--terms-link', description: 'messaging terms URL', kind: 'url', message: 'Messaging terms URL' },
  { name: 'websiteUrl', flag: '--website-url', description: 'website of the campaign', kind: 'url' },
  { name: 'ctaDetails', flag: '--cta-details', description: 'the call to action consumers see', kind: 'text' },
  { name: 'optinKeywords', flag: '--optin-keywords', description: 'opt-in keywords, comma-separated', kind: 'text' },
  { name: 'optinMessage', flag: '--optin-message', description: 'reply to an opt-in keyword', kind: 'text' },
  { name: 'optoutKeywords', flag: '--optout-keywords', description: 'opt-out keywords, comma-separated', kind: 'text' },
  { name: 'optoutMessage', flag: '--optout-message', description: 'reply to an opt-out keyword', kind: 'text' },
  { name: 'helpKeywords', flag: '--help-keywords', description: 'help keywords, comma-separated', kind: 'text' },
  { name: 'helpMessage', flag: '--help-message', description: 'reply to a help keyword', kind: 'text' },
  { name: 'subUsecases', flag: '--sub-usecase', description: 'a sub use case (repeat for each)', kind: 'list' },
  { name: 'subscriberOptin', flag: '--subscriber-optin', description: 'consumers opt in (true|false)', kind: 'boolean' },
  { name: 'subscriberOptout', flag: '--subscriber-optout', description: 'consumers can opt out (true|false)', kind: 'boolean' },
  { name: 'subscriberHelp', flag: '--subscriber-help', description: 'consumers can ask for help (true|false)', kind: 'boolean' },
  { name: 'embeddedLink', flag: '--embedded-link', description: 'messages carry links (true|false)', kind: 'boolean' },
  { name: 'embeddedPhone', flag: '--embedded-phone', description: 'messages carry phone numbers (true|false)', kind: 'boolean' },
  { name: 'numberPool', flag: '--number-pool', description: 'sent from a pool of numbers (true|false)', kind: 'boolean' },
  { name: 'ageGated', flag: '--age-gated', description: 'age-gated content (true|false)', kind: 'boolean' },
  { name: 'directLending', flag: '--direct-lending', description: 'direct lending (true|false)', kind: 'boolean' },
  { name: 'affiliateMarketing', flag: '--affiliate-marketing', description: 'affiliate marketing (true|false)', kind: 'boolean' },
  { name: 'termsAndConditions', flag: '--terms-and-conditions', description: 'consumers agree to terms (true|false)', kind: 'boolean' },
];

/** Commander's attribute name of a flag: `--legal-name` → `legalName`. */
export const attributeOf = (flag: string): string => flag.slice(2).replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** One flag per field (a list field repeatable; a choice with its values). */
export function fieldFlags(fields: readonly FieldSpec[], rename: Readonly<Record<string, `--${string}`>> = {}): FlagDef[] {
  return fields.map((f) => {
    const flag = rename[f.name] ?? f.flag;
    const value = f.kind === 'list' ? '<text>' : f.kind === 'boolean' ? '<true|false>' : f.kind === 'choice' ? '<type>' : f.kind === 'url' ? '<url>' : '<text>';
    return { flags: `${flag} ${value}`, help: f.description, ...(f.choices ? { choices: f.choices } : {}), ...(f.kind === 'list' ? { repeatable: true } : {}) };
  });
}

/** The values commander parsed for these fields, by API name: a list joined one item per line. */
export function fieldValues(parsed: Record<string, unknown>, fields: readonly FieldSpec[], rename: Readonly<Record<string, `--${string}`>> = {}): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const f of fields) {
    const v = parsed[attributeOf(rename[f.name] ?? f.flag)];
    if (v === undefined) continue;
    out[f.name] = Array.isArray(v) ? v.join('\n') : String(v);
  }
  return out;
}
