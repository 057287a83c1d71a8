import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestService, type TestService } from './helpers/service.js';
import { expectError } from './messages-fixtures.js';
import { GOOD_BRAND, GOOD_CAMPAIGN, mockBrand, WEAK_CAMPAIGN } from './registration-fixtures.js';
import { CampaignContentBody } from '../src/api/schemas/campaigns.js';
import { PredictionSchema } from '../src/api/schemas/registrations.js';
import { CAMPAIGN_APPROVAL_SCORE, DRAFT_SAMPLES } from '../src/api/values/registration.js';

// contract §7: POST /v1/registrations/draft and /v1/registrations/predict, end to end on loopback.

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.stop();
});

const draft = (body: unknown, o: { key?: string | null } = {}) => svc.call('POST', '/v1/registrations/draft', { ...o, body });
const predict = (body: unknown, o: { key?: string | null; headers?: Record<string, string> } = {}) =>
  svc.call('POST', '/v1/registrations/predict', { ...o, body });
const failedIds = (p: { checks: Array<{ id: string; passed: boolean }> }) => p.checks.filter((c) => !c.passed).map((c) => c.id);

const INFO = {
  legalName: 'Harbor Yoga Studio LLC',
  description: 'A yoga studio: class booking reminders and monthly class specials for our members.',
  ein: '98-7654321',
  website: 'https://harboryoga.example',
  vertical: 'FITNESS',
  optInChannel: 'online booking form',
};

describe('POST /v1/registrations/draft', () => {
  it('drafts a campaign create request without brandId, samples naming the business, which predicts high and is approved when registered', async () => {
    const r = await draft(INFO);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const campaign = CampaignContentBody.parse(r.body);
    expect(r.body).not.toHaveProperty('brandId');
    expect(campaign.sampleMessages.length).toBeGreaterThanOrEqual(DRAFT_SAMPLES.min);
    expect(campaign.sampleMessages.length).toBeLessThanOrEqual(DRAFT_SAMPLES.max);
    for (const s of campaign.sampleMessages) expect(s).toMatch(/^Harbor Yoga Studio: .*\bSTOP\b/);
    expect(campaign.useCase).toBe('MIXED');
    expect(campaign.subUsecases).toEqual(['CUSTOMER_CARE', 'MARKETING']);
    expect(campaign.privacyPolicyLink).toBe('https://harboryoga.example/privacy');

    const brand = { legalName: INFO.legalName, website: INFO.website, ein: INFO.ein, vertical: INFO.vertical, email: 'hello@harboryoga.example' };
    const p = await predict({ brand, campaign });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ band: 'high', score: 100, suggestions: [] });

    // the draft, with a brandId, is a campaign the registry approves (a mock brand decides at once)
    const b = await mockBrand(svc, {}, brand);
    const created = await svc.call('POST', '/v1/campaigns', { body: { ...campaign, brandId: b.id } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.status, created.body.lastRejectionReason).toBe('approved');
  });

  it('rejects bad business info with validation errors naming the field', async () => {
    expectError(await draft({ legalName: 'X' }), 400, 'validation_error', ['body', 'description']);
    expectError(await draft({ legalName: '', description: 'x' }), 400, 'validation_error', ['body', 'legalName']);
    expectError(await draft({ legalName: 'X', description: 'x', website: 5 }), 400, 'validation_error', ['body', 'website']);
    expectError(await draft({ legalName: 'X', description: 'x', brandId: randomUUID() }), 400, 'validation_error');
    expectError(await draft(INFO, { key: null }), 401, 'unauthorized');
  });
});

