// The campaigns family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL (a flag column reads through `flag`: 0/1 in SQLite, a boolean in PostgreSQL).
import type { CampaignStatus } from '../../../api/values/registration.js';
import type { KeyMode } from '../../../api/values/keys.js';
import type { CnpSharingStatus, CampaignContent, CampaignRecord } from '../campaigns-repo.js';
import { flag, type StoredFlag } from './stored-flag.js';

// spec: Campaign (10DLC). Migration 2 made the columns numbers read (assign, send); migration 8 added
// the rest: `content` is the campaign create request without brandId (JSON). A row without it reads
// as an empty campaign.

export interface CampaignRow {
  seq: number;
  id: string;
  account_id: string;
  brand_id: string;
  name: string;
  use_case: string;
  status: CampaignStatus;
  content: string | null;
  tcr_campaign_id: string | null;
  mock: StoredFlag;
  cnp_sharing_status: CnpSharingStatus | null;
  mno_metadata: string | null;
  remediation_attempts: number;
  last_rejection_reason: string | null;
  mode: KeyMode;
  created_at: number;
  updated_at: number;
}

const EMPTY_CONTENT: CampaignContent = { description: '', optInDetails: '', sampleMessages: [] };

export const toRecord = (r: CampaignRow): CampaignRecord => ({
  id: r.id,
  accountId: r.account_id,
  brandId: r.brand_id,
  name: r.name,
  useCase: r.use_case,
  status: r.status,
  content: r.content === null ? EMPTY_CONTENT : (JSON.parse(r.content) as CampaignContent),
  tcrCampaignId: r.tcr_campaign_id,
  mock: flag(r.mock),
  cnpSharingStatus: r.cnp_sharing_status,
  mnoMetadata: r.mno_metadata === null ? null : (JSON.parse(r.mno_metadata) as Record<string, unknown>),
  remediationAttempts: r.remediation_attempts,
  lastRejectionReason: r.last_rejection_reason,
  mode: r.mode,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
