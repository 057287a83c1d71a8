import { describe, expect, it } from 'vitest';
import { PREDICTION_BAND_FLOORS } from '../../../api/values/registration.js';
import { PredictionSchema } from '../../../api/schemas/registrations.js';
import { bandOf, PREDICTION_WEIGHTS, predictApproval, SHAFT_SCORE_CAP, type PredictionCheckId, type PredictionInput } from './prediction.js';

// contract §7: the prediction TABLE — a good baseline passes every check; each row breaks one rule
// (or a few, where said) and names the checks that must fail, the score and the band.

const OPT_IN =
  'Customers opt in on the web form at https://acmebakery.com/sms by checking an unticked box agreeing to receive texts. ' +
  'Consent is not a condition of purchase. Msg frequency varies. Msg & data rates may apply. Reply STOP to opt out, HELP for help.';

const baseline = (): PredictionInput => ({
  brand: { legalName: 'Acme Bakery LLC', website: 'https://acmebakery.com', email: 'hello@acmebakery.com' },
  campaign: {
    name: 'Acme Bakery orders',
    useCase: 'MIXED',
    description: 'Acme Bakery sends order updates and weekly specials to customers who signed up on our website.',
    sampleMessages: [
      'Acme Bakery: your order #1234 is ready for pickup. Reply STOP to opt out.',
      'Acme Bakery: this week 20% off sourdough loaves. Reply STOP to opt out, HELP for help.',
    ],
    optInDetails: OPT_IN,
    privacyPolicyLink: 'https://acmebakery.com/privacy',
    termsAndConditionsLink: 'https://acmebakery.com/terms',
    embeddedLink: false,
    embeddedPhone: false,
  },
});

type Row = [name: string, change: (i: PredictionInput) => void, failed: PredictionCheckId[]];
const withSamples = (...s: string[]) => (i: PredictionInput) => void (i.campaign.sampleMessages = s);
const withOptIn = (text: string) => (i: PredictionInput) => void (i.campaign.optInDetails = text);

