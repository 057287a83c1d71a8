import { describe, expect, it } from 'vitest';
import { CampaignContentBody } from '../../../api/schemas/campaigns.js';
import type { BusinessInfoBody } from '../../../api/schemas/registrations.js';
import { DRAFT_SAMPLES } from '../../../api/values/registration.js';
import { containsName } from './brand-name.js';
import { DRAFT_DEFAULT_USE_CASE, draftCampaign } from './draft.js';
import { predictApproval } from './prediction.js';

// contract §7: a draft is a campaign create request without brandId, 2-5 samples naming the
// business with opt-out language, opt-in details for the channel, keywords and messages; complete
// inputs draft a campaign the prediction scores `high`.

const complete: BusinessInfoBody = {
  legalName: 'Rosa’s Garden Supply, Inc.',
  description: 'A family garden centre: we text order pickup notices and seasonal specials to our customers.',
  ein: '12-3456789',
  website: 'rosasgarden.com',
  vertical: 'RETAIL',
  optInChannel: 'web form',
};

// The draft takes a bare domain; the brand registered beside it has its website as a URL (contract §7).
const brandOf = (info: BusinessInfoBody) => ({ legalName: info.legalName, ein: info.ein, website: `https://${info.website}`, vertical: info.vertical });

describe('draftCampaign', () => {
  it('drafts a valid create request (no brandId) that predicts high from complete inputs', () => {
    const draft = draftCampaign(complete);
    expect(CampaignContentBody.parse(draft)).toEqual(draft);
    expect('brandId' in draft).toBe(false);
    const p = predictApproval({ brand: brandOf(complete), campaign: draft });
    expect(p.checks.filter((c) => !c.passed)).toEqual([]);
    expect(p.score).toBe(100);
    expect(p.band).toBe('high');
  });

  it('names the business in every sample, with opt-out language, DRAFT_SAMPLES.min–max of them', () => {
    const draft = draftCampaign(complete);
    expect(draft.sampleMessages.length).toBeGreaterThanOrEqual(DRAFT_SAMPLES.min);
    expect(draft.sampleMessages.length).toBeLessThanOrEqual(DRAFT_SAMPLES.max);
    for (const s of draft.sampleMessages) {
      expect(containsName(s, 'Rosa’s Garden Supply')).toBe(true);
      expect(s).toMatch(/\bSTOP\b/);
    }
  });

  it('writes the keywords and their messages, and links from the website', () => {
    const draft = draftCampaign(complete);
    expect(draft.optoutKeywords).toContain('STOP');
    expect(draft.helpKeywords).toContain('HELP');
    expect(draft.optinKeywords).toBeTruthy();
    for (const m of [draft.optinMessage, draft.optoutMessage, draft.helpMessage]) expect(m).toContain('Rosa’s Garden Supply');
    expect(draft.websiteUrl).toBe('https://rosasgarden.com');
    expect(draft.privacyPolicyLink).toBe('https://rosasgarden.com/privacy');
    expect(draft.termsAndConditionsLink).toBe('https://rosasgarden.com/terms');
    expect(draft.description).toContain(complete.description.replace(/\.$/, ''));
    expect(draft.description).toContain('RETAIL');
  });

  it('without a website leaves the links null (the prediction asks for them) and opts in by keyword', () => {
    const draft = draftCampaign({ legalName: 'Bob Plumbing', description: 'Appointment reminders for our plumbing customers.' });
    expect([draft.websiteUrl, draft.privacyPolicyLink, draft.termsAndConditionsLink]).toEqual([null, null, null]);
    expect(draft.optInDetails).toContain('texting the keyword JOIN');
    const p = predictApproval({ brand: { legalName: 'Bob Plumbing' }, campaign: draft });
    expect(p.checks.filter((c) => !c.passed).map((c) => c.id).sort()).toEqual(['brand.website', 'links.privacy', 'links.terms']);
  });

  it.each([
    ['Your verification code for logging in (2FA).', '2FA', null],
    ['Monthly statements and balance alerts for account holders.', 'ACCOUNT_NOTIFICATION', null],
    ['Weekly deals and coupons for our regulars.', 'MARKETING', null],
    ['We survey our guests for feedback after each stay.', 'POLLING_VOTING', null],
    ['A neighbourhood food bank asking for donations.', 'CHARITY', null],
    ['Campus news for our students.', 'HIGHER_EDUCATION', null],
    ['Order pickup notices and seasonal specials.', 'MIXED', ['DELIVERY_NOTIFICATION', 'MARKETING']],
    ['A small family bakery.', DRAFT_DEFAULT_USE_CASE, null],
  ])('chooses the use case from the description: %s → %s', (description, useCase, sub) => {
    const draft = draftCampaign({ legalName: 'Acme Bakery', description, website: 'acmebakery.com' });
    expect(draft.useCase).toBe(useCase);
    expect(draft.subUsecases).toEqual(sub);
    const p = predictApproval({ brand: { legalName: 'Acme Bakery', website: 'https://acmebakery.com' }, campaign: draft });
    expect(p.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual([]);
  });

  it.each([
    ['web form', 'web form'],
    ['keyword', 'texting the keyword JOIN'],
    ['paper form at the front desk', 'paper sign-up form'],
    ['point of sale', 'point of sale'],
    ['our mobile app', 'mobile app'],
    ['phone call with an agent', 'phone call'],
  ])('writes opt-in details for the channel %s', (optInChannel, phrase) => {
    const draft = draftCampaign({ ...complete, optInChannel });
    expect(draft.optInDetails).toContain(phrase);
    const p = predictApproval({ brand: brandOf(complete), campaign: draft });
    expect(p.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual([]);
  });

  it('keeps an unknown channel in its own words', () => {
    const draft = draftCampaign({ ...complete, optInChannel: 'Instagram DMs' });
    expect(draft.optInDetails).toContain('through Instagram DMs');
  });

  it('caps the samples at DRAFT_SAMPLES.max when the description matches many use cases', () => {
    const draft = draftCampaign({
      legalName: 'Acme',
      description: 'Verification codes, account statements, order tracking, appointment reminders, discounts, fraud alerts and surveys.',
    });
    expect(draft.useCase).toBe('MIXED');
    expect(draft.sampleMessages.length).toBe(DRAFT_SAMPLES.max);
    expect(draft.subUsecases!.length).toBeGreaterThan(1);
    expect(draft.subUsecases!.length).toBeLessThanOrEqual(5);
  });

  it('drops the dots and spaces a description ends with, in time proportional to it', () => {
    expect(draftCampaign({ ...complete, description: 'We text order updates. . .  ' }).description).toContain('About the business and its messages: We text order updates.');
    // A long run of dots and spaces that does not end the text: `/[.\s]+$/` retried from each of
    // its characters (400 KB: minutes). Far past the schema's cap, to make the difference plain.
    const description = `We text order updates${'. '.repeat(200_000)}x. .`;
    const before = process.cpuUsage();
    const draft = draftCampaign({ ...complete, description });
    const used = process.cpuUsage(before);
    expect(draft.description).toContain('About the business and its messages: We text order updates. . .');
    expect((used.user + used.system) / 1000).toBeLessThan(5_000);
  });
});
