// The approval prediction (contract §7: `POST /v1/registrations/predict`; spec: Registration inputs —
// Approval prediction). A transparent rule engine: PURE (no deps, no clock, no I/O), so the predict
// route, the registry's campaign decision (contract §7: approved when the score is at least
// CAMPAIGN_APPROVAL_SCORE) and the CLI's lint all get the same answer for the same input.
//
// Each rule is one check with a stable id; a failed check gives exactly one suggestion, and
// `suggestions` lists them in the order of the checks. The words and patterns the rules read are in
// prediction-lexicon.ts (WORDS, PATTERNS) and nowhere else; what a URL is (a website, a link) is the
// brand website's format, api/values/brand-formats.ts `isWebUrl`.
//
// Score: the sum of the weights of the passed checks (they add up to 100), then the caps:
//
// | check id               | weight | why it weighs that much                                        |
// |------------------------|-------:|----------------------------------------------------------------|
// | samples.brand_name     |     10 | top TCR/DCA rejection reason: the sender is not identified     |
// | samples.opt_out        |     10 | top rejection reason: no "Reply STOP" in the samples           |
// | samples.min_count      |      6 | TCR asks for at least two samples for most use cases           |
// | samples.no_shortener   |      5 | carriers filter public shorteners                              |
// | samples.embedded_link  |      4 | declared attributes must match the content                     |
// | samples.embedded_phone |      3 | same, for phone numbers                                        |
// | opt_in.channel         |      8 | the reviewer must be able to verify where consent is collected |
// | opt_in.consent         |      8 | and that the consumer actively agreed                          |
// | consent.not_bundled    |      6 | consent as a condition of purchase is rejected (CTIA)          |
// | consent.frequency      |      4 | CTIA disclosure at opt-in                                      |
// | consent.rates          |      4 | CTIA disclosure at opt-in                                      |
// | consent.stop_help      |      4 | CTIA disclosure at opt-in                                      |
// | links.privacy          |      6 | carriers want a privacy policy that covers mobile data         |
// | links.terms            |      4 | and messaging terms                                            |
// | brand.website          |      5 | the brand must be verifiable online                            |
// | brand.domain_match     |      4 | a website/email mismatch flags an impersonated brand           |
// | description.specific   |      6 | vague descriptions are rejected                                |
// | content.shaft          |      3 | and caps the score (below)                                     |
//
// Cap: a failed `content.shaft` caps the score at SHAFT_SCORE_CAP (band `low`, below the approval
// score): carriers reject SHAFT content however good the rest of the campaign is.

import type { BrandRegistrationBody } from '../../../api/schemas/brands.js';
import type { CampaignContentBody } from '../../../api/schemas/campaigns.js';
import type { Prediction } from '../../../api/schemas/registrations.js';
import { PREDICTION_BAND_FLOORS, type PredictionBand } from '../../../api/values/registration.js';
import { isWebUrl } from '../../../api/values/brand-formats.js';
import { containsName, tradingName } from './brand-name.js';
import { hasWord, PATTERNS, WORDS, withoutWords } from './prediction-lexicon.js';

export type { Prediction };
export type PredictionCheck = Prediction['checks'][number];

/** What the engine reads: the brand (when known) and the campaign's content, any field missing. */
export interface PredictionInput {
  brand: Partial<BrandRegistrationBody> | null;
  campaign: Partial<CampaignContentBody>;
}

/** The weights of the table above, by check id (they add up to 100). */
export const PREDICTION_WEIGHTS = {
  'samples.brand_name': 10,
  'samples.opt_out': 10,
  'samples.min_count': 6,
  'samples.no_shortener': 5,
  'samples.embedded_link': 4,
  'samples.embedded_phone': 3,
  'opt_in.channel': 8,
  'opt_in.consent': 8,
  'consent.not_bundled': 6,
  'consent.frequency': 4,
  'consent.rates': 4,
  'consent.stop_help': 4,
  'links.privacy': 6,
  'links.terms': 4,
  'brand.website': 5,
  'brand.domain_match': 4,
  'description.specific': 6,
  'content.shaft': 3,
} as const;
export type PredictionCheckId = keyof typeof PREDICTION_WEIGHTS;

