import type { Page } from '../../api/schemas/page.js';
import type { CampaignContentBody } from '../../api/schemas/campaigns.js';
import type { CampaignStatus } from '../../api/values/registration.js';
import type { KeyMode } from '../../api/values/keys.js';

// spec: Campaign (10DLC). Migration 2 made the columns numbers read (assign, send); migration 8 added
// the rest: `content` is the campaign create request without brandId (JSON). A row without it reads
// as an empty campaign.
export type { CampaignStatus };
export type CnpSharingStatus = 'none' | 'pending' | 'accepted' | 'declined';

/** The create request's optional parts, as stored (name and useCase are columns). */
export type CampaignContent = Omit<CampaignContentBody, 'name' | 'useCase'>;

export interface CampaignRecord {
  id: string;
  accountId: string;
  brandId: string;
  name: string;
  useCase: string;
  status: CampaignStatus;
  content: CampaignContent;
  tcrCampaignId: string | null;
  mock: boolean;
  cnpSharingStatus: CnpSharingStatus | null;
  mnoMetadata: Record<string, unknown> | null;
  /** spec: Campaign — times a rejected campaign was resubmitted; also tells a decision job its submission. */
  remediationAttempts: number;
  lastRejectionReason: string | null;
  /** The mode of the key that created it; contract §2: a live one is a live key's to change. */
  mode: KeyMode;
  createdAt: number;
  updatedAt: number;
}

/** spec: Campaign summary — a campaign with its brand's legal name and its count of assigned numbers. */
export interface CampaignSummaryRecord extends CampaignRecord {
  brandName: string | null;
  numbers: number;
}

export interface CampaignFilters {
  status?: CampaignStatus;
  brandId?: string;
}

export interface CampaignsRepo {
  insert(c: CampaignRecord): Promise<void>;
  /** Writes every mutable column of the record. */
  save(c: CampaignRecord): Promise<void>;
  /** The account's campaign, or undefined (another account's campaign is as good as missing). */
  get(accountId: string, id: string): Promise<CampaignRecord | undefined>;
  /** Unscoped, for the registry's jobs. */
  getById(id: string): Promise<CampaignRecord | undefined>;
  /** The brand's campaigns in a status, oldest first (a brand's approval submits its drafts). */
  listForBrand(brandId: string, status: CampaignStatus): Promise<CampaignRecord[]>;
  /** spec: Campaign summary — newest first, with the brand's legal name and the count of assigned numbers. */
  listSummaries(accountId: string, f: CampaignFilters, limit: number, cursor?: string): Promise<Page<CampaignSummaryRecord>>;
  setStatus(id: string, status: CampaignStatus, now: number): Promise<void>;
  /** Campaign names by id, for rendering numbers (one query for a whole page). */
  namesByIds(ids: readonly string[]): Promise<Map<string, string>>;
}

