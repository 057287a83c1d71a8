import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { expectError } from './messages-fixtures.js';
import { GOOD_BRAND, GOOD_CAMPAIGN, mockBrand } from './registration-fixtures.js';
import { PRICES } from '../src/api/values/prices.js';
import { REGISTRY_TIMINGS } from '../src/api/values/registration.js';
import { fundAccount } from './helpers/money.js';
import { chargesFor } from './helpers/inspect.js';

// contract §7 (brands), §9 (sandbox brand decisions), §11 (brand prices); spec: Brand.

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
const create = (body: unknown, o: { key?: string; headers?: Record<string, string> } = {}) => svc.call('POST', '/v1/brands', { ...o, body });
const urlsFor = (id: string) => ({
  optInUrl: `${svc.baseUrl}/p/${id}/opt-in`,
  privacyUrl: `${svc.baseUrl}/p/${id}/privacy`,
  messagingTermsUrl: `${svc.baseUrl}/p/${id}/terms`,
});

describe('POST /v1/brands', () => {
  it('registers a brand as submitted, with complianceUrls on the caller address, default page texts, and the live registration charge', async () => {
    const r = await create(GOOD_BRAND);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      legalName: GOOD_BRAND.legalName,
      ein: GOOD_BRAND.ein,
      city: 'San Francisco',
      tenantId: svc.bootstrap.accountId,
      status: 'submitted',
      mock: false,
      tcrBrandId: null,
      identityStatus: null,
      rejectionReason: null,
      vettingScore: null,
      stockSymbol: null,
      complianceUrls: urlsFor(r.body.id),
    });
    expect(r.body.compliancePages.optIn).toContain('Bayview Dental');
    expect(r.body.compliancePages.optIn).toMatch(/STOP/);
    expect(r.body.compliancePages.privacy).toContain(GOOD_BRAND.legalName);
    expect(r.body.compliancePages.messagingTerms).toMatch(/HELP/);
    expect(await charges(r.body.id)).toEqual([expect.objectContaining({ category: 'brand_registration', quantity: 1, amountCents: PRICES.brandRegistration })]);
  });

  it('a mock brand is approved at once with a tcrBrandId and costs nothing; a test key is never charged', async () => {
    const m = await mockBrand(svc);
    expect(m).toMatchObject({ mock: true, status: 'approved', tcrBrandId: expect.stringMatching(/^B[0-9A-F]{6}$/), identityStatus: 'SELF_DECLARED' });
    expect(await charges(m.id)).toEqual([]);
    const t = await create({ legalName: 'Test Key Co' }, { key: svc.bootstrap.testKey });
    expect(t.body.status).toBe('submitted');
    expect(await charges(t.body.id)).toEqual([]);
  });

  it('refuses a missing legalName, unknown fields and bad enums; nothing is created', async () => {
    const before = (await svc.call('GET', '/v1/brands?limit=100')).body.data.length;
    expectError(await create({ ein: '1' }), 400, 'validation_error', ['body', 'legalName']);
    expectError(await create({ legalName: '' }), 400, 'validation_error', ['body', 'legalName']);
    expectError(await create({ legalName: 'X', entityType: 'LLC' }), 400, 'validation_error', ['body', 'entityType']);
    expectError(await create({ legalName: 'X', tcrBrandId: 'B1' }), 400, 'validation_error');
    expect((await svc.call('GET', '/v1/brands?limit=100')).body.data.length).toBe(before);
  });
});

/** Brand answers, every one malformed (contract §7 field formats). */
const MALFORMED = {
  ein: '12345',
  website: 'not a url',
  email: 'notanemail',
  phone: '555',
  businessContactEmail: 'owner at bayview',
  country: 'USA',
  einIssuingCountry: 'XX',
} as const;
const detailsByPath = (res: { body: any }): Record<string, string> =>
  Object.fromEntries(res.body.error.details.map((d: { path: string[]; message: string }) => [d.path.join('.'), d.message]));