/** The most a campaign with SHAFT content can score (band `low`). */
export const SHAFT_SCORE_CAP = 40;

/** Decision: TCR asks for at least two samples; contract §7 names the same floor. */
export const MIN_SAMPLES = 2;
/** Decision: below these a description cannot say who sends what to whom and why. */
export const DESCRIPTION_MIN = { chars: 40, words: 6 } as const;

type Outcome = { passed: true } | { passed: false; suggestion: string };
const ok: Outcome = { passed: true };
const fail = (suggestion: string): Outcome => ({ passed: false, suggestion });

interface Facts {
  brand: Partial<BrandRegistrationBody> | null;
  campaign: Partial<CampaignContentBody>;
  samples: string[];
  brandNames: string[];
  /** optInDetails and ctaDetails: where the consent is described to the reviewer. */
  optInText: string;
  /** optInDetails, ctaDetails and optinMessage: where the disclosures reach the consumer. */
  disclosureText: string;
}

interface Rule {
  id: PredictionCheckId;
  label: string;
  check: (f: Facts) => Outcome;
}

const RULES: Rule[] = [
  {
    // TCR/DCA review: every message must identify the sender (CTIA Messaging Principles 5.1.1;
    // "brand name missing from sample messages" is the most common campaign rejection).
    id: 'samples.brand_name',
    label: 'Sample messages name the brand',
    check: ({ samples, brandNames }) => {
      if (brandNames.length === 0) return fail('Give the brand (or campaign.brandId) so the samples can be checked for its name, and name it in every sample.');
      if (samples.length === 0) return fail(`Add sample messages that name the brand (e.g. start each with "${brandNames[0]}: ").`);
      const missing = samples.filter((s) => !brandNames.some((n) => containsName(s, n)));
      return missing.length === 0 ? ok : fail(`Name the brand in every sample message (e.g. start each with "${brandNames[0]}: "); ${missing.length} of ${samples.length} do not.`);
    },
  },
  {
    // CTIA: the consumer must be told how to stop; DCA reviewers look for "Reply STOP to opt out"
    // in at least one sample (typically the first message after opt-in).
    id: 'samples.opt_out',
    label: 'Sample messages carry opt-out language (STOP)',
    check: ({ samples }) =>
      samples.some((s) => hasAny(s, WORDS.optOut)) ? ok : fail('Add opt-out language to your sample messages, e.g. "Reply STOP to opt out."'),
  },
  {
    // TCR: most use cases need at least two sample messages showing the range of content sent.
    id: 'samples.min_count',
    label: `At least ${MIN_SAMPLES} sample messages`,
    check: ({ samples }) =>
      samples.length >= MIN_SAMPLES ? ok : fail(`Give at least ${MIN_SAMPLES} sample messages that show the kinds of message you will send (you gave ${samples.length}).`),
  },
  {
    // CTIA and carrier codes of conduct: public URL shorteners are filtered as a spam signal.
    id: 'samples.no_shortener',
    label: 'No public URL shorteners in samples',
    check: ({ samples }) => {
      const found = WORDS.urlShorteners.filter((d) => samples.some((s) => hasHost(s, d)));
      return found.length === 0 ? ok : fail(`Replace the public URL shortener (${found.join(', ')}) with your own domain or a branded short link.`);
    },
  },
  {
    // TCR campaign attributes: `embeddedLink` must say whether messages carry links; a mismatch
    // with the samples is a rejection reason (the attribute drives carrier filtering).
    id: 'samples.embedded_link',
    label: 'embeddedLink matches the samples',
    check: ({ samples, campaign }) => {
      const has = samples.some((s) => PATTERNS.url.test(s));
      const declared = campaign.embeddedLink === true;
      if (has === declared) return ok;
      return has
        ? fail('A sample carries a link: set embeddedLink to true (or remove the link from the samples).')
        : fail('embeddedLink is true but no sample carries a link: add a sample with the link you will send (or set embeddedLink to false).');
    },
  },
  {
    // TCR campaign attributes: same for `embeddedPhone`.
    id: 'samples.embedded_phone',
    label: 'embeddedPhone matches the samples',
    check: ({ samples, campaign }) => {
      const has = samples.some((s) => PATTERNS.phone.test(s));
      const declared = campaign.embeddedPhone === true;
      if (has === declared) return ok;
      return has
        ? fail('A sample carries a phone number: set embeddedPhone to true (or remove the number from the samples).')
        : fail('embeddedPhone is true but no sample carries a phone number: add a sample with the number (or set embeddedPhone to false).');
    },
  },
  {
    // TCR: the call to action must be verifiable — the reviewer needs to know where consent is
    // collected (web form, keyword, paper form, point of sale…).
    id: 'opt_in.channel',
    label: 'Opt-in details name the channel',
    check: ({ optInText }) =>
      hasAny(optInText, WORDS.optInChannels) || PATTERNS.keywordOptIn.test(optInText)
        ? ok
        : fail('Say where consumers opt in in optInDetails (e.g. "a web form at https://example.com/sms", "texting JOIN to the number", "a paper form at the counter").'),
  },
  {
    // CTIA: consent must be express and active; opt-in details that only say numbers are collected
    // ("customers are added to our list") are rejected.
    id: 'opt_in.consent',
    label: 'Opt-in details state the consent',
    check: ({ optInText }) =>
      hasAny(optInText, WORDS.consent)
        ? ok
        : fail('Describe the consent in optInDetails: what the consumer does to agree (e.g. "checks an unticked box agreeing to receive texts").'),
  },
  {
    // CTIA Messaging Principles: consent is not a condition of purchase and is not bundled with
    // terms of service; pre-checked boxes are not consent.
    id: 'consent.not_bundled',
    label: 'Consent is not bundled with other terms',
    check: ({ optInText }) =>
      PATTERNS.bundledConsent.test(optInText.replace(PATTERNS.bundledNegation, ' '))
        ? fail('Collect SMS consent on its own (an unticked box or a keyword), not as a requirement of purchase or part of the terms; say "consent is not a condition of purchase".')
        : ok,
  },
  {
    // CTIA: the message frequency is disclosed at opt-in.
    id: 'consent.frequency',
    label: 'Message frequency disclosed',
    check: ({ disclosureText }) =>
      PATTERNS.frequency.test(disclosureText) ? ok : fail('Disclose the message frequency in optInDetails or optinMessage (e.g. "up to 4 msgs/month" or "Msg frequency varies").'),
  },
  {
    // CTIA: "Msg & data rates may apply" is disclosed at opt-in.
    id: 'consent.rates',
    label: '"Msg & data rates may apply" disclosed',
    check: ({ disclosureText }) => (PATTERNS.rates.test(disclosureText) ? ok : fail('Add "Msg & data rates may apply." to optInDetails or optinMessage.')),
  },
  {
    // CTIA: the STOP and HELP keywords are disclosed at opt-in.
    id: 'consent.stop_help',
    label: 'STOP and HELP disclosed at opt-in',
    check: ({ disclosureText }) =>
      hasAny(disclosureText, WORDS.optOut) && hasAny(disclosureText, WORDS.help)
        ? ok
        : fail('Disclose both keywords in optInDetails or optinMessage: "Reply STOP to opt out, HELP for help."'),
  },
  {
    // Carriers require a privacy policy (stating mobile numbers are not shared for marketing).
    id: 'links.privacy',
    label: 'Privacy policy link present',
    check: ({ campaign }) =>
      linkOutcome(campaign.privacyPolicyLink, 'privacyPolicyLink', 'Add privacyPolicyLink: the URL of your privacy policy (the hosted /p/{brandId}/privacy page works).'),
  },
  {
    // Carriers require messaging terms (program name, frequency, rates, STOP/HELP).
    id: 'links.terms',
    label: 'Terms and conditions link present',
    check: ({ campaign }) =>
      linkOutcome(campaign.termsAndConditionsLink, 'termsAndConditionsLink', 'Add termsAndConditionsLink: the URL of your messaging terms (the hosted /p/{brandId}/terms page works).'),
  },
  {
    // TCR brand identity: reviewers verify the business through its website; one given but not a
    // URL (contract §7's format) cannot be visited, whatever the other field says.
    id: 'brand.website',
    label: 'Website present',
    check: ({ brand, campaign }) => {
      const given = [
        ['brand.website', brand?.website],
        ['campaign.websiteUrl', campaign.websiteUrl],
      ].filter((g): g is [string, string] => isGiven(g[1]));
      const malformed = given.filter(([, v]) => !isWebUrl(v.trim()));
      if (malformed.length > 0) return fail(`Give ${malformed.map(([name]) => name).join(' and ')} as a full http(s) URL, like https://acme.example (${malformed.map(([, v]) => JSON.stringify(v)).join(', ')} is not one).`);
      return given.length > 0 ? ok : fail("Give the business's website (brand.website or campaign.websiteUrl).");
    },
  },
  {
    // TCR brand identity: the website and the brand's email must share a domain; a free-mail or
    // other-domain email, or a campaign website other than the brand's, looks like impersonation.
    id: 'brand.domain_match',
    label: 'Website and email domains match',
    check: ({ brand, campaign }) => {
      const sites = [brand?.website, campaign.websiteUrl].map(hostOf).filter((h): h is string => h !== null);
      const emails = [brand?.email].map(emailDomainOf).filter((h): h is string => h !== null);
      const freeMail = emails.find((d) => (WORDS.freeMailDomains as readonly string[]).includes(d));
      if (freeMail) return fail(`Use a brand email at the business's own domain, not ${freeMail}.`);
      const domains = new Set([...sites, ...emails].map(registrableDomain));
      if (domains.size <= 1) return ok;
      return fail(`Use one domain for the website and the brand email (found ${[...domains].join(', ')}).`);
    },
  },
  {
    // TCR: the description says who the business is, what it sends and why; placeholders and
    // one-liners are rejected as vague.
    id: 'description.specific',
    label: 'Description is specific',
    check: ({ campaign }) => {
      const d = (campaign.description ?? '').trim();
      const words = d.split(/\s+/).filter(Boolean);
      const vague = WORDS.vagueDescription.filter((w) => hasWord(d, w));
      if (d.length >= DESCRIPTION_MIN.chars && words.length >= DESCRIPTION_MIN.words && vague.length === 0) return ok;
      return fail(
        vague.length > 0
          ? `Replace the vague wording (${vague.join(', ')}) in the description with who sends the messages, what they say and why.`
          : `Describe who sends the messages, what they say and why, in at least ${DESCRIPTION_MIN.words} words.`,
      );
    },
  },
  {
    // CTIA §5 and the carriers' codes of conduct: SHAFT (sex, hate, alcohol, firearms, tobacco)
    // and cannabis content is prohibited or restricted on 10DLC.
    id: 'content.shaft',
    label: 'No prohibited (SHAFT) content',
    check: ({ samples, campaign }) => {
      const text = withoutWords([...samples, campaign.description ?? ''].join('\n'), WORDS.shaftExceptions);
      const found = Object.entries(WORDS.shaft).flatMap(([category, words]) => {
        const hit = words.find((w) => hasWord(text, w));
        return hit === undefined ? [] : [`${category} ("${hit}")`];
      });
      return found.length === 0 ? ok : fail(`Remove prohibited content (${found.join(', ')}) from the samples and description: carriers reject SHAFT content on 10DLC.`);
    },
  },
];

