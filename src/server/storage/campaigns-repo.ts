import type { Db } from './database.js';
import type { CampaignStatus } from '../../api/values/registration.js';

// spec: Campaign (10DLC). Only the fields numbers need today (assign, send); the registration work
// adds the rest (migration 8 has its columns).
export type { CampaignStatus };

export interface CampaignRecord {
  id: string;
  accountId: string;
  brandId: string;
  name: string;
  useCase: string;
  status: CampaignStatus;
  createdAt: number;
  updatedAt: number;
}

interface CampaignRow {
  seq: number;
  id: string;
  account_id: string;
  brand_id: string;
  name: string;
  use_case: string;
  status: CampaignStatus;
  created_at: number;
  updated_at: number;
}

const toRecord = (r: CampaignRow): CampaignRecord => ({
  id: r.id,
  accountId: r.account_id,
  brandId: r.brand_id,
  name: r.name,
  useCase: r.use_case,
  status: r.status,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class CampaignsRepo {
  constructor(private readonly db: Db) {}

  insert(c: CampaignRecord): void {
    this.db
      .prepare(
        'INSERT INTO campaigns (id, account_id, brand_id, name, use_case, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(c.id, c.accountId, c.brandId, c.name, c.useCase, c.status, c.createdAt, c.updatedAt);
  }

  /** The account's campaign, or undefined (another account's campaign is as good as missing). */
  get(accountId: string, id: string): CampaignRecord | undefined {
    const row = this.db.prepare('SELECT * FROM campaigns WHERE id = ? AND account_id = ?').get(id, accountId) as CampaignRow | undefined;
    return row && toRecord(row);
  }

  setStatus(id: string, status: CampaignStatus, now: number): void {
    this.db.prepare('UPDATE campaigns SET status = ?, updated_at = ? WHERE id = ?').run(status, now, id);
  }

  /** Campaign names by id, for rendering numbers (one query for a whole page). */
  namesByIds(ids: readonly string[]): Map<string, string> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = this.db
      .prepare(`SELECT id, name FROM campaigns WHERE id IN (${unique.map(() => '?').join(',')})`)
      .all(...unique) as Array<{ id: string; name: string }>;
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
