import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { buy, expectError } from './messages-fixtures.js';
import { GOOD_BRAND, GOOD_CAMPAIGN, WEAK_CAMPAIGN, approvedCampaign, mockBrand, submittedCampaign } from './registration-fixtures.js';
import { PRICES } from '../src/api/values/prices.js';
import { REGISTRY_TIMINGS } from '../src/api/values/registration.js';
import { fundAccount } from './helpers/money.js';
import { chargesFor } from './helpers/inspect.js';

// contract §7 (campaigns), §9 (sandbox campaign decisions), §11 (campaign price); spec: Campaign, Campaign summary.

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
  // This file buys, registers and calls more than a new account's wallet covers (contract §11).
  await fundAccount(svc, svc.bootstrap.accountId);
});
afterAll(async () => {
  await svc.stop();
});

const charges = async (ref: string, accountId = svc.bootstrap.accountId) => await chargesFor(svc, accountId, ref);
const get = async (id: string, o: { headers?: Record<string, string> } = {}) => (await svc.call('GET', `/v1/campaigns/${id}`, o)).body;

/** A real brand of the account, approved through the sandbox. */
async function approvedBrand(key?: string): Promise<any> {
  const b = await svc.call('POST', '/v1/brands', { key, body: GOOD_BRAND });
  await svc.call('POST', `/v1/sandbox/brands/${b.body.id}/decision`, { key, body: { decision: 'approved' } });
  return b.body;
}

describe('POST /v1/campaigns', () => {
  it('registers under an approved brand as submitted, cnpSharingStatus none, with the live campaign charge', async () => {
    const brand = await approvedBrand();
    const r = await svc.call('POST', '/v1/campaigns', { body: { ...GOOD_CAMPAIGN, brandId: brand.id } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      brandId: brand.id,
      tenantId: svc.bootstrap.accountId,
      name: GOOD_CAMPAIGN.name,
      status: 'submitted',
      sampleMessages: GOOD_CAMPAIGN.sampleMessages,
      privacyPolicyLink: GOOD_CAMPAIGN.privacyPolicyLink,
      ctaDetails: null,
      subUsecases: null,
      numberPool: null,
      subscriberOptin: true,
      tcrCampaignId: null,
      mnoMetadata: null,
      cnpSharingStatus: 'none',
      remediationAttempts: 0,
      lastRejectionReason: null,
    });
    expect(await get(r.body.id)).toEqual(r.body);
    expect(await charges(r.body.id)).toEqual([expect.objectContaining({ category: 'campaign_registration', quantity: 1, amountCents: PRICES.campaignRegistration })]);
  });

  it('a brand that is not approved is a 409; an unknown brand 404; bad bodies 400; nothing is created', async () => {
    const submitted = (await svc.call('POST', '/v1/brands', { body: { legalName: 'Waiting Co' } })).body;
    const before = (await svc.call('GET', '/v1/campaigns?limit=100')).body.data.length;
    expectError(await svc.call('POST', '/v1/campaigns', { body: { ...GOOD_CAMPAIGN, brandId: submitted.id } }), 409, 'conflict');
    const rejected = (await svc.call('POST', '/v1/brands', { body: { legalName: 'Nope Co' } })).body;
    await svc.call('POST', `/v1/sandbox/brands/${rejected.id}/decision`, { body: { decision: 'rejected' } });
    expectError(await svc.call('POST', '/v1/campaigns', { body: { ...GOOD_CAMPAIGN, brandId: rejected.id } }), 409, 'conflict');
    expectError(await svc.call('POST', '/v1/campaigns', { body: { ...GOOD_CAMPAIGN, brandId: '00000000-0000-4000-8000-000000000000' } }), 404, 'not_found');
    expectError(await svc.call('POST', '/v1/campaigns', { body: { ...GOOD_CAMPAIGN, brandId: 'x' } }), 400, 'validation_error', ['body', 'brandId']);
    expectError(await svc.call('POST', '/v1/campaigns', { body: { ...GOOD_CAMPAIGN, sampleMessages: [], brandId: submitted.id } }), 400, 'validation_error', ['body', 'sampleMessages']);
    const { description: _d, ...noDescription } = GOOD_CAMPAIGN;
    expectError(await svc.call('POST', '/v1/campaigns', { body: { ...noDescription, brandId: submitted.id } }), 400, 'validation_error', ['body', 'description']);
    expect((await svc.call('GET', '/v1/campaigns?limit=100')).body.data.length).toBe(before);
  });

  it("a mock brand's campaign is mock: decided at once by the prediction, never charged, cannot be shared (cnpSharingStatus null)", async () => {
    const good = await approvedCampaign(svc);
    expect(good).toMatchObject({ status: 'approved', tcrCampaignId: expect.stringMatching(/^C[0-9A-F]{6}$/), cnpSharingStatus: null, lastRejectionReason: null });
    expect(Object.keys(good.mnoMetadata).length).toBeGreaterThan(0);
    expect(await charges(good.id)).toEqual([]);
    const brand = await mockBrand(svc);
    const weak = await svc.call('POST', '/v1/campaigns', { body: { ...WEAK_CAMPAIGN, brandId: brand.id } });
    expect(weak.body).toMatchObject({ status: 'rejected', tcrCampaignId: null, lastRejectionReason: expect.stringMatching(/approval score \d+ is below 60; failed checks: /) });
    expect(weak.body.lastRejectionReason).toMatch(/STOP/);
  });

  it('a mock campaign fixed and resubmitted is decided again at once, with no clock advance (contract §7)', async () => {
    const brand = await mockBrand(svc);
    const weak = (await svc.call('POST', '/v1/campaigns', { body: { ...WEAK_CAMPAIGN, brandId: brand.id } })).body;
    expect(weak.status).toBe('rejected');
    const { name: _n, useCase: _u, ...fix } = GOOD_CAMPAIGN;
    expect((await svc.call('PATCH', `/v1/campaigns/${weak.id}`, { body: fix })).status).toBe(200);
    const again = await svc.call('POST', `/v1/campaigns/${weak.id}/resubmit`);
    expect(again.body).toMatchObject({ status: 'approved', remediationAttempts: 1, lastRejectionReason: null, tcrCampaignId: expect.stringMatching(/^C/) });
    expect(await charges(weak.id)).toEqual([]);
  });
});

