import { iso } from '../clock.js';
import type { CampaignRecord, CampaignSummaryRecord } from '../storage/campaigns-repo.js';
import type { Campaign, CampaignSummary } from '../../api/schemas/campaigns.js';

// Records → API shapes for campaigns (spec: Campaign, Campaign summary). Rules for reads: views/README.md.

export function campaignView(c: CampaignRecord): Campaign {
  const k = c.content;
  const s = (v: string | null | undefined): string | null => v ?? null;
  const b = (v: boolean | null | undefined): boolean | null => v ?? null;
  return {
    id: c.id,
    tenantId: c.accountId,
    brandId: c.brandId,
    name: c.name,
    useCase: c.useCase,
    status: c.status,
    tcrCampaignId: c.tcrCampaignId,
    sampleMessages: k.sampleMessages ?? [],
    optInDetails: s(k.optInDetails),
    ctaDetails: s(k.ctaDetails),
    description: s(k.description),
    subUsecases: k.subUsecases ?? null,
    subscriberOptin: b(k.subscriberOptin),
    subscriberOptout: b(k.subscriberOptout),
    subscriberHelp: b(k.subscriberHelp),
    embeddedLink: b(k.embeddedLink),
    embeddedPhone: b(k.embeddedPhone),
    numberPool: b(k.numberPool),
    ageGated: b(k.ageGated),
    directLending: b(k.directLending),
    affiliateMarketing: b(k.affiliateMarketing),
    termsAndConditions: b(k.termsAndConditions),
    optinKeywords: s(k.optinKeywords),
    optinMessage: s(k.optinMessage),
    optoutKeywords: s(k.optoutKeywords),
    optoutMessage: s(k.optoutMessage),
    helpKeywords: s(k.helpKeywords),
    helpMessage: s(k.helpMessage),
    privacyPolicyLink: s(k.privacyPolicyLink),
    termsAndConditionsLink: s(k.termsAndConditionsLink),
    websiteUrl: s(k.websiteUrl),
    mnoMetadata: c.mnoMetadata,
    cnpSharingStatus: c.cnpSharingStatus,
    remediationAttempts: c.remediationAttempts,
    lastRejectionReason: c.lastRejectionReason,
    createdAt: iso(c.createdAt),
    updatedAt: iso(c.updatedAt),
  };
}

/** spec: Campaign summary — `brandName` is the brand's legal name, `numbers` the count of assigned numbers. */
export const campaignSummaryView = (c: CampaignSummaryRecord): CampaignSummary => ({
  id: c.id,
  name: c.name,
  useCase: c.useCase,
  status: c.status,
  tcrCampaignId: c.tcrCampaignId,
  cnpSharingStatus: c.cnpSharingStatus,
  brandName: c.brandName,
  numbers: c.numbers,
});