describe('brand field formats (contract §7), before anything is charged', () => {
  const countBrands = async () => (await svc.call('GET', '/v1/brands?limit=100')).body.data.length as number;
  const countCharges = async () => (await chargesFor(svc, svc.bootstrap.accountId)).length;

  it('POST /v1/brands: every malformed field named at once (400), nothing created, nothing charged', async () => {
    const [brands, charged] = [await countBrands(), await countCharges()];
    const res = await create({ ...GOOD_BRAND, ...MALFORMED });
    expectError(res, 400, 'validation_error');
    const d = detailsByPath(res);
    expect(Object.keys(d).sort()).toEqual(Object.keys(MALFORMED).map((k) => `body.${k}`).sort());
    expect(d['body.ein']).toMatch(/US EIN/);
    expect(d['body.website']).toMatch(/http\(s\) URL/);
    expect(d['body.email']).toMatch(/mailbox address.*@/);
    expect(d['body.phone']).toMatch(/E\.164/);
    expect(d['body.country']).toMatch(/ISO 3166-1 alpha-2/);
    // A mock brand is free, but its formats are the same.
    expectError(await create({ legalName: 'Mock Co', mock: true, website: 'acme.example' }), 400, 'validation_error', ['body', 'website']);
    expect([await countBrands(), await countCharges()]).toEqual([brands, charged]);
  });

  it.each([
    ['ein', 'ab-cdefghi'],
    ['ein', '12-345678'],
    ['website', 'ftp://acme.example'],
    ['website', 'https://localhost'],
    ['website', 'https://10.0.0.1'],
    ['email', 'name@localhost'],
    ['phone', '4155550100'],
    ['country', 'us'],
    ['einIssuingCountry', 'ZZ'],
  ])('refuses %s %j', async (field, value) => {
    expectError(await create({ ...GOOD_BRAND, [field]: value }), 400, 'validation_error', ['body', field]);
  });

  it('state and postalCode when country is US, each named; free text elsewhere; the accepted forms', async () => {
    const res = await create({ ...GOOD_BRAND, state: 'California', postalCode: '9410' });
    expectError(res, 400, 'validation_error');
    expect(Object.keys(detailsByPath(res)).sort()).toEqual(['body.postalCode', 'body.state']);
    expect(detailsByPath(res)['body.state']).toMatch(/two-letter code.*when country is US/);
    const ok = await create({ ...GOOD_BRAND, ein: '123456789', postalCode: '94105-1234', businessContactEmail: 'owner@bayviewdental.example', einIssuingCountry: 'US' });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({ ein: '123456789', postalCode: '94105-1234' });
    const abroad = await create({ ...GOOD_BRAND, country: 'GB', state: 'Greater London', postalCode: 'SW1A 1AA', phone: '+442079460958' });
    expect(abroad.status, abroad.text).toBe(201);
    const noCountry = await create({ legalName: 'Somewhere Co', state: 'California', postalCode: 'n/a' });
    expect(noCountry.status, noCountry.text).toBe(201);
  });

  it('PATCH: formats checked, and the US address rule on the brand as the change leaves it; nothing changes', async () => {
    const b = (await create({ ...GOOD_BRAND, entityType: 'PUBLIC_PROFIT' })).body;
    await svc.call('POST', `/v1/sandbox/brands/${b.id}/decision`, { body: { decision: 'rejected' } });
    const bad = await svc.call('PATCH', `/v1/brands/${b.id}`, { body: MALFORMED });
    expectError(bad, 400, 'validation_error');
    expect(Object.keys(detailsByPath(bad)).sort()).toEqual(Object.keys(MALFORMED).map((k) => `body.${k}`).sort());
    // The brand's country (US) is not in the body: the domain reads it from the brand.
    const merged = await svc.call('PATCH', `/v1/brands/${b.id}`, { body: { state: 'Calif.', postalCode: 'ABCDE', city: 'Oakland' } });
    expectError(merged, 400, 'validation_error');
    expect(Object.keys(detailsByPath(merged)).sort()).toEqual(['body.postalCode', 'body.state']);
    expect((await svc.call('GET', `/v1/brands/${b.id}`)).body).toMatchObject({ state: GOOD_BRAND.state, postalCode: GOOD_BRAND.postalCode, city: GOOD_BRAND.city, ein: GOOD_BRAND.ein });
    // Moving abroad frees the state; coming back to US checks it again.
    expect((await svc.call('PATCH', `/v1/brands/${b.id}`, { body: { country: 'CA', state: 'Ontario', postalCode: 'M5V 2T6' } })).status).toBe(200);
    expectError(await svc.call('PATCH', `/v1/brands/${b.id}`, { body: { country: 'US' } }), 400, 'validation_error', ['body', 'state']);
  });

  it('POST /v1/registrations: the brand\'s formats named under brand, nothing created, nothing charged', async () => {
    const [brands, charged] = [await countBrands(), await countCharges()];
    const campaigns = (await svc.call('GET', '/v1/campaigns?limit=100')).body.data.length;
    const res = await svc.call('POST', '/v1/registrations', { body: { brand: { ...GOOD_BRAND, ...MALFORMED, state: 'California' }, campaign: GOOD_CAMPAIGN } });
    expectError(res, 400, 'validation_error');
    // country is malformed too ("USA"), so the US rule does not apply to state.
    expect(Object.keys(detailsByPath(res)).sort()).toEqual(Object.keys(MALFORMED).map((k) => `body.brand.${k}`).sort());
    const us = await svc.call('POST', '/v1/registrations', { body: { brand: { ...GOOD_BRAND, postalCode: '941' }, campaign: GOOD_CAMPAIGN } });
    expectError(us, 400, 'validation_error', ['body', 'brand', 'postalCode']);
    expect([await countBrands(), await countCharges()]).toEqual([brands, charged]);
    expect((await svc.call('GET', '/v1/campaigns?limit=100')).body.data.length).toBe(campaigns);
  });
});

