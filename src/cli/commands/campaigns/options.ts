import { CAMPAIGN_FIELDS, fieldValues } from '../brands/fields.js';

// The campaigns verbs' flags as commander gives them, and the options their run module works with.

/** Here the campaign's name is `--name` (in `brands register` it is `--campaign-name`). */
export const CAMPAIGN_RENAME = { name: '--name' } as const;

export interface CreateCampaignOptions {
  brand?: string;
  /** Flags by API name; a list one item per line. */
  fields: Record<string, string | undefined>;
  file?: string;
}

export const createCampaignOptionsOf = (o: Record<string, unknown>): CreateCampaignOptions => ({
  brand: o.brand as string | undefined,
  fields: fieldValues(o, CAMPAIGN_FIELDS, CAMPAIGN_RENAME),
  file: o.file as string | undefined,
});

export interface UpdateCampaignOptions {
  campaign: string;
  fields: Record<string, string | undefined>;
  file?: string;
}

export const updateCampaignOptionsOf = (o: Record<string, unknown>): UpdateCampaignOptions => ({
  campaign: o.campaign as string,
  fields: fieldValues(o, CAMPAIGN_FIELDS, CAMPAIGN_RENAME),
  file: o.file as string | undefined,
});

export interface ListCampaignsOptions {
  limit?: string;
  all?: boolean;
  cursor?: string;
  status?: string;
  brand?: string;
}

export interface CampaignArg {
  campaign: string;
}

export interface LintCampaignOptions {
  file: string;
}
