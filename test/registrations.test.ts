import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { failInserts } from './helpers/inspect.js';
import { buy, expectError } from './messages-fixtures.js';
import { GOOD_BRAND, GOOD_CAMPAIGN, WEAK_CAMPAIGN } from './registration-fixtures.js';
import { PRICES } from '../src/api/values/prices.js';
import { REGISTRY_TIMINGS } from '../src/api/values/registration.js';
import { fundAccount } from './helpers/money.js';
import { chargesFor } from './helpers/inspect.js';

// contract §7: the combined registration, atomic; its draft campaign follows its brand.

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
  // This file buys, registers and calls more than a new account's wallet covers (contract §11).
  await fundAccount(svc, svc.bootstrap.accountId);
});
afterAll(async () => {
  await svc.stop();
});

const register = (body: unknown, key?: string) => svc.call('POST', '/v1/registrations', { key, body });
const count = async (path: string) => (await svc.call('GET', `${path}?limit=100`)).body.data.length;
const charges = async () => await chargesFor(svc, svc.bootstrap.accountId);

describe('POST /v1/registrations', () => {
  it('creates a submitted brand and a draft campaign, without complianceUrls; the brand approval submits the campaign, which the clock then approves', async () => {
    const r = await register({ brand: GOOD_BRAND, campaign: GOOD_CAMPAIGN });
    expect(r.status).toBe(201);
    const { brand, campaign } = r.body;
    expect(brand).toMatchObject({ legalName: GOOD_BRAND.legalName, status: 'submitted', mock: false });
    expect(brand).not.toHaveProperty('complianceUrls');
    expect(campaign).toMatchObject({ brandId: brand.id, status: 'draft', name: GOOD_CAMPAIGN.name, cnpSharingStatus: 'none' });
    // both fees, live key
    const mine = (await charges()).filter((c) => c.ref === brand.id || c.ref === campaign.id);
    expect(mine.map((c) => [c.category, c.amountCents]).sort()).toEqual([
      ['brand_registration', PRICES.brandRegistration],
      ['campaign_registration', PRICES.campaignRegistration],
    ]);
    // a draft may be edited while its brand waits
    const edited = await svc.call('PATCH', `/v1/campaigns/${campaign.id}`, { body: { ctaDetails: 'Checkbox on the booking form' } });
    expect(edited.body).toMatchObject({ status: 'draft', ctaDetails: 'Checkbox on the booking form' });
    expect((await svc.call('GET', `/v1/brands/${brand.id}`)).body.complianceUrls.optInUrl).toBe(`${svc.baseUrl}/p/${brand.id}/opt-in`);

    await svc.advanceJobs(REGISTRY_TIMINGS.brandDecisionSecs);
    expect((await svc.call('GET', `/v1/brands/${brand.id}`)).body.status).toBe('approved');
    expect((await svc.call('GET', `/v1/campaigns/${campaign.id}`)).body.status).toBe('submitted');
    await svc.advanceJobs(REGISTRY_TIMINGS.campaignDcaReviewSecs);
    expect((await svc.call('GET', `/v1/campaigns/${campaign.id}`)).body.status).toBe('dca_review');
    await svc.advanceJobs(REGISTRY_TIMINGS.campaignDecisionSecs);
    const approved = (await svc.call('GET', `/v1/campaigns/${campaign.id}`)).body;
    expect(approved).toMatchObject({ status: 'approved', tcrCampaignId: expect.any(String), ctaDetails: 'Checkbox on the booking form' });
    // and its numbers go live
    const n = await buy(svc, { areaCode: '415' });
    expect((await svc.call('POST', `/v1/numbers/${n.id}/assign`, { body: { campaignId: campaign.id } })).body.status).toBe('live');
  });

  it('a mock registration is decided at once: brand approved, campaign submitted and decided by the prediction; nothing is charged', async () => {
    const before = (await charges()).length;
    const good = await register({ brand: { ...GOOD_BRAND, mock: true }, campaign: GOOD_CAMPAIGN });
    expect(good.status).toBe(201);
    expect(good.body.brand).toMatchObject({ status: 'approved', mock: true, tcrBrandId: expect.any(String) });
    expect(good.body.campaign).toMatchObject({ status: 'approved', cnpSharingStatus: null, tcrCampaignId: expect.any(String) });
    const weak = await register({ brand: { ...GOOD_BRAND, mock: true }, campaign: WEAK_CAMPAIGN });
    expect(weak.body.campaign).toMatchObject({ status: 'rejected', lastRejectionReason: expect.stringContaining('failed checks') });
    expect((await charges()).length).toBe(before);
  });

  it('a rejected brand leaves its campaign draft; after a fix and an approval the campaign is submitted', async () => {
    const r = await register({ brand: { legalName: 'No Ein LLC', entityType: 'PRIVATE_PROFIT' }, campaign: GOOD_CAMPAIGN }, svc.bootstrap.testKey);
    const { brand, campaign } = r.body;
    await svc.advanceJobs(REGISTRY_TIMINGS.brandDecisionSecs);
    expect((await svc.call('GET', `/v1/brands/${brand.id}`)).body.status).toBe('rejected');
    expect((await svc.call('GET', `/v1/campaigns/${campaign.id}`)).body.status).toBe('draft');
    await svc.advanceJobs(REGISTRY_TIMINGS.campaignDcaReviewSecs + REGISTRY_TIMINGS.campaignDecisionSecs);
    expect((await svc.call('GET', `/v1/campaigns/${campaign.id}`)).body.status).toBe('draft');
    expectError(await svc.call('POST', `/v1/campaigns/${campaign.id}/resubmit`), 409, 'conflict');
    await svc.call('PATCH', `/v1/brands/${brand.id}`, { body: { ein: '55-5555555' } });
    await svc.call('POST', `/v1/brands/${brand.id}/resubmit`);
    await svc.call('POST', `/v1/sandbox/brands/${brand.id}/decision`, { body: { decision: 'approved' } });
    expect((await svc.call('GET', `/v1/campaigns/${campaign.id}`)).body.status).toBe('submitted');
    // a test key: nothing was charged along the way
    expect((await charges()).filter((c) => c.ref === brand.id || c.ref === campaign.id)).toEqual([]);
  });

  it('is atomic: a validation failure of either part creates nothing and charges nothing', async () => {
    const brands = await count('/v1/brands');
    const campaigns = await count('/v1/campaigns');
    const before = (await charges()).length;
    expectError(await register({ brand: GOOD_BRAND, campaign: { ...GOOD_CAMPAIGN, sampleMessages: [] } }), 400, 'validation_error', ['body', 'campaign', 'sampleMessages']);
    expectError(await register({ brand: { ...GOOD_BRAND, legalName: '' }, campaign: GOOD_CAMPAIGN }), 400, 'validation_error', ['body', 'brand', 'legalName']);
    expectError(await register({ brand: GOOD_BRAND }), 400, 'validation_error', ['body', 'campaign']);
    expectError(await register({ brand: GOOD_BRAND, campaign: { ...GOOD_CAMPAIGN, brandId: '00000000-0000-4000-8000-000000000000' } }), 400, 'validation_error');
    expect(await count('/v1/brands')).toBe(brands);
    expect(await count('/v1/campaigns')).toBe(campaigns);
    expect((await charges()).length).toBe(before);
  });

  it('is atomic in storage too: a campaign that fails to store rolls the brand back', async () => {
    const brands = await count('/v1/brands');
    const before = (await charges()).length;
    // The database itself refuses the campaign's row (a trigger, on either engine), after the brand's.
    const restore = await failInserts(svc, 'campaigns', 'disk full');
    try {
      const r = await register({ brand: GOOD_BRAND, campaign: GOOD_CAMPAIGN });
      expect(r.status).toBe(500);
      expect(r.text).not.toContain('disk full');
    } finally {
      await restore();
    }
    expect(await count('/v1/brands')).toBe(brands);
    expect((await charges()).length).toBe(before);
  });
});