/** contract §7: run every rule over the input; see the table at the top of the file. */
export function predictApproval(input: PredictionInput): Prediction {
  const facts = factsOf(input);
  const checks: PredictionCheck[] = RULES.map((r) => {
    const o = r.check(facts);
    return { id: r.id, label: r.label, passed: o.passed, suggestion: o.passed ? null : o.suggestion };
  });
  let score = checks.reduce((sum, c) => sum + (c.passed ? PREDICTION_WEIGHTS[c.id as PredictionCheckId] : 0), 0);
  if (checks.some((c) => c.id === 'content.shaft' && !c.passed)) score = Math.min(score, SHAFT_SCORE_CAP);
  return {
    score,
    band: bandOf(score),
    checks,
    suggestions: checks.flatMap((c) => (c.suggestion === null ? [] : [c.suggestion])),
  };
}

/** The band of a score (PREDICTION_BAND_FLOORS). */
export function bandOf(score: number): PredictionBand {
  if (score >= PREDICTION_BAND_FLOORS.high) return 'high';
  if (score >= PREDICTION_BAND_FLOORS.medium) return 'medium';
  return 'low';
}

function factsOf({ brand, campaign }: PredictionInput): Facts {
  const samples = (campaign.sampleMessages ?? []).map((s) => s.trim()).filter((s) => s.length > 0);
  const brandNames = [brand?.legalName, brand?.displayName]
    .flatMap((n) => (n ? [n, tradingName(n)] : []))
    .map((n) => n.trim())
    .filter((n, i, all) => n.length > 0 && all.indexOf(n) === i);
  const optInText = [campaign.optInDetails, campaign.ctaDetails].filter(Boolean).join('\n');
  const disclosureText = [optInText, campaign.optinMessage].filter(Boolean).join('\n');
  return { brand, campaign, samples, brandNames, optInText, disclosureText };
}

