// Drafting a campaign from business info (contract §7: `POST /v1/registrations/draft` → a campaign
// create request without `brandId`; spec: Registration inputs — Business info). PURE: the same info
// always gives the same draft. The draft is written to pass the approval prediction
// (prediction.ts): every sample names the business and carries opt-out language, the opt-in details
// name the channel and the consent with the CTIA disclosures, links come from the website.

import type { CampaignContentBody } from '../../../api/schemas/campaigns.js';
import type { BusinessInfoBody } from '../../../api/schemas/registrations.js';
import { DRAFT_SAMPLES, REGISTRATION_LIMITS } from '../../../api/values/registration.js';
import { tradingName } from './brand-name.js';
import { hasWord } from './prediction-lexicon.js';

/**
 * The use case chosen from the description (Decision: the spec is silent on how). Each registered
 * TCR use case is picked when the description uses one of its words (whole words, any case):
 * one match → that use case; several → `MIXED` with the matches as `subUsecases` (TCR: a mixed
 * campaign lists its sub use cases); none → `LOW_VOLUME` (TCR's low-volume mixed use case, the
 * usual fit for a small business sending a little of everything). Each carries the sample a
 * reviewer expects for it.
 */
export const DRAFT_USE_CASES = [
  {
    useCase: '2FA',
    words: ['verification code', 'verification codes', 'one-time code', 'one-time password', 'otp', '2fa', 'two-factor', 'login code', 'login codes', 'authentication'],
    sample: (n: string) => `${n}: your verification code is 482913. It expires in 10 minutes. Reply STOP to opt out.`,
  },
  {
    useCase: 'ACCOUNT_NOTIFICATION',
    words: ['account', 'accounts', 'statement', 'statements', 'balance', 'billing', 'invoice', 'invoices', 'payment', 'payments'],
    sample: (n: string) => `${n}: your monthly statement is ready; your payment is due on the 15th. Reply STOP to opt out.`,
  },
  {
    useCase: 'DELIVERY_NOTIFICATION',
    words: ['delivery', 'deliveries', 'deliver', 'shipping', 'shipment', 'shipments', 'order status', 'orders', 'order', 'tracking', 'package', 'packages', 'pickup'],
    sample: (n: string) => `${n}: your order is ready and will be delivered today between 2 and 4 PM. Reply STOP to opt out.`,
  },
  {
    useCase: 'CUSTOMER_CARE',
    words: ['support', 'customer service', 'customer care', 'help desk', 'questions', 'appointment', 'appointments', 'reminder', 'reminders', 'booking', 'bookings', 'reservation', 'reservations'],
    sample: (n: string) => `${n}: reminder of your appointment tomorrow at 10:00 AM. Reply C to confirm or call us to reschedule. Reply STOP to opt out.`,
  },
  {
    useCase: 'MARKETING',
    words: ['promotion', 'promotions', 'promotional', 'deal', 'deals', 'offer', 'offers', 'discount', 'discounts', 'sale', 'sales', 'special', 'specials', 'coupon', 'coupons', 'newsletter', 'marketing', 'events'],
    sample: (n: string) => `${n}: this week only, 15% off for our text subscribers. Show this message at checkout. Reply STOP to opt out.`,
  },
  {
    useCase: 'FRAUD_ALERT',
    words: ['fraud', 'suspicious activity', 'unusual activity'],
    sample: (n: string) => `${n}: we noticed an unusual purchase of $250.00 on your card. If it was not you, reply NO. Reply STOP to opt out.`,
  },
  {
    useCase: 'POLLING_VOTING',
    words: ['survey', 'surveys', 'poll', 'polls', 'feedback', 'vote', 'voting'],
    sample: (n: string) => `${n}: how did we do? Reply with a score from 1 to 5. Reply STOP to opt out.`,
  },
  {
    useCase: 'CHARITY',
    words: ['donation', 'donations', 'donate', 'donors', 'charity', 'fundraising', 'fundraiser'],
    sample: (n: string) => `${n}: thanks to donors like you we served 500 meals this month. Reply STOP to opt out.`,
  },
  {
    useCase: 'HIGHER_EDUCATION',
    words: ['students', 'student', 'university', 'college', 'campus', 'enrollment', 'tuition'],
    sample: (n: string) => `${n}: registration for spring classes opens Monday. Reply STOP to opt out.`,
  },
] as const;