describe('the registry on the service clock', () => {
  it('decides 1 h later: a private company without an EIN is rejected, one with an EIN approved', async () => {
    const noEin = (await create({ legalName: 'No Ein Inc', entityType: 'PRIVATE_PROFIT' })).body;
    const withEin = (await create(GOOD_BRAND)).body;
    const nonProfit = (await create({ legalName: 'Food Bank', entityType: 'NON_PROFIT' })).body;
    await svc.advanceJobs(REGISTRY_TIMINGS.brandDecisionSecs - 1);
    expect((await svc.call('GET', `/v1/brands/${noEin.id}`)).body.status).toBe('submitted');
    await svc.advanceJobs(1);
    const rejected = (await svc.call('GET', `/v1/brands/${noEin.id}`)).body;
    expect(rejected).toMatchObject({ status: 'rejected', tcrBrandId: null, identityStatus: 'UNVERIFIED', rejectionReason: expect.stringMatching(/EIN/) });
    expect((await svc.call('GET', `/v1/brands/${withEin.id}`)).body).toMatchObject({ status: 'approved', identityStatus: 'VERIFIED', tcrBrandId: expect.stringMatching(/^B/), rejectionReason: null });
    expect((await svc.call('GET', `/v1/brands/${nonProfit.id}`)).body.status).toBe('approved');
  });

  it('resubmit: only a rejected brand (else 409), no complianceUrls, decided again 1 h later; an old decision job does not decide it early', async () => {
    const b = (await create({ legalName: 'Public Co', entityType: 'PUBLIC_PROFIT' })).body;
    expectError(await svc.call('POST', `/v1/brands/${b.id}/resubmit`), 409, 'conflict');
    // rejected at once by the sandbox, fixed, resubmitted 10 minutes later
    const d = await svc.call('POST', `/v1/sandbox/brands/${b.id}/decision`, { body: { decision: 'rejected', reason: 'bad address' } });
    expect(d.body).toMatchObject({ status: 'rejected', rejectionReason: 'bad address', complianceUrls: urlsFor(b.id) });
    await svc.advanceJobs(600);
    const patched = await svc.call('PATCH', `/v1/brands/${b.id}`, { body: { ein: '98-7654321' } });
    expect(patched.status).toBe(200);
    const again = await svc.call('POST', `/v1/brands/${b.id}/resubmit`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'submitted', rejectionReason: null });
    expect(again.body).not.toHaveProperty('complianceUrls');
    await svc.advanceJobs(REGISTRY_TIMINGS.brandDecisionSecs - 600); // the first submission's hour
    expect((await svc.call('GET', `/v1/brands/${b.id}`)).body.status).toBe('submitted');
    await svc.advanceJobs(600);
    expect((await svc.call('GET', `/v1/brands/${b.id}`)).body.status).toBe('approved');
    expectError(await svc.call('POST', `/v1/brands/${b.id}/resubmit`), 409, 'conflict');
    expect(await charges(b.id)).toHaveLength(1); // a resubmit is not charged again
  });

  it('the sandbox decides only a submitted brand', async () => {
    const m = await mockBrand(svc);
    expectError(await svc.call('POST', `/v1/sandbox/brands/${m.id}/decision`, { body: { decision: 'rejected' } }), 409, 'conflict');
    const b = (await create({ legalName: 'Decided Co' })).body;
    expectError(await svc.call('POST', `/v1/sandbox/brands/${b.id}/decision`, { body: { decision: 'maybe' } }), 400, 'validation_error', ['body', 'decision']);
    const ok = await svc.call('POST', `/v1/sandbox/brands/${b.id}/decision`, { body: { decision: 'approved' } });
    expect(ok.body).toMatchObject({ status: 'approved', identityStatus: 'VERIFIED', tcrBrandId: expect.any(String) });
    expectError(await svc.call('POST', `/v1/sandbox/brands/${b.id}/decision`, { body: { decision: 'approved' } }), 409, 'conflict');
    expectError(await svc.call('POST', `/v1/sandbox/brands/00000000-0000-4000-8000-000000000000/decision`, { body: { decision: 'approved' } }), 404, 'not_found');
  });
});

