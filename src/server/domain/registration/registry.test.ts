import { describe, expect, it } from 'vitest';
import { defaultCompliancePages, registryBrandVerdict, vettingScoreOf } from './brands.js';
import { campaignVerdict } from './campaigns.js';
import type { BrandRecord } from '../../storage/brands-repo.js';
import type { CampaignRecord } from '../../storage/campaigns-repo.js';
import { GOOD_BRAND, GOOD_CAMPAIGN, WEAK_CAMPAIGN } from '../../../../test/registration-fixtures.js';

// The registry's pure rules: the EIN rule (contract §7), the vetting score, the default page texts,
// and the campaign verdict from the approval prediction.

const brand = (over: Partial<BrandRecord> = {}): BrandRecord => ({
  id: 'b1', accountId: 'a1', legalName: 'Acme Widgets Inc', status: 'submitted', mock: false, entityType: null, fields: {},
  tcrBrandId: null, identityStatus: null, vettingProvider: null, vettingClass: null, vettingScore: null, carrierSuspended: null,
  compliancePages: null, pageConfig: null, rejectionReason: null, submittedAt: 0, mode: 'live', createdAt: 0, updatedAt: 0, ...over,
});

describe('registryBrandVerdict (contract §7)', () => {
  it.each(['PRIVATE_PROFIT', 'PUBLIC_PROFIT'] as const)('%s without an EIN is rejected; with one approved', (entityType) => {
    expect(registryBrandVerdict(brand({ entityType }))).toMatchObject({ decision: 'rejected', reason: expect.stringContaining(entityType) });
    expect(registryBrandVerdict(brand({ entityType, fields: { ein: '' } })).decision).toBe('rejected');
    expect(registryBrandVerdict(brand({ entityType, fields: { ein: '12-3456789' } }))).toEqual({ decision: 'approved' });
  });
  it.each(['NON_PROFIT', 'GOVERNMENT', 'SOLE_PROPRIETOR', null] as const)('%s needs no EIN', (entityType) => {
    expect(registryBrandVerdict(brand({ entityType }))).toEqual({ decision: 'approved' });
  });
});

describe('vettingScoreOf', () => {
  it('40 plus 5 per field given, plus 10 when enhanced, at most 100', () => {
    expect(vettingScoreOf(brand(), 'STANDARD')).toBe(40);
    expect(vettingScoreOf(brand(), 'ENHANCED')).toBe(50);
    expect(vettingScoreOf(brand({ entityType: 'NON_PROFIT', fields: { ein: '12-3456789', website: 'https://a.example', email: null } }), 'STANDARD')).toBe(55);
    // Every field in its contract §7 format (the score counts fields given, not their content).
    const every = {
      ein: '12-3456789', website: 'https://a.example', email: 'hi@a.example', phone: '+14155550100', street: '1 Main St', city: 'Springfield',
      state: 'IL', postalCode: '62701', country: 'US', stockSymbol: 'ACME', stockExchange: 'NYSE', vertical: 'RETAIL', displayName: 'Acme',
    };
    expect(vettingScoreOf(brand({ fields: every }), 'ENHANCED')).toBe(100);
  });
});

describe('defaultCompliancePages', () => {
  it('names the brand (display name first) and carries STOP/HELP and the rates disclosure; contacts when given', () => {
    const p = defaultCompliancePages({ legalName: 'Acme Widgets Inc', fields: { displayName: 'Acme', email: 'hi@acme.example', website: 'https://acme.example' } });
    expect(p.optIn).toContain('from Acme at');
    expect(p.optIn).toMatch(/STOP/);
    expect(p.optIn).toMatch(/rates may apply/);
    expect(p.privacy).toContain('Acme Widgets Inc');
    expect(p.privacy).toContain('https://acme.example');
    expect(p.messagingTerms).toMatch(/HELP/);
    expect(p.messagingTerms).toContain('hi@acme.example');
    const bare = defaultCompliancePages({ legalName: 'Solo', fields: {} });
    expect(bare.optIn).toContain('from Solo at');
    expect(bare.messagingTerms).not.toContain('Questions');
  });
});

describe('campaignVerdict (contract §7: approved at the approval score)', () => {
  const campaign = (content: Record<string, unknown>): CampaignRecord => {
    const { name, useCase, ...rest } = content as { name: string; useCase: string };
    return {
      id: 'c1', accountId: 'a1', brandId: 'b1', name, useCase, status: 'dca_review', content: rest as CampaignRecord['content'], tcrCampaignId: null, mock: false,
      cnpSharingStatus: 'none', mnoMetadata: null, remediationAttempts: 0, lastRejectionReason: null, mode: 'live', createdAt: 0, updatedAt: 0,
    };
  };
  const good = brand({ legalName: GOOD_BRAND.legalName, entityType: 'PRIVATE_PROFIT', fields: { ...GOOD_BRAND } as never });
  it('a complete campaign is approved', () => {
    expect(campaignVerdict(good, campaign({ ...GOOD_CAMPAIGN }))).toEqual({ decision: 'approved' });
  });
  it('a weak one is rejected with its score and every failed check', () => {
    const v = campaignVerdict(good, campaign({ ...WEAK_CAMPAIGN }));
    expect(v.decision).toBe('rejected');
    expect(v.decision === 'rejected' && v.reason).toMatch(/^approval score \d+ is below 60; failed checks: .+; .+/);
  });
});
