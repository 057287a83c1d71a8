import { createHash } from 'node:crypto';

// Decision (the spec says only "registry brand id once registered"): the registry's ids look like the
// real registry's — a letter and six upper-case characters — and are derived from our id, so the same
// brand or campaign always gets the same registry id (a resubmit after a rejection keeps it stable).
const registryId = (letter: 'B' | 'C', id: string): string =>
  letter + createHash('sha256').update(id).digest('hex').slice(0, 6).toUpperCase();

export const tcrBrandIdFor = (brandId: string): string => registryId('B', brandId);
export const tcrCampaignIdFor = (campaignId: string): string => registryId('C', campaignId);
