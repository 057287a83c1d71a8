// Columns of brands and campaigns on a terminal, shared by the brands, campaigns and registrations verbs.
export const BRAND_LIST_COLUMNS = ['id', 'legalName', 'entityType', 'status', 'identityStatus', 'mock', 'tcrBrandId', 'createdAt'];
export const BRAND_COLUMNS = ['id', 'legalName', 'displayName', 'entityType', 'ein', 'website', 'email', 'status', 'identityStatus', 'tcrBrandId', 'mock', 'vettingScore', 'rejectionReason', 'complianceUrls', 'createdAt'];
export const CAMPAIGN_LIST_COLUMNS = ['id', 'name', 'useCase', 'status', 'brandName', 'numbers', 'cnpSharingStatus', 'tcrCampaignId'];
export const CAMPAIGN_COLUMNS = ['id', 'brandId', 'name', 'useCase', 'status', 'tcrCampaignId', 'sampleMessages', 'remediationAttempts', 'lastRejectionReason', 'createdAt'];