// ----- text helpers (pure) -----

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function hasAny(text: string, words: readonly string[]): boolean {
  return words.some((w) => hasWord(text, w));
}

/** The host `domain` appears as a host, not inside a longer one (`t.co` is not in `at.com`). */
function hasHost(text: string, domain: string): boolean {
  return new RegExp(`(?<![\\w.-])${escapeRegExp(domain)}(?![\\w-])`, 'i').test(text);
}

const isGiven = (v: string | null | undefined): v is string => typeof v === 'string' && v.trim() !== '';

/** A link check: missing, or given but not an http(s) URL (the brand website's format, contract §7). */
function linkOutcome(v: string | null | undefined, field: string, missing: string): Outcome {
  if (!isGiven(v)) return fail(missing);
  return isWebUrl(v.trim()) ? ok : fail(`Give ${field} as a full http(s) URL, like https://acme.example/… (${JSON.stringify(v)} is not one).`);
}

function hostOf(v: string | null | undefined): string | null {
  return isGiven(v) && isWebUrl(v.trim()) ? new URL(v.trim()).hostname : null;
}

function emailDomainOf(v: string | null | undefined): string | null {
  const m = typeof v === 'string' ? /^[^@\s]+@([^@\s]+\.[a-z]{2,})$/i.exec(v.trim()) : null;
  return m ? m[1]!.toLowerCase() : null;
}

/** "www.shop.acme.com" → "acme.com"; keeps three labels under a two-letter country's second level ("acme.co.uk"). */
function registrableDomain(host: string): string {
  const labels = host.replace(/\.$/, '').split('.');
  const secondLevel = /^(?:co|com|net|org|gov|ac|edu)$/;
  const keep = labels.length >= 3 && labels.at(-1)!.length === 2 && secondLevel.test(labels.at(-2)!) ? 3 : 2;
  return labels.slice(-keep).join('.');
}
