import type { Dialect, Statements } from './statements.js';
import type { Page } from '../../../api/schemas/page.js';
import { keysetPage } from './keyset-page.js';
import type { BrandRecord, BrandFilters, BrandsRepo } from '../brands-repo.js';
import { BrandRow, text, toRecord, fieldsText } from '../rows/brands.js';

export class SqlBrandsRepo implements BrandsRepo {
  constructor(
    private readonly db: Statements,
    private readonly dialect: Dialect,
  ) {}

  async insert(b: BrandRecord): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO brands (id, account_id, legal_name, status, mock, entity_type, fields, tcr_brand_id, identity_status,
           vetting_provider, vetting_class, vetting_score, carrier_suspended, compliance_pages, page_config, rejection_reason,
           mode, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        b.id, b.accountId, b.legalName, b.status, this.dialect.flag(b.mock), b.entityType, fieldsText(b), b.tcrBrandId, b.identityStatus,
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