describe('POST /v1/registrations/predict', () => {
  it('scores a good brand and campaign high, with one check per rule and no suggestions', async () => {
    const r = await predict({ brand: GOOD_BRAND, campaign: GOOD_CAMPAIGN });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(PredictionSchema.parse(r.body)).toEqual(r.body);
    expect(r.body.checks.length).toBeGreaterThan(10);
    expect(failedIds(r.body)).toEqual([]);
    expect(r.body).toMatchObject({ score: 100, band: 'high', suggestions: [] });
  });

  it('scores a weak campaign low, below the approval line, with one suggestion per failed check', async () => {
    const r = await predict({ campaign: WEAK_CAMPAIGN });
    expect(r.status).toBe(200);
    expect(r.body.band).toBe('low');
    expect(r.body.score).toBeLessThan(CAMPAIGN_APPROVAL_SCORE);
    const failed = failedIds(r.body);
    expect(failed).toEqual(expect.arrayContaining(['samples.brand_name', 'samples.opt_out', 'samples.min_count', 'opt_in.consent', 'links.privacy']));
    expect(r.body.suggestions.length).toBe(failed.length);
    // an empty campaign is linted too (every field optional)
    const empty = await predict({ campaign: {} });
    expect(empty.status).toBe(200);
    expect(empty.body.band).toBe('low');
  });

  it('fails the website and link checks on a malformed campaign website or link, not only a missing one', async () => {
    const r = await predict({
      brand: { ...GOOD_BRAND, website: null },
      campaign: { ...GOOD_CAMPAIGN, websiteUrl: 'not a url', privacyPolicyLink: 'bayviewdental.example/privacy', termsAndConditionsLink: 'see our site' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(failedIds(r.body).sort()).toEqual(['brand.website', 'links.privacy', 'links.terms']);
    expect(r.body.suggestions.join('\n')).toContain('"not a url" is not one');
  });

  it("reads a campaign.brandId of the account's brands when no brand is given", async () => {
    const b = await mockBrand(svc);
    const byId = await predict({ campaign: { ...GOOD_CAMPAIGN, brandId: b.id } });
    expect(byId.status, JSON.stringify(byId.body)).toBe(200);
    expect(byId.body).toMatchObject({ score: 100, band: 'high' });
    // the brand's name is what the samples are checked against: another brand's samples fail
    const other = await mockBrand(svc, {}, { legalName: 'Northside Pharmacy', displayName: null, website: 'https://northside.example', email: 'rx@northside.example' });
    const mismatch = await predict({ campaign: { ...GOOD_CAMPAIGN, brandId: other.id } });
    expect(failedIds(mismatch.body)).toEqual(['samples.brand_name', 'brand.domain_match']);
    // an inline brand wins over the brandId
    const inline = await predict({ brand: GOOD_BRAND, campaign: { ...GOOD_CAMPAIGN, brandId: other.id } });
    expect(failedIds(inline.body)).toEqual([]);
  });

  it("answers 404 for a brandId that is not one of the account's brands", async () => {
    expectError(await predict({ campaign: { ...GOOD_CAMPAIGN, brandId: randomUUID() } }), 404, 'not_found');
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Predict Client' } });
    expect(sub.status).toBe(201);
    const headers = { 'service-subaccount': sub.body.id };
    const theirs = (await svc.call('POST', '/v1/brands', { headers, body: { ...GOOD_BRAND, mock: true } })).body;
    expect(theirs.tenantId).toBe(sub.body.id);
    expectError(await predict({ campaign: { ...GOOD_CAMPAIGN, brandId: theirs.id } }), 404, 'not_found');
    const asThem = await predict({ campaign: { ...GOOD_CAMPAIGN, brandId: theirs.id } }, { headers });
    expect(asThem.status).toBe(200);
    expect(asThem.body.band).toBe('high');
  });

  it('rejects a malformed body with validation errors naming the field', async () => {
    expectError(await predict({}), 400, 'validation_error', ['body', 'campaign']);
    expectError(await predict({ campaign: { brandId: 'not-a-uuid' } }), 400, 'validation_error', ['body', 'campaign', 'brandId']);
    expectError(await predict({ campaign: { sampleMessages: 'hi' } }), 400, 'validation_error', ['body', 'campaign', 'sampleMessages']);
    expectError(await predict({ brand: { legalName: 'X', entityType: 'LLC' }, campaign: {} }), 400, 'validation_error', ['body', 'brand', 'entityType']);
    expectError(await predict({ campaign: {}, extra: true }), 400, 'validation_error');
    // contract §7: a brand field given has its format here too (a missing one only fails its check)
    expectError(await predict({ brand: { website: 'not a url' }, campaign: GOOD_CAMPAIGN }), 400, 'validation_error', ['body', 'brand', 'website']);
    expectError(await predict({ brand: { country: 'US', postalCode: '9' }, campaign: GOOD_CAMPAIGN }), 400, 'validation_error', ['body', 'brand', 'postalCode']);
    expectError(await predict({ campaign: {} }, { key: null }), 401, 'unauthorized');
  });
});