describe('GET /v1/brands', () => {
  it('pages newest first, filters by status, and shows complianceUrls on each row', async () => {
    const other = await startTestService();
    try {
      const ids: string[] = [];
      for (const name of ['One', 'Two', 'Three']) {
        const r = await other.call('POST', '/v1/brands', { body: { legalName: name, mock: name === 'Two' } });
        ids.push(r.body.id);
        await other.advanceJobs(1);
      }
      const first = await other.call('GET', '/v1/brands?limit=2');
      expect(first.body.data.map((b: { id: string }) => b.id)).toEqual([ids[2], ids[1]]);
      expect(first.body.hasMore).toBe(true);
      expect(first.body.data[0].complianceUrls.optInUrl).toBe(`${other.baseUrl}/p/${ids[2]}/opt-in`);
      const rest = await other.call('GET', `/v1/brands?limit=2&cursor=${first.body.nextCursor}`);
      expect(rest.body).toMatchObject({ hasMore: false, nextCursor: null });
      expect(rest.body.data.map((b: { id: string }) => b.id)).toEqual([ids[0]]);
      const approved = await other.call('GET', '/v1/brands?status=approved');
      expect(approved.body.data.map((b: { id: string }) => b.id)).toEqual([ids[1]]);
      expectError(await other.call('GET', '/v1/brands?status=nope'), 400, 'validation_error');
    } finally {
      await other.stop();
    }
  });

  it("keeps sub-accounts apart: another account's brand is not found and not listed", async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Brand Client' } });
    const headers = { 'service-subaccount': sub.body.id };
    const theirs = (await create({ legalName: 'Client Brand' }, { headers })).body;
    expect(theirs.tenantId).toBe(sub.body.id);
    expect(await charges(theirs.id, sub.body.id)).toHaveLength(1);
    expectError(await svc.call('GET', `/v1/brands/${theirs.id}`), 404, 'not_found');
    expectError(await svc.call('PATCH', `/v1/brands/${theirs.id}`, { body: { pageConfig: { headline: 'x' } } }), 404, 'not_found');
    expectError(await svc.call('POST', `/v1/sandbox/brands/${theirs.id}/decision`, { body: { decision: 'approved' } }), 404, 'not_found');
    const mine = (await svc.call('GET', '/v1/brands?limit=100')).body.data.map((b: { id: string }) => b.id);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine).not.toContain(theirs.id);
    const listed = (await svc.call('GET', '/v1/brands', { headers })).body.data;
    expect(listed.map((b: { id: string }) => b.id)).toEqual([theirs.id]);
  });
});

