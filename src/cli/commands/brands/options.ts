import { BRAND_FIELDS, CAMPAIGN_FIELDS, fieldValues } from './fields.js';
import type { VETTING_CLASSES, VETTING_PROVIDERS } from '../../../api/values/registration.js';

// The brands verbs' flags as commander gives them, and the options their run modules work with.

export interface RegisterOptions {
  /** Answers given as flags, by API name within each section; a list field one item per line. */
  brand: Record<string, string | undefined>;
  campaign: Record<string, string | undefined>;
  /** `--answers FILE.yaml`: `{brand: {...}, campaign: {...}}` with the API's field names. */
  answers?: string;
  resume?: boolean;
  /** A free test brand: approved at once, no charge (contract §7). */
  mock?: boolean;
  idempotencyKey?: string;
}

export const registerOptionsOf = (o: Record<string, unknown>): RegisterOptions => ({
  brand: fieldValues(o, BRAND_FIELDS),
  campaign: fieldValues(o, CAMPAIGN_FIELDS),
  answers: o.answers as string | undefined,
  resume: o.resume as boolean | undefined,
  mock: o.mock as boolean | undefined,
  idempotencyKey: o.idempotencyKey as string | undefined,
});

export interface UpdateBrandOptions {
  brand: string;
  /** Flags by API name. */
  fields: Record<string, string | undefined>;
  /** `-f FILE|-`: YAML or JSON with any updatable field (pageConfig and compliancePages too). */
  file?: string;
}

export const updateBrandOptionsOf = (o: Record<string, unknown>): UpdateBrandOptions => ({ brand: o.brand as string, fields: fieldValues(o, BRAND_FIELDS), file: o.file as string | undefined });

export interface VetBrandFlags {
  brand: string;
  provider: (typeof VETTING_PROVIDERS)[number];
  class: (typeof VETTING_CLASSES)[number];
}

export interface VetBrandOptions {
  brand: string;
  provider: (typeof VETTING_PROVIDERS)[number];
  vettingClass: (typeof VETTING_CLASSES)[number];
}

export const vetOptionsOf = (o: VetBrandFlags): VetBrandOptions => ({ brand: o.brand, provider: o.provider, vettingClass: o.class });

/** get, resubmit: the brand's id. */
export interface BrandArg {
  brand: string;
}