const ROWS: Row[] = [
  ['baseline', () => {}, []],
  ['a sample without the brand name', withSamples('Acme Bakery: your order is ready. Reply STOP to opt out.', 'Your bread is ready. Reply STOP to opt out.'), ['samples.brand_name']],
  ['no opt-out language in the samples', withSamples('Acme Bakery: your order is ready.', 'Acme Bakery: 20% off sourdough this week.'), ['samples.opt_out']],
  ['a single sample', withSamples('Acme Bakery: your order is ready. Reply STOP to opt out.'), ['samples.min_count']],
  [
    'a public URL shortener (links declared)',
    (i) => {
      withSamples('Acme Bakery: menu at bit.ly/acme-menu. Reply STOP to opt out.', 'Acme Bakery: your order is ready. Reply STOP to opt out.')(i);
      i.campaign.embeddedLink = true;
    },
    ['samples.no_shortener'],
  ],
  ['a link in a sample while embeddedLink is false', withSamples('Acme Bakery: menu at https://acmebakery.com/menu. Reply STOP to opt out.', 'Acme Bakery: your order is ready. Reply STOP to opt out.'), ['samples.embedded_link']],
  ['embeddedLink true with no link in the samples', (i) => void (i.campaign.embeddedLink = true), ['samples.embedded_link']],
  ['a phone number in a sample while embeddedPhone is unset', (i) => {
    withSamples('Acme Bakery: questions? Call (415) 555-0134. Reply STOP to opt out.', 'Acme Bakery: your order is ready. Reply STOP to opt out.')(i);
    delete i.campaign.embeddedPhone;
  }, ['samples.embedded_phone']],
  ['embeddedPhone true with no number in the samples', (i) => void (i.campaign.embeddedPhone = true), ['samples.embedded_phone']],
  [
    'opt-in details without a channel (disclosures in the opt-in message)',
    (i) => {
      i.campaign.optInDetails = 'Customers agree to receive order updates and specials.';
      i.campaign.optinMessage = 'Acme Bakery: thanks! Msg frequency varies. Msg & data rates may apply. Reply STOP to opt out, HELP for help.';
    },
    ['opt_in.channel'],
  ],
  [
    'opt-in details that name the messages ("texts"), not where consent is given',
    (i) => {
      i.campaign.optInDetails = 'Customers agree to receive texts about their orders.';
      i.campaign.optinMessage = 'Acme Bakery: thanks! Msg frequency varies. Msg & data rates may apply. Reply STOP to opt out, HELP for help.';
    },
    ['opt_in.channel'],
  ],
  ['a keyword opt-in names its channel', withOptIn('Customers Text BREAD to 55555 to agree to receive our specials. Msg frequency varies. Msg & data rates may apply. Reply STOP to opt out, HELP for help.'), []],
  [
    'opt-in details without consent',
    (i) => {
      i.campaign.optInDetails = 'Phone numbers are collected on the web form at checkout.';
      i.campaign.optinMessage = 'Acme Bakery: Msg frequency varies. Msg & data rates may apply. Reply STOP to opt out, HELP for help.';
    },
    ['opt_in.consent'],
  ],
  ['consent bundled with the terms', withOptIn(`${OPT_IN} By using our services you agree to receive texts.`.replace('Consent is not a condition of purchase. ', '')), ['consent.not_bundled']],
  ['consent as a condition of purchase', withOptIn(OPT_IN.replace('is not a condition', 'is a condition')), ['consent.not_bundled']],
  ['no message frequency', withOptIn(OPT_IN.replace('Msg frequency varies. ', '')), ['consent.frequency']],
  ['no "Msg & data rates may apply"', withOptIn(OPT_IN.replace('Msg & data rates may apply. ', '')), ['consent.rates']],
  ['no STOP/HELP at opt-in', withOptIn(OPT_IN.replace(' Reply STOP to opt out, HELP for help.', '')), ['consent.stop_help']],
  ['STOP without HELP at opt-in', withOptIn(OPT_IN.replace(', HELP for help', '')), ['consent.stop_help']],
  ['no privacy link', (i) => void (i.campaign.privacyPolicyLink = null), ['links.privacy']],
  ['a privacy "link" that is not an address', (i) => void (i.campaign.privacyPolicyLink = 'see our site'), ['links.privacy']],
  ['no terms link', (i) => void delete i.campaign.termsAndConditionsLink, ['links.terms']],
  ['a privacy link without its scheme (a bare domain is not a URL)', (i) => void (i.campaign.privacyPolicyLink = 'acmebakery.com/privacy'), ['links.privacy']],
  ['a terms link that is not http(s)', (i) => void (i.campaign.termsAndConditionsLink = 'ftp://acmebakery.com/terms'), ['links.terms']],
  ['no website', (i) => void (i.brand!.website = null), ['brand.website']],
  ['a website that is not a URL ("not a url")', (i) => void (i.brand!.website = 'not a url'), ['brand.website']],
  ['a website whose host has no dot', (i) => void (i.brand!.website = 'https://acmebakery'), ['brand.website']],
  ['a malformed brand website beside a good campaign website', (i) => {
    i.brand!.website = 'acmebakery.com';
    i.campaign.websiteUrl = 'https://acmebakery.com';
  }, ['brand.website']],
  ['an email at another domain', (i) => void (i.brand!.email = 'owner@bakerymail.net'), ['brand.domain_match']],
  ['a free-mail email', (i) => void (i.brand!.email = 'acmebakery@gmail.com'), ['brand.domain_match']],
  ['a campaign website other than the brand\'s', (i) => void (i.campaign.websiteUrl = 'https://other-shop.com'), ['brand.domain_match']],
  ['a too-short description', (i) => void (i.campaign.description = 'Order texts.'), ['description.specific']],
  ['a vague description', (i) => void (i.campaign.description = 'We send various messages for marketing and other things to all our customers.'), ['description.specific']],
  ['SHAFT content in a sample (alcohol)', withSamples('Acme Bakery: pair our sourdough with a wine tasting Friday. Reply STOP to opt out.', 'Acme Bakery: your order is ready. Reply STOP to opt out.'), ['content.shaft']],
  ['SHAFT content in the description (cannabis)', (i) => void (i.campaign.description = 'Acme Bakery sends order updates and weekly specials on our CBD cookies to customers who signed up.'), ['content.shaft']],
  // not failures: the rules read names, domains and hosts on boundaries
  ['the display name in the samples', (i) => {
    i.brand!.displayName = 'Crumbs';
    withSamples('Crumbs: your order is ready. Reply STOP to opt out.', 'Acme Bakery: 20% off sourdough. Reply STOP to opt out.')(i);
  }, []],
  ['the legal name with its suffix, any case', withSamples('ACME BAKERY, LLC: your order is ready. Reply STOP to opt out.', 'acme bakery: 20% off. Reply STOP to opt out.'), []],
  ['a www. website and a subdomain email', (i) => {
    i.brand!.website = 'https://www.acmebakery.com';
    i.brand!.email = 'owner@mail.acmebakery.com';
  }, []],
  ['no brand and no email: the website comes from the campaign', (i) => {
    i.brand = { legalName: 'Acme Bakery' };
    i.campaign.websiteUrl = 'https://acmebakery.com';
  }, []],
  ['a word that only contains a SHAFT word ("begun", "forum")', (i) => void (i.campaign.description = 'Acme Bakery has begun a forum and sends order updates to customers who signed up on our website.'), []],
  ['an everyday phrase with a SHAFT word ("root beer", "glue gun")', (i) => void (i.campaign.description = 'Acme Bakery sends order updates, root beer float specials and glue gun craft nights to customers who signed up.'), []],
  ['a SHAFT word beside an excepted phrase still counts', (i) => void (i.campaign.description = 'Acme Bakery sends root beer and craft beer specials to customers who signed up on our website.'), ['content.shaft']],
  // several failures at once
  ['no brand given (its name and website unknown)', (i) => void (i.brand = null), ['samples.brand_name', 'brand.website']],
  [
    'an empty campaign',
    (i) => {
      i.brand = null;
      i.campaign = {};
    },
    ['samples.brand_name', 'samples.opt_out', 'samples.min_count', 'opt_in.channel', 'opt_in.consent', 'consent.frequency', 'consent.rates', 'consent.stop_help', 'links.privacy', 'links.terms', 'brand.website', 'description.specific'],
  ],
];