describe('the registry on the service clock', () => {
  it('submitted → dca_review after 1 h → approved 24 h later when the prediction passes', async () => {
    const c = await submittedCampaign(svc);
    await svc.advanceJobs(REGISTRY_TIMINGS.campaignDcaReviewSecs - 1);
    expect((await get(c.id)).status).toBe('submitted');
    await svc.advanceJobs(1);
    expect((await get(c.id)).status).toBe('dca_review');
    await svc.advanceJobs(REGISTRY_TIMINGS.campaignDecisionSecs - 1);
    expect((await get(c.id)).status).toBe('dca_review');
    await svc.advanceJobs(1);
    const done = await get(c.id);
    expect(done).toMatchObject({ status: 'approved', tcrCampaignId: expect.stringMatching(/^C/), cnpSharingStatus: 'none', lastRejectionReason: null });
    expect(done.mnoMetadata).toBeTruthy();
  });

  it('a weak campaign is rejected with the failed checks; PATCH then resubmit counts a remediation and is reviewed again (through the sandbox clock)', async () => {
    const brand = await approvedBrand();
    const c = (await svc.call('POST', '/v1/campaigns', { body: { ...WEAK_CAMPAIGN, brandId: brand.id } })).body;
    expectError(await svc.call('PATCH', `/v1/campaigns/${c.id}`, { body: { name: 'Early edit' } }), 409, 'conflict');
    expectError(await svc.call('POST', `/v1/campaigns/${c.id}/resubmit`), 409, 'conflict');
    const adv = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: REGISTRY_TIMINGS.campaignDcaReviewSecs + REGISTRY_TIMINGS.campaignDecisionSecs } });
    expect(adv.status).toBe(200);
    const rejected = await get(c.id);
    expect(rejected).toMatchObject({ status: 'rejected', lastRejectionReason: expect.stringContaining('failed checks') });
    const { name: _n, useCase: _u, ...fix } = GOOD_CAMPAIGN;
    const patched = await svc.call('PATCH', `/v1/campaigns/${c.id}`, { body: fix });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ status: 'rejected', name: WEAK_CAMPAIGN.name, sampleMessages: GOOD_CAMPAIGN.sampleMessages });
    const again = await svc.call('POST', `/v1/campaigns/${c.id}/resubmit`);
    expect(again.body).toMatchObject({ status: 'submitted', remediationAttempts: 1, lastRejectionReason: null });
    await svc.advanceJobs(REGISTRY_TIMINGS.campaignDcaReviewSecs + REGISTRY_TIMINGS.campaignDecisionSecs);
    expect(await get(c.id)).toMatchObject({ status: 'approved', remediationAttempts: 1 });
    expect(await charges(c.id)).toHaveLength(1); // a resubmit is not charged again
  });

  it('the sandbox decides a submitted or dca_review campaign at once, whatever its prediction; an old review job does not touch a resubmission', async () => {
    const c = await submittedCampaign(svc);
    expectError(await svc.call('POST', `/v1/sandbox/campaigns/${c.id}/decision`, { body: { decision: 'later' } }), 400, 'validation_error', ['body', 'decision']);
    const r = await svc.call('POST', `/v1/sandbox/campaigns/${c.id}/decision`, { body: { decision: 'rejected', reason: 'opt-in not verifiable' } });
    expect(r.body).toMatchObject({ status: 'rejected', lastRejectionReason: 'opt-in not verifiable' });
    expectError(await svc.call('POST', `/v1/sandbox/campaigns/${c.id}/decision`, { body: { decision: 'approved' } }), 409, 'conflict');
    await svc.advanceJobs(600);
    await svc.call('POST', `/v1/campaigns/${c.id}/resubmit`);
    await svc.advanceJobs(REGISTRY_TIMINGS.campaignDcaReviewSecs - 600); // the first submission's review time
    expect((await get(c.id)).status).toBe('submitted');
    await svc.advanceJobs(600);
    expect((await get(c.id)).status).toBe('dca_review');
    const ok = await svc.call('POST', `/v1/sandbox/campaigns/${c.id}/decision`, { body: { decision: 'approved' } });
    expect(ok.body).toMatchObject({ status: 'approved', tcrCampaignId: expect.any(String) });
    await svc.advanceJobs(REGISTRY_TIMINGS.campaignDecisionSecs);
    expect((await get(c.id)).status).toBe('approved');
    const approved = await approvedCampaign(svc);
    expectError(await svc.call('POST', `/v1/sandbox/campaigns/${approved.id}/decision`, { body: { decision: 'rejected' } }), 409, 'conflict');
    expectError(await svc.call('PATCH', `/v1/campaigns/${approved.id}`, { body: { name: 'Late' } }), 409, 'conflict');
  });
});