describe('PATCH /v1/brands/{id}', () => {
  it('sets pageConfig and compliancePages in any status (null returns to the generated texts), with complianceUrls', async () => {
    const m = await mockBrand(svc);
    const pages = { optIn: 'Text JOIN to opt in.', privacy: 'We never sell your data.', messagingTerms: 'Reply STOP to stop.' };
    const r = await svc.call('PATCH', `/v1/brands/${m.id}`, { body: { pageConfig: { headline: 'Join our list', accentColor: '#1a73e8' }, compliancePages: pages } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ pageConfig: { headline: 'Join our list', accentColor: '#1a73e8' }, compliancePages: pages, complianceUrls: urlsFor(m.id) });
    expect((await svc.call('GET', `/v1/brands/${m.id}`)).body.compliancePages).toEqual(pages);
    const reset = await svc.call('PATCH', `/v1/brands/${m.id}`, { body: { compliancePages: null } });
    expect(reset.body.compliancePages.optIn).toContain('Bayview Dental');
    expectError(await svc.call('PATCH', `/v1/brands/${m.id}`, { body: { pageConfig: { accentColor: 'blue' } } }), 400, 'validation_error', ['body', 'pageConfig', 'accentColor']);
  });

  it('registration fields change only while draft or rejected; mock cannot be patched; an empty body is refused', async () => {
    const m = await mockBrand(svc);
    expectError(await svc.call('PATCH', `/v1/brands/${m.id}`, { body: { legalName: 'Renamed' } }), 409, 'conflict');
    expectError(await svc.call('PATCH', `/v1/brands/${m.id}`, { body: { mock: false } }), 400, 'validation_error');
    expectError(await svc.call('PATCH', `/v1/brands/${m.id}`, { body: {} }), 400, 'validation_error');
    const b = (await create({ legalName: 'Typo Inc', entityType: 'PRIVATE_PROFIT' })).body;
    expectError(await svc.call('PATCH', `/v1/brands/${b.id}`, { body: { ein: '98-7654321' } }), 409, 'conflict');
    await svc.call('POST', `/v1/sandbox/brands/${b.id}/decision`, { body: { decision: 'rejected' } });
    const fixed = await svc.call('PATCH', `/v1/brands/${b.id}`, { body: { legalName: 'Typo Fixed Inc', ein: '11-1111111', website: null } });
    expect(fixed.body).toMatchObject({ legalName: 'Typo Fixed Inc', ein: '11-1111111', website: null, status: 'rejected' });
  });
});

describe('POST /v1/brands/{id}/vetting', () => {
  it('vets an approved real brand: provider, class, a deterministic score, VETTED_VERIFIED, the live vetting charge, no complianceUrls', async () => {
    const b = (await create(GOOD_BRAND)).body;
    expectError(await svc.call('POST', `/v1/brands/${b.id}/vetting`, { body: { provider: 'AEGIS', vettingClass: 'STANDARD' } }), 409, 'conflict');
    await svc.call('POST', `/v1/sandbox/brands/${b.id}/decision`, { body: { decision: 'approved' } });
    const v = await svc.call('POST', `/v1/brands/${b.id}/vetting`, { body: { provider: 'AEGIS', vettingClass: 'ENHANCED' } });
    expect(v.status).toBe(200);
    // 40 + 5 × (12 fields given: 11 strings and the entity type) + 10 enhanced, capped at 100
    expect(v.body).toMatchObject({ vettingProvider: 'AEGIS', vettingClass: 'ENHANCED', vettingScore: 100, identityStatus: 'VETTED_VERIFIED' });
    expect(v.body).not.toHaveProperty('complianceUrls');
    const small = (await create({ legalName: 'Tiny Co', website: 'https://tiny.example' })).body;
    await svc.call('POST', `/v1/sandbox/brands/${small.id}/decision`, { body: { decision: 'approved' } });
    const s = await svc.call('POST', `/v1/brands/${small.id}/vetting`, { body: { provider: 'CV', vettingClass: 'STANDARD' } });
    expect(s.body.vettingScore).toBe(45);
    expect((await charges(b.id)).map((c) => c.category)).toEqual(['brand_registration', 'brand_vetting']);
    expect((await charges(b.id))[1]!.amountCents).toBe(PRICES.brandVetting);
  });

  it('a mock brand is not vetted (409); bad providers are a validation error; a test key pays nothing', async () => {
    const m = await mockBrand(svc);
    expectError(await svc.call('POST', `/v1/brands/${m.id}/vetting`, { body: { provider: 'AEGIS', vettingClass: 'STANDARD' } }), 409, 'conflict');
    expectError(await svc.call('POST', `/v1/brands/${m.id}/vetting`, { body: { provider: 'ACME', vettingClass: 'STANDARD' } }), 400, 'validation_error', ['body', 'provider']);
    const t = (await create(GOOD_BRAND, { key: svc.bootstrap.testKey })).body;
    await svc.call('POST', `/v1/sandbox/brands/${t.id}/decision`, { key: svc.bootstrap.testKey, body: { decision: 'approved' } });
    const v = await svc.call('POST', `/v1/brands/${t.id}/vetting`, { key: svc.bootstrap.testKey, body: { provider: 'WMC', vettingClass: 'STANDARD' } });
    expect(v.body.identityStatus).toBe('VETTED_VERIFIED');
    expect(await charges(t.id)).toEqual([]);
  });
});
