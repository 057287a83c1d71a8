import type { Page } from '../../api/schemas/page.js';
import type { BrandStatus, EntityType } from '../../api/values/registration.js';
import type { KeyMode } from '../../api/values/keys.js';

// spec: Brand (10DLC). The registration request's optional strings live in `fields` (JSON, the spec's
// names as keys, migration 8); what rules and lists read are columns.

/** The registration request's optional strings (spec: Registration inputs), stored as `fields`. */
export const BRAND_TEXT_FIELDS = [
  'displayName', 'ein', 'website', 'vertical', 'einIssuingCountry', 'email', 'phone', 'street', 'city', 'state',
  'postalCode', 'country', 'businessContactEmail', 'stockSymbol', 'stockExchange', 'altBusinessId', 'altBusinessIdType',
  'brandRelationship',
] as const;
export type BrandTextField = (typeof BRAND_TEXT_FIELDS)[number];
export type BrandFields = Partial<Record<BrandTextField, string | null>>;

export interface BrandRecord {
  id: string;
  accountId: string;
  legalName: string;
  status: BrandStatus;
  mock: boolean;
  entityType: EntityType | null;
  fields: BrandFields;
  tcrBrandId: string | null;
  identityStatus: string | null;
  vettingProvider: string | null;
  vettingClass: string | null;
  vettingScore: number | null;
  carrierSuspended: Record<string, boolean> | null;
  compliancePages: { optIn: string; privacy: string; messagingTerms: string } | null;
  pageConfig: Record<string, unknown> | null;
  rejectionReason: string | null;
  /**
   * Service time of the latest submission to the registry (null: never submitted). Kept inside the
   * `fields` JSON under a key no API field has, so a decision job can tell its own submission from a
   * later one (a resubmit after a sandbox rejection).
   */
  submittedAt: number | null;
  /** The mode of the key that created it; contract §2: a live one is a live key's to change. */
  mode: KeyMode;
  createdAt: number;
  updatedAt: number;
}

export interface BrandFilters {
  status?: BrandStatus;
}

export interface BrandsRepo {
  insert(b: BrandRecord): Promise<void>;
  /** Writes every mutable column of the record. */
  save(b: BrandRecord): Promise<void>;
  /** The account's brand, or undefined (another account's brand is as good as missing). */
  get(accountId: string, id: string): Promise<BrandRecord | undefined>;
  /** Unscoped: for the registry's jobs and the public hosted pages (which know only the brand id). */
  getById(id: string): Promise<BrandRecord | undefined>;
  /** spec: Brand — a list of brands is a page envelope, newest first. */
  list(accountId: string, f: BrandFilters, limit: number, cursor?: string): Promise<Page<BrandRecord>>;
}