describe('GET /v1/campaigns', () => {
  it('lists summaries newest first with brandName and the count of assigned numbers; filters status and brandId; pages', async () => {
    const other = await startTestService();
    try {
      const a = await approvedCampaign(other);
      const b = await approvedCampaign(other, {}, { name: 'Shipping updates' });
      const c = await submittedCampaign(other, { key: other.bootstrap.testKey });
      for (let i = 0; i < 2; i++) {
        const n = await buy(other, { areaCode: '415' });
        expect((await other.call('POST', `/v1/numbers/${n.id}/assign`, { body: { campaignId: b.id } })).status).toBe(200);
      }
      const all = await other.call('GET', '/v1/campaigns');
      expect(all.status).toBe(200);
      expect(all.body.data.map((s: { id: string }) => s.id)).toEqual([c.id, b.id, a.id]);
      expect(all.body.data[1]).toEqual({
        id: b.id,
        name: 'Shipping updates',
        useCase: GOOD_CAMPAIGN.useCase,
        status: 'approved',
        tcrCampaignId: b.tcrCampaignId,
        cnpSharingStatus: null,
        brandName: GOOD_BRAND.legalName,
        numbers: 2,
      });
      expect(all.body.data[2].numbers).toBe(0);
      const page = await other.call('GET', '/v1/campaigns?limit=2');
      expect(page.body.hasMore).toBe(true);
      const rest = await other.call('GET', `/v1/campaigns?limit=2&cursor=${page.body.nextCursor}`);
      expect(rest.body.data.map((s: { id: string }) => s.id)).toEqual([a.id]);
      expect((await other.call('GET', '/v1/campaigns?status=submitted')).body.data.map((s: { id: string }) => s.id)).toEqual([c.id]);
      expect((await other.call('GET', `/v1/campaigns?brandId=${a.brandId}`)).body.data.map((s: { id: string }) => s.id)).toEqual([a.id]);
      expectError(await other.call('GET', '/v1/campaigns?status=nope'), 400, 'validation_error');
    } finally {
      await other.stop();
    }
  });

  it("keeps sub-accounts apart: their campaign is not found, not listed, and cannot carry the agency's numbers", async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Campaign Client' } });
    const headers = { 'service-subaccount': sub.body.id };
    const theirs = await approvedCampaign(svc, { headers });
    expect(theirs.tenantId).toBe(sub.body.id);
    expectError(await svc.call('GET', `/v1/campaigns/${theirs.id}`), 404, 'not_found');
    expectError(await svc.call('POST', `/v1/campaigns/${theirs.id}/resubmit`), 404, 'not_found');
    expectError(await svc.call('POST', `/v1/sandbox/campaigns/${theirs.id}/decision`, { body: { decision: 'approved' } }), 404, 'not_found');
    const agencyBrand = await mockBrand(svc);
    expectError(await svc.call('POST', '/v1/campaigns', { headers, body: { ...GOOD_CAMPAIGN, brandId: agencyBrand.id } }), 404, 'not_found');
    const mine = (await svc.call('GET', '/v1/campaigns?limit=100')).body.data.map((s: { id: string }) => s.id);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine).not.toContain(theirs.id);
    expect((await svc.call('GET', '/v1/campaigns', { headers })).body.data.map((s: { id: string }) => s.id)).toEqual([theirs.id]);
    const n = await buy(svc, { areaCode: '646' });
    expectError(await svc.call('POST', `/v1/numbers/${n.id}/assign`, { body: { campaignId: theirs.id } }), 404, 'not_found');
  });
});

