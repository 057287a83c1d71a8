import type { Dialect, Statements } from './statements.js';
import type { Page } from '../../../api/schemas/page.js';
import { keysetPage } from './keyset-page.js';
import { asIs, json, table, yesNo, type Row } from './table.js';
import type { BrandFields, BrandRecord, BrandFilters, BrandsRepo } from '../brands-repo.js';

// spec: Brand (10DLC). The registration request's optional strings live in `fields` (JSON, the spec's
// names as keys, migration 8); what rules and lists read are columns.

/** A brand as its row keeps it: `submittedAt` inside the `fields` JSON, under SUBMITTED_AT_KEY. */
type BrandColumns = Omit<BrandRecord, 'fields' | 'submittedAt'> & { fields: Record<string, unknown> };
const SUBMITTED_AT_KEY = '_submittedAt';

const BRANDS = table<BrandColumns>('brands', {
  id: asIs,
  accountId: asIs,
  legalName: asIs,
  status: asIs,
  mock: yesNo,
  entityType: asIs,
  fields: json,
  tcrBrandId: asIs,
  identityStatus: asIs,
  vettingProvider: asIs,
  vettingClass: asIs,
  vettingScore: asIs,
  carrierSuspended: json,
  compliancePages: json,
  pageConfig: json,
  rejectionReason: asIs,
  mode: asIs,
  createdAt: asIs,
  updatedAt: asIs,
});

/** What a save writes: every mutable column. */
const SAVED = [
  'legalName', 'status', 'entityType', 'fields', 'tcrBrandId', 'identityStatus', 'vettingProvider', 'vettingClass', 'vettingScore',
  'carrierSuspended', 'compliancePages', 'pageConfig', 'rejectionReason', 'updatedAt',
] as const;

const toRecord = (row: Row): BrandRecord => {
  const b = BRANDS.read(row);
  const { [SUBMITTED_AT_KEY]: submittedAt, ...fields } = b.fields;
  return { ...b, fields: fields as BrandFields, submittedAt: typeof submittedAt === 'number' ? submittedAt : null };
};

const toColumns = (b: BrandRecord): BrandColumns => ({
  ...b,
  fields: b.submittedAt === null ? b.fields : { ...b.fields, [SUBMITTED_AT_KEY]: b.submittedAt },
});

export class SqlBrandsRepo implements BrandsRepo {
  constructor(
    private readonly db: Statements,
    private readonly dialect: Dialect,
  ) {}

  async insert(b: BrandRecord): Promise<void> {
    await this.db.prepare(BRANDS.insertSql()).run(...BRANDS.values(toColumns(b), this.dialect));
  }

  async save(b: BrandRecord): Promise<void> {
    await this.db.prepare(`UPDATE brands SET ${BRANDS.setSql(SAVED)} WHERE id = ?`).run(...BRANDS.values(toColumns(b), this.dialect, SAVED), b.id);
  }

  async get(accountId: string, id: string): Promise<BrandRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM brands WHERE id = ? AND account_id = ?').get(id, accountId) as Row | undefined;
    return row && toRecord(row);
  }

  async getById(id: string): Promise<BrandRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM brands WHERE id = ?').get(id) as Row | undefined;
    return row && toRecord(row);
  }

  async list(accountId: string, f: BrandFilters, limit: number, cursor?: string): Promise<Page<BrandRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (f.status) {
      where.push('status = ?');
      params.push(f.status);
    }
    return await keysetPage(this.db, { from: 'brands', where, params, limit, cursor, map: toRecord });
  }
}