/** The use case when the description matches none (see DRAFT_USE_CASES). */
export const DRAFT_DEFAULT_USE_CASE = 'LOW_VOLUME';

/**
 * How the opt-in details describe each channel (Decision: `optInChannel` is free text; it is
 * matched by its words, first match wins). Without a channel: a web form when there is a website,
 * else a keyword texted to the number (the two channels a reviewer can verify without a visit).
 */
const CHANNELS = [
  { kind: 'keyword', words: /\b(?:keyword|text(?:ing)?|sms|short ?code)\b/i },
  { kind: 'paper', words: /\b(?:paper|clipboard|sign-?up sheet)\b/i },
  { kind: 'pos', words: /\b(?:point of sale|pos|in[- ]store|store|counter|tablet|kiosk|register)\b/i },
  { kind: 'app', words: /\b(?:app|application|mobile)\b/i },
  { kind: 'phone', words: /\b(?:phone|call|calls|ivr|verbal(?:ly)?)\b/i },
  { kind: 'web', words: /\b(?:web|website|site|online|form|checkout|landing page|portal)\b/i },
] as const;
type ChannelKind = (typeof CHANNELS)[number]['kind'] | 'other';

const OPT_IN_KEYWORD = 'JOIN';
/** CTIA: the opt-out keywords carriers honour, the help keywords, and the opt-in ones. */
const KEYWORDS = { optIn: `${OPT_IN_KEYWORD}, START`, optOut: 'STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT', help: 'HELP, INFO' } as const;
/** The CTIA disclosures every opt-in carries (prediction: consent.frequency, consent.rates, consent.stop_help). */
const DISCLOSURES = 'Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to opt out.';

/** contract §7: write a campaign create request (without `brandId`) from business info. */
export function draftCampaign(info: BusinessInfoBody): CampaignContentBody {
  const name = tradingName(info.legalName);
  const site = originOf(info.website);
  const matched = DRAFT_USE_CASES.filter((u) => u.words.some((w) => hasWord(info.description, w)));
  const useCase = matched.length === 0 ? DRAFT_DEFAULT_USE_CASE : matched.length === 1 ? matched[0]!.useCase : 'MIXED';
  const channel = channelOf(info.optInChannel, site);

  return {
    name: clip(`${name} ${useCase === DRAFT_DEFAULT_USE_CASE ? 'customer' : useCaseWords(useCase)} messages`, REGISTRATION_LIMITS.shortText),
    useCase,
    subUsecases: useCase === 'MIXED' ? matched.slice(0, REGISTRATION_LIMITS.subUsecases).map((u) => u.useCase) : null,
    description: clip(descriptionOf(info, name, channel), REGISTRATION_LIMITS.longText),
    sampleMessages: samplesOf(name, matched),
    optInDetails: clip(optInDetailsOf(name, channel, info.optInChannel, site), REGISTRATION_LIMITS.longText),
    ctaDetails: ctaOf(name, channel),
    optinKeywords: KEYWORDS.optIn,
    optinMessage: `${name}: you are subscribed to text messages from ${name}. ${DISCLOSURES}`,
    optoutKeywords: KEYWORDS.optOut,
    optoutMessage: `${name}: you are unsubscribed and will receive no more messages. Reply ${OPT_IN_KEYWORD} to subscribe again.`,
    helpKeywords: KEYWORDS.help,
    helpMessage: `${name}: for help${site ? `, visit ${site}` : ', reply with your question'}. ${DISCLOSURES}`,
    // links from the website (Decision: the conventional /privacy and /terms paths of the site;
    // without a website they stay null and the prediction asks for them)
    websiteUrl: site,
    privacyPolicyLink: site ? `${site}/privacy` : null,
    termsAndConditionsLink: site ? `${site}/terms` : null,
    subscriberOptin: true,
    subscriberOptout: true,
    subscriberHelp: true,
    // the samples carry neither links nor phone numbers (prediction: samples.embedded_link/_phone)
    embeddedLink: false,
    embeddedPhone: false,
    numberPool: false,
    ageGated: false,
    directLending: false,
    affiliateMarketing: false,
    termsAndConditions: true,
  };
}

