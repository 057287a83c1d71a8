// contract §7: the formats of a brand's fields, as plain values (no zod), so the one definition is
// read by the schemas (the service's validation, /openapi.json and the CLI's wizard), the approval
// prediction (a website or link check) and the domain (the address rule on a merged PATCH). The
// country list is countries.ts; a mailbox address is the email family's rule, mailbox-address.ts.
// Each message reads after the field's name ("website: must be …") and never names another field
// but `country`, so the wizard can say it as a flag.

/** contract §7: a US EIN, `12-3456789` or the same nine digits without the hyphen. */
export const EIN_PATTERN = /^(?:\d{2}-\d{7}|\d{9})$/;
/** contract §7: a state when `country` is `US` — a two-letter code, as the USPS writes it. */
export const US_STATE_PATTERN = /^[A-Z]{2}$/;
/** contract §7: a postal code when `country` is `US` — five digits, or ZIP+4. */
export const US_POSTAL_CODE_PATTERN = /^\d{5}(?:-\d{4})?$/;
/** The JSON Schema pattern of a country code (the assigned list is checked too). */
export const COUNTRY_CODE_PATTERN = /^[A-Z]{2}$/;

export const BRAND_FORMAT_WORDS = {
  ein: 'must be a US EIN: 12-3456789, or nine digits',
  website: 'must be an http(s) URL whose host has a dot, like https://acme.example',
  mailbox: 'must be a mailbox address like name@acme.example',
  country: 'must be an ISO 3166-1 alpha-2 code in capitals, like US or CA',
  usState: 'must be a two-letter code in capitals, like CA, when country is US',
  usPostalCode: 'must be five digits, or ZIP+4 like 94105-1234, when country is US',
} as const;

/** A label of a host name: letters, digits, inner hyphens (RFC 1035; IDNs arrive punycoded from URL). */
const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * contract §7: an `http(s)` URL with a host that has a dot. Decision: written out with its scheme
 * (`acme.example` alone is not a URL), no spaces, every label of the host a DNS label, and the last
 * one not numeric (an IP address is not a business's website).
 */
export function isWebUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const labels = url.hostname.split('.');
  return labels.length >= 2 && labels.every((l) => HOST_LABEL.test(l)) && !/^\d+$/.test(labels.at(-1)!);
}

/** The address fields the rule across fields reads (as given, absent or null when not). */
export interface BrandAddress {
  country?: string | null;
  state?: string | null;
  postalCode?: string | null;
}

export interface BrandFieldProblem {
  field: 'state' | 'postalCode';
  message: string;
}

/**
 * contract §7: `state` a two-letter code and `postalCode` five digits (or ZIP+4) when `country` is
 * `US`; every problem at once. Elsewhere (or with no country) they are free text.
 */
export function usAddressProblems(a: BrandAddress): BrandFieldProblem[] {
  if (a.country !== 'US') return [];
  const problems: BrandFieldProblem[] = [];
  if (typeof a.state === 'string' && !US_STATE_PATTERN.test(a.state)) problems.push({ field: 'state', message: BRAND_FORMAT_WORDS.usState });
  if (typeof a.postalCode === 'string' && !US_POSTAL_CODE_PATTERN.test(a.postalCode)) problems.push({ field: 'postalCode', message: BRAND_FORMAT_WORDS.usPostalCode });
  return problems;
}
