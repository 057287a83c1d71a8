import type { Dialect, Statements } from './statements.js';
import type { Page } from '../../../api/schemas/page.js';
import type { CampaignStatus } from '../../../api/values/registration.js';
import { keysetPage } from './keyset-page.js';
import type { CampaignRecord, CampaignSummaryRecord, CampaignFilters, CampaignsRepo } from '../campaigns-repo.js';
import { CampaignRow, toRecord } from '../rows/campaigns.js';

export class SqlCampaignsRepo implements CampaignsRepo {
  constructor(
    private readonly db: Statements,
    private readonly dialect: Dialect,
  ) {}

  async insert(c: CampaignRecord): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO campaigns (id, account_id, brand_id, name, use_case, status, content, tcr_campaign_id, mock, cnp_sharing_status,
           mno_metadata, remediation_attempts, last_rejection_reason, mode, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        c.id, c.accountId, c.brandId, c.name, c.useCase, c.status, JSON.stringify(c.content), c.tcrCampaignId, this.dialect.flag(c.mock),
        c.cnpSharingStatus, c.mnoMetadata === null ? null : JSON.stringify(c.mnoMetadata), c.remediationAttempts,
        c.lastRejectionReason, c.mode, c.createdAt, c.updatedAt,
      );
  }

  /** Writes every mutable column of the record. */
  async save(c: CampaignRecord): Promise<void> {
    await this.db
      .prepare(
        `UPDATE campaigns SET name = ?, use_case = ?, status = ?, content = ?, tcr_campaign_id = ?, cnp_sharing_status = ?,
           mno_metadata = ?, remediation_attempts = ?, last_rejection_reason = ?, updated_at = ?
         WHERE id = ?`,
      )
      .run(
        c.name, c.useCase, c.status, JSON.stringify(c.content), c.tcrCampaignId, c.cnpSharingStatus,
        c.mnoMetadata === null ? null : JSON.stringify(c.mnoMetadata), c.remediationAttempts, c.lastRejectionReason, c.updatedAt, c.id,
      );
  }

  /** The account's campaign, or undefined (another account's campaign is as good as missing). */
  async get(accountId: string, id: string): Promise<CampaignRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM campaigns WHERE id = ? AND account_id = ?').get(id, accountId) as CampaignRow | undefined;
    return row && toRecord(row);
  }

  /** Unscoped, for the registry's jobs. */
  async getById(id: string): Promise<CampaignRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM campaigns WHERE id = ?').get(id) as CampaignRow | undefined;
    return row && toRecord(row);
  }

  /** The brand's campaigns in a status, oldest first (a brand's approval submits its drafts). */
  async listForBrand(brandId: string, status: CampaignStatus): Promise<CampaignRecord[]> {
    return (await this.db.prepare('SELECT * FROM campaigns WHERE brand_id = ? AND status = ? ORDER BY seq').all(brandId, status) as CampaignRow[]).map(toRecord);
  }

  /** spec: Campaign summary — newest first, with the brand's legal name and the count of assigned numbers. */
  async listSummaries(accountId: string, f: CampaignFilters, limit: number, cursor?: string): Promise<Page<CampaignSummaryRecord>> {
    const where = ['c.account_id = ?'];
    const params: unknown[] = [accountId];
    if (f.status) {
      where.push('c.status = ?');
      params.push(f.status);
    }
    if (f.brandId) {
      where.push('c.brand_id = ?');
      params.push(f.brandId);
    }
    return await keysetPage<CampaignRow & { brand_name: string | null; numbers_count: number }, CampaignSummaryRecord>(this.db, {
      from: 'campaigns c LEFT JOIN brands b ON b.id = c.brand_id',
      alias: 'c.',
      select: 'c.*, b.legal_name AS brand_name, (SELECT COUNT(*) FROM numbers n WHERE n.campaign_id = c.id) AS numbers_count',
      where,
      params,
      limit,
      cursor,
      map: (r) => ({ ...toRecord(r), brandName: r.brand_name, numbers: r.numbers_count }),
    });
  }

  async setStatus(id: string, status: CampaignStatus, now: number): Promise<void> {
    await this.db.prepare('UPDATE campaigns SET status = ?, updated_at = ? WHERE id = ?').run(status, now, id);
  }

  /** Campaign names by id, for rendering numbers (one query for a whole page). */
  async namesByIds(ids: readonly string[]): Promise<Map<string, string>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await this.db
      .prepare(`SELECT id, name FROM campaigns WHERE id IN (${unique.map(() => '?').join(',')})`)
      .all(...unique) as Array<{ id: string; name: string }>;
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