describe('POST /v1/campaigns/{id}/share', () => {
  it('shares an approved real campaign: pending, accepted by the partner 1 h later; twice, unapproved or mock → 409', async () => {
    const c = await submittedCampaign(svc);
    expectError(await svc.call('POST', `/v1/campaigns/${c.id}/share`), 409, 'conflict');
    await svc.call('POST', `/v1/sandbox/campaigns/${c.id}/decision`, { body: { decision: 'approved' } });
    const shared = await svc.call('POST', `/v1/campaigns/${c.id}/share`);
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ status: 'approved', cnpSharingStatus: 'pending' });
    expectError(await svc.call('POST', `/v1/campaigns/${c.id}/share`), 409, 'conflict');
    await svc.advanceJobs(REGISTRY_TIMINGS.cnpSharingDecisionSecs - 1);
    expect((await get(c.id)).cnpSharingStatus).toBe('pending');
    await svc.advanceJobs(1);
    expect((await get(c.id)).cnpSharingStatus).toBe('accepted');
    expectError(await svc.call('POST', `/v1/campaigns/${c.id}/share`), 409, 'conflict');
    const mock = await approvedCampaign(svc);
    const refused = await svc.call('POST', `/v1/campaigns/${mock.id}/share`);
    expectError(refused, 409, 'conflict');
    expect(refused.body.error.message).toMatch(/mock/);
    expect((await get(mock.id)).cnpSharingStatus).toBeNull();
  });
});
