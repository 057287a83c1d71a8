import type { Sql } from './sql.js';
import type { Page } from '../../../api/schemas/page.js';
import type { BrandStatus, EntityType } from '../../../api/values/registration.js';
import { keysetPage } from './pagination.js';
import type { KeyMode } from '../../../api/values/keys.js';
import type { BrandFields, BrandRecord, BrandFilters, BrandsRepo } from '../brands-repo.js';

// spec: Brand (10DLC). The registration request's optional strings live in `fields` (JSON, the spec's
// names as keys, migration 8); what rules and lists read are columns.

interface BrandRow {
  seq: number;
  id: string;
  account_id: string;
  legal_name: string;
  status: BrandStatus;
  mock: boolean;
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
const text = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v));

function toRecord(r: BrandRow): BrandRecord {
  const stored = JSON.parse(r.fields) as Record<string, unknown>;
  const submittedAt = typeof stored[SUBMITTED_AT_KEY] === 'number' ? (stored[SUBMITTED_AT_KEY] as number) : null;
  delete stored[SUBMITTED_AT_KEY];
  return {
    id: r.id,
    accountId: r.account_id,
    legalName: r.legal_name,
    status: r.status,
    mock: r.mock,
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

const fieldsText = (b: BrandRecord): string =>
  JSON.stringify(b.submittedAt === null ? b.fields : { ...b.fields, [SUBMITTED_AT_KEY]: b.submittedAt });

export class PgBrandsRepo implements BrandsRepo {
  constructor(private readonly db: Sql) {}

  async insert(b: BrandRecord): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO brands (id, account_id, legal_name, status, mock, entity_type, fields, tcr_brand_id, identity_status,
           vetting_provider, vetting_class, vetting_score, carrier_suspended, compliance_pages, page_config, rejection_reason,
           mode, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        b.id, b.accountId, b.legalName, b.status, b.mock, b.entityType, fieldsText(b), b.tcrBrandId, b.identityStatus,
        b.vettingProvider, b.vettingClass, b.vettingScore, text(b.carrierSuspended), text(b.compliancePages), text(b.pageConfig),
        b.rejectionReason, b.mode, b.createdAt, b.updatedAt,
      );
  }

  /** Writes every mutable column of the record. */
  async save(b: BrandRecord): Promise<void> {
    await this.db
      .prepare(
        `UPDATE brands SET legal_name = ?, status = ?, entity_type = ?, fields = ?, tcr_brand_id = ?, identity_status = ?,
           vetting_provider = ?, vetting_class = ?, vetting_score = ?, carrier_suspended = ?, compliance_pages = ?, page_config = ?,
           rejection_reason = ?, updated_at = ?
         WHERE id = ?`,
      )
      .run(
        b.legalName, b.status, b.entityType, fieldsText(b), b.tcrBrandId, b.identityStatus, b.vettingProvider, b.vettingClass,
        b.vettingScore, text(b.carrierSuspended), text(b.compliancePages), text(b.pageConfig), b.rejectionReason, b.updatedAt, b.id,
      );
  }

  /** The account's brand, or undefined (another account's brand is as good as missing). */
  async get(accountId: string, id: string): Promise<BrandRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM brands WHERE id = ? AND account_id = ?').get(id, accountId) as BrandRow | undefined;
    return row && toRecord(row);
  }

  /** Unscoped: for the registry's jobs and the public hosted pages (which know only the brand id). */
  async getById(id: string): Promise<BrandRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM brands WHERE id = ?').get(id) as BrandRow | undefined;
    return row && toRecord(row);
  }

  /** spec: Brand — a list of brands is a page envelope, newest first. */
  async list(accountId: string, f: BrandFilters, limit: number, cursor?: string): Promise<Page<BrandRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (f.status) {
      where.push('status = ?');
      params.push(f.status);
    }
    return await keysetPage<BrandRow, BrandRecord>(this.db, { from: 'brands', where, params, limit, cursor, map: toRecord });
  }
}