/** contract §7: DRAFT_SAMPLES.min–max samples, each naming the business and carrying opt-out language. */
function samplesOf(name: string, matched: readonly (typeof DRAFT_USE_CASES)[number][]): string[] {
  const welcome = `${name}: thanks for subscribing to our text messages! ${DISCLOSURES}`;
  const generic = `${name}: reminder that your visit is tomorrow at 10:00 AM. Reply STOP to opt out.`;
  const specific = matched.map((u) => u.sample(name));
  const all = [welcome, ...(specific.length > 0 ? specific : [generic])];
  return all.slice(0, DRAFT_SAMPLES.max);
}

/**
 * `s` without the dots and whitespace it ends with. A loop, not `/[.\s]+$/`: that expression retries
 * from every dot or space of a run that does not reach the end, so a description of `. . . x` took
 * time growing with the square of its length.
 */
function withoutTrailingDots(s: string): string {
  let end = s.length;
  while (end > 0 && (s[end - 1] === '.' || s[end - 1]!.trim() === '')) end--;
  return s.slice(0, end);
}

function descriptionOf(info: BusinessInfoBody, name: string, channel: ChannelKind): string {
  const about = withoutTrailingDots(info.description.trim());
  const vertical = info.vertical?.trim() ? ` (${info.vertical.trim()})` : '';
  return [
    `${name}${vertical} sends text messages to consumers who opted in ${channelPhrase(channel)}.`,
    `About the business and its messages: ${about}.`,
    'Messages go only to consumers who gave consent; they can reply STOP to opt out at any time and HELP for help.',
  ].join(' ');
}

function optInDetailsOf(name: string, channel: ChannelKind, given: string | undefined, site: string | null): string {
  const how: Record<ChannelKind, string> = {
    web: `Consumers opt in on the web form${site ? ` at ${site}` : ''}: they enter their mobile number and check an unticked box agreeing to receive text messages from ${name}.`,
    keyword: `Consumers opt in by texting the keyword ${OPT_IN_KEYWORD} to our number, advertised in store and online; texting the keyword is their request to receive text messages from ${name}.`,
    paper: `Consumers opt in on a paper sign-up form: they write their mobile number and sign beside a statement agreeing to receive text messages from ${name}.`,
    pos: `Consumers opt in at the point of sale: they enter their mobile number on the in-store tablet and check an unticked box agreeing to receive text messages from ${name}.`,
    app: `Consumers opt in in our mobile app: they enter their mobile number and turn on a switch, off by default, agreeing to receive text messages from ${name}.`,
    phone: `Consumers opt in by phone call: the agent reads the consent statement and the consumer verbally agrees to receive text messages from ${name}; the agreement is recorded.`,
    other: `Consumers opt in through ${given?.trim() ?? 'our sign-up'}: they give their mobile number and agree to receive text messages from ${name}.`,
  };
  return [how[channel], 'Consent is not a condition of purchase.', DISCLOSURES, `The confirmation text repeats these terms.`].join(' ');
}

function ctaOf(name: string, channel: ChannelKind): string {
  const action = channel === 'keyword' ? `Text ${OPT_IN_KEYWORD} to subscribe` : 'By checking this box, I agree';
  return `${action} to receive text messages from ${name} at the number provided. Consent is not a condition of purchase. ${DISCLOSURES}`;
}

function channelOf(given: string | undefined, site: string | null): ChannelKind {
  if (given && given.trim()) return CHANNELS.find((c) => c.words.test(given))?.kind ?? 'other';
  return site ? 'web' : 'keyword';
}

function channelPhrase(channel: ChannelKind): string {
  const phrases: Record<ChannelKind, string> = {
    web: 'on our website form',
    keyword: `by texting ${OPT_IN_KEYWORD}`,
    paper: 'on a paper sign-up form',
    pos: 'at the point of sale',
    app: 'in our mobile app',
    phone: 'by phone',
    other: 'when they sign up',
  };
  return phrases[channel];
}

function useCaseWords(useCase: string): string {
  return useCase === '2FA' ? 'verification' : useCase.toLowerCase().replace(/_/g, ' ');
}

/** "acme.com" or "https://acme.com/about" → "https://acme.com"; anything else → null. */
function originOf(website: string | undefined): string | null {
  const s = website?.trim();
  if (!s) return null;
  try {
    const url = new URL(/^https?:\/\//i.test(s) ? s : `https://${s}`);
    return url.hostname.includes('.') ? url.origin : null;
  } catch {
    return null;
  }
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max);
}