const expectedScore = (failed: PredictionCheckId[]) => {
  const raw = 100 - failed.reduce((s, id) => s + PREDICTION_WEIGHTS[id], 0);
  return failed.includes('content.shaft') ? Math.min(raw, SHAFT_SCORE_CAP) : raw;
};

describe('predictApproval: the rule table', () => {
  it.each(ROWS)('%s', (_name, change, failed) => {
    const input = baseline();
    change(input);
    const p = predictApproval(input);
    expect(PredictionSchema.parse(p)).toEqual(p);
    expect(p.checks.length).toBe(Object.keys(PREDICTION_WEIGHTS).length);
    expect(p.checks.filter((c) => !c.passed).map((c) => c.id).sort()).toEqual([...failed].sort());
    expect(p.score).toBe(expectedScore(failed));
    expect(p.band).toBe(bandOf(p.score));
    // one suggestion per failed check, null on passed ones, in the order of the checks
    for (const c of p.checks) expect(c.suggestion === null).toBe(c.passed);
    expect(p.suggestions).toEqual(p.checks.filter((c) => !c.passed).map((c) => c.suggestion));
  });

  it('a single failure from the baseline keeps the band high, except SHAFT content, which caps it low', () => {
    const bands = ROWS.filter(([, , f]) => f.length === 1).map(([name, change, failed]) => {
      const input = baseline();
      change(input);
      return [name, failed[0], predictApproval(input).band] as const;
    });
    expect(bands.length).toBeGreaterThan(10);
    for (const [name, id, band] of bands) expect([name, band]).toEqual([name, id === 'content.shaft' ? 'low' : 'high']);
  });

  it('an empty campaign is low and below the approval line', () => {
    const p = predictApproval({ brand: null, campaign: {} });
    expect(p.band).toBe('low');
    expect(p.score).toBeLessThan(PREDICTION_BAND_FLOORS.medium);
  });
});

describe('predictApproval: the weights', () => {
  it('add up to 100 and cover every check, each with a stable id in the order returned', () => {
    const ids = predictApproval(baseline()).checks.map((c) => c.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(Object.keys(PREDICTION_WEIGHTS));
    expect(Object.values(PREDICTION_WEIGHTS).reduce((a, b) => a + b, 0)).toBe(100);
  });

  it('bands follow PREDICTION_BAND_FLOORS', () => {
    expect(bandOf(PREDICTION_BAND_FLOORS.high)).toBe('high');
    expect(bandOf(PREDICTION_BAND_FLOORS.high - 1)).toBe('medium');
    expect(bandOf(PREDICTION_BAND_FLOORS.medium)).toBe('medium');
    expect(bandOf(PREDICTION_BAND_FLOORS.medium - 1)).toBe('low');
  });

  it('names what it found in the suggestion', () => {
    const input = baseline();
    input.campaign.sampleMessages = ['Acme Bakery: see tinyurl.com/x and t.co/y. Reply STOP to opt out.', 'Acme Bakery: ok. Reply STOP to opt out.'];
    input.campaign.embeddedLink = true;
    const s = predictApproval(input).checks.find((c) => c.id === 'samples.no_shortener')!.suggestion;
    expect(s).toContain('tinyurl.com');
    expect(s).toContain('t.co');
    input.campaign.sampleMessages = ['Acme Bakery: visit what.com. Reply STOP to opt out.', 'Acme Bakery: ok. Reply STOP to opt out.'];
    expect(predictApproval(input).checks.find((c) => c.id === 'samples.no_shortener')!.passed).toBe(true);
  });
});
