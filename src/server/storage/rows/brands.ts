// The brands family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL (a flag column reads through `flag`: 0/1 in SQLite, a boolean in PostgreSQL).
import type { BrandStatus, EntityType } from '../../../api/values/registration.js';
import type { KeyMode } from '../../../api/values/keys.js';
import type { BrandFields, BrandRecord } from '../brands-repo.js';
import { flag, type StoredFlag } from './stored-flag.js';

// spec: Brand (10DLC). The registration request's optional strings live in `fields` (JSON, the spec's
// names as keys, migration 8); what rules and lists read are columns.

export interface BrandRow {
  seq: number;
  id: string;
  account_id: string;
  legal_name: string;
  status: BrandStatus;
  mock: StoredFlag;
  entity_type: EntityType | null;
  fields: string;
  tcr_brand_id: string | null;
  identity_status: string | null;
  vetting_provider: string | null;
  vetting_class: string | null;
  vetting_score: number | null;
  carrier_suspended: string | null;
  compliance_pages: string | null;
  page_config: string | null;
  rejection_reason: string | null;
  mode: KeyMode;
  created_at: number;
  updated_at: number;
}

const SUBMITTED_AT_KEY = '_submittedAt';
const json = <T>(s: string | null): T | null => (s === null ? null : (JSON.parse(s) as T));
export const text = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));

export function toRecord(r: BrandRow): BrandRecord {
  const stored = JSON.parse(r.fields) as Record<string, unknown>;
  const submittedAt = typeof stored[SUBMITTED_AT_KEY] === 'number' ? (stored[SUBMITTED_AT_KEY] as number) : null;
  delete stored[SUBMITTED_AT_KEY];
  return {
    id: r.id,
    accountId: r.account_id,
    legalName: r.legal_name,
    status: r.status,
    mock: flag(r.mock),
    entityType: r.entity_type,
    fields: stored as BrandFields,
    tcrBrandId: r.tcr_brand_id,
    identityStatus: r.identity_status,
    vettingProvider: r.vetting_provider,
    vettingClass: r.vetting_class,
    vettingScore: r.vetting_score,
    carrierSuspended: json(r.carrier_suspended),
    compliancePages: json(r.compliance_pages),
    pageConfig: json(r.page_config),
    rejectionReason: r.rejection_reason,
    submittedAt,
    mode: r.mode,
  createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export const fieldsText = (b: BrandRecord): string =>
  JSON.stringify(b.submittedAt === null ? b.fields : { ...b.fields, [SUBMITTED_AT_KEY]: b.submittedAt });
