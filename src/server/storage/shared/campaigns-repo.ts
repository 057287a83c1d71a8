import type { Dialect, Statements } from './statements.js';
import type { Page } from '../../../api/schemas/page.js';
import type { CampaignStatus } from '../../../api/values/registration.js';
import { keysetPage } from './keyset-page.js';
import { asIs, json, table, yesNo, type Keeping, type Row } from './table.js';
import type { CampaignContent, CampaignRecord, CampaignSummaryRecord, CampaignFilters, CampaignsRepo } from '../campaigns-repo.js';

// spec: Campaign (10DLC). Migration 2 made the columns numbers read (assign, send); migration 8 added
// the rest: `content` is the campaign create request without brandId (JSON). A row without it reads
// as an empty campaign.
const EMPTY_CONTENT: CampaignContent = { description: '', optInDetails: '', sampleMessages: [] };
const content: Keeping = { read: (c) => (c === null ? EMPTY_CONTENT : json.read(c)), write: json.write };

const CAMPAIGNS = table<CampaignRecord>('campaigns', {
  id: asIs,
  accountId: asIs,
  brandId: asIs,
  name: asIs,
  useCase: asIs,
  status: asIs,
  content,
  tcrCampaignId: asIs,
  mock: yesNo,
  cnpSharingStatus: asIs,
  mnoMetadata: json,
  remediationAttempts: asIs,
  lastRejectionReason: asIs,
  mode: asIs,
  createdAt: asIs,
  updatedAt: asIs,
});

/** What a save writes: every mutable column. */
const SAVED = ['name', 'useCase', 'status', 'content', 'tcrCampaignId', 'cnpSharingStatus', 'mnoMetadata', 'remediationAttempts', 'lastRejectionReason', 'updatedAt'] as const;

export class SqlCampaignsRepo implements CampaignsRepo {
  constructor(
    private readonly db: Statements,
    private readonly dialect: Dialect,
  ) {}

  async insert(c: CampaignRecord): Promise<void> {
    await this.db.prepare(CAMPAIGNS.insertSql()).run(...CAMPAIGNS.values(c, this.dialect));
  }

  async save(c: CampaignRecord): Promise<void> {
    await this.db.prepare(`UPDATE campaigns SET ${CAMPAIGNS.setSql(SAVED)} WHERE id = ?`).run(...CAMPAIGNS.values(c, this.dialect, SAVED), c.id);
  }

  async get(accountId: string, id: string): Promise<CampaignRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM campaigns WHERE id = ? AND account_id = ?').get(id, accountId) as Row | undefined;
    return row && CAMPAIGNS.read(row);
  }

  async getById(id: string): Promise<CampaignRecord | undefined> {
    const row = await this.db.prepare('SELECT * FROM campaigns WHERE id = ?').get(id) as Row | undefined;
    return row && CAMPAIGNS.read(row);
  }

  async listForBrand(brandId: string, status: CampaignStatus): Promise<CampaignRecord[]> {
    return (await this.db.prepare('SELECT * FROM campaigns WHERE brand_id = ? AND status = ? ORDER BY seq').all(brandId, status) as Row[]).map(CAMPAIGNS.read);
  }

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
    return await keysetPage(this.db, {
      from: 'campaigns c LEFT JOIN brands b ON b.id = c.brand_id',
      alias: 'c.',
      select: 'c.*, b.legal_name AS brand_name, (SELECT COUNT(*) FROM numbers n WHERE n.campaign_id = c.id) AS numbers_count',
      where,
      params,
      limit,
      cursor,
      map: (r: Row): CampaignSummaryRecord => ({ ...CAMPAIGNS.read(r), brandName: r.brand_name as string | null, numbers: r.numbers_count as number }),
    });
  }

  async setStatus(id: string, status: CampaignStatus, now: number): Promise<void> {
    await this.db.prepare('UPDATE campaigns SET status = ?, updated_at = ? WHERE id = ?').run(status, now, id);
  }

  async namesByIds(ids: readonly string[]): Promise<Map<string, string>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await this.db
      .prepare(`SELECT id, name FROM campaigns WHERE id IN (${unique.map(() => '?').join(',')})`)
      .all(...unique) as Array<{ id: string; name: string }>;
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
