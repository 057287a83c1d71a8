// The words and patterns the approval prediction reads (contract §7: a transparent rule engine).
// Word lists live in WORDS, regular expressions in PATTERNS, and nowhere else: a rule in
// prediction.ts names the list it reads, so a reviewer can see exactly what a check matches.
// Everything is matched case-insensitively on whole words unless a pattern says otherwise.

/** The word lists (lower case). Each list's comment says which check reads it and why. */
export const WORDS = {
  /**
   * samples.opt_out — how a consumer stops messages. CTIA Messaging Principles: the opt-out
   * keywords carriers honour are STOP, UNSUBSCRIBE, CANCEL, END, QUIT, STOPALL; reviewers look
   * for "Reply STOP" (or "opt out"/"unsubscribe") in the samples.
   */
  optOut: ['stop', 'stopall', 'unsubscribe', 'opt out', 'opt-out', 'optout'],
  /** consent.stop_help — the HELP keyword carriers expect disclosed beside STOP (CTIA). */
  help: ['help'],
  /**
   * opt_in.channel — the ways a consumer can give consent that a reviewer can verify (TCR:
   * "describe how a consumer opts in", web form, keyword, paper form, point of sale, app…).
   */
  optInChannels: [
    'web form', 'website', 'online form', 'sign-up form', 'signup form', 'sign up form', 'form', 'checkout',
    // not "text"/"sms" alone: "agree to receive texts" names the messages, not where consent is given
    'keyword', 'texting', 'short code',
    'paper form', 'paper', 'in store', 'in-store', 'point of sale', 'pos', 'tablet', 'kiosk', 'counter',
    'app', 'mobile app', 'application', 'phone call', 'call', 'verbal', 'verbally', 'ivr',
    'qr code', 'qr', 'email', 'account settings', 'portal', 'landing page', 'checkbox', 'check box',
  ],
  /**
   * opt_in.consent — words that say the consumer actively agreed (TCR rejects opt-in details that
   * only describe a list: "customers are added" is not consent).
   */
  consent: [
    'consent', 'consents', 'consented', 'agree', 'agrees', 'agreed', 'opt in', 'opt-in', 'opts in', 'opted in',
    'optin', 'subscribe', 'subscribes', 'subscribed', 'sign up', 'signs up', 'signed up', 'check a box',
    'checks a box', 'checkbox', 'check box', 'request', 'requests', 'requested', 'enroll', 'enrolls', 'text join',
  ],
  /**
   * description.specific — placeholder or catch-all descriptions reviewers reject as vague
   * (TCR: "campaign description must clearly explain the purpose").
   */
  vagueDescription: [
    'lorem ipsum', 'test campaign', 'testing', 'tbd', 'todo', 'asdf', 'n/a', 'various purposes', 'various messages',
    'various things', 'general purpose', 'general messages', 'miscellaneous', 'misc', 'anything', 'all kinds of',
  ],
  /**
   * samples.no_shortener — public URL shorteners. Carriers filter shared shortener domains because
   * spammers use them (CTIA; T-Mobile code of conduct): use a branded or full domain instead.
   */
  urlShorteners: [
    'bit.ly', 'tinyurl.com', 'goo.gl', 't.co', 'ow.ly', 'is.gd', 'buff.ly', 'rebrand.ly', 'cutt.ly', 'shorturl.at',
    'tiny.cc', 'rb.gy', 'bl.ink', 't.ly', 's.id', 'lnkd.in', 'v.gd', 'shorte.st', 'adf.ly', 'tr.im',
  ],
  /**
   * content.shaft — SHAFT content (sex, hate, alcohol, firearms, tobacco) and cannabis, which the
   * US carriers prohibit or restrict on 10DLC (CTIA Messaging Principles §5; T-Mobile and
   * Verizon codes of conduct; cannabis/CBD is federally illegal, so prohibited outright).
   */
  shaft: {
    sex: ['sex', 'sexy', 'sexual', 'xxx', 'porn', 'porno', 'pornography', 'nude', 'nudes', 'escort', 'escorts', 'erotic', 'adult entertainment', 'onlyfans'],
    hate: ['hate group', 'white power', 'white supremacy', 'nazi', 'kkk', 'racial slur', 'hate speech'],
    alcohol: ['alcohol', 'alcoholic', 'beer', 'beers', 'wine', 'wines', 'liquor', 'vodka', 'whiskey', 'whisky', 'tequila', 'rum', 'brewery', 'happy hour', 'cocktail', 'cocktails'],
    firearms: ['firearm', 'firearms', 'gun', 'guns', 'handgun', 'rifle', 'rifles', 'pistol', 'ammo', 'ammunition', 'gun show'],
    tobacco: ['tobacco', 'cigarette', 'cigarettes', 'cigar', 'cigars', 'vape', 'vapes', 'vaping', 'e-cig', 'e-cigarette', 'nicotine', 'hookah', 'juul'],
    cannabis: ['cannabis', 'marijuana', 'cbd', 'thc', 'dispensary', 'edibles', 'kratom'],
  },
  /** content.shaft — everyday phrases that contain a SHAFT word but are not SHAFT content; removed first. */
  shaftExceptions: ['root beer', 'ginger beer', 'glue gun', 'nail gun', 'heat gun', 'staple gun', 'spray gun', 'caulk gun', 'grease gun', 'wine red', 'sex offender registry'],
  /** Legal suffixes dropped before looking for the brand's name in a sample ("Acme LLC" → "acme"). */
  legalSuffixes: ['inc', 'incorporated', 'llc', 'l.l.c', 'ltd', 'limited', 'corp', 'corporation', 'co', 'company', 'plc', 'lp', 'llp', 'pllc', 'gmbh'],
  /** Free mail domains: a brand email there cannot vouch for the website (TCR brand identity checks). */
  freeMailDomains: ['gmail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'aol.com', 'icloud.com', 'live.com', 'msn.com', 'proton.me', 'protonmail.com', 'gmx.com', 'mail.com'],
} as const;

/** The regular expressions. */
export const PATTERNS = {
  /** samples.embedded_link — anything a handset would render as a link. */
  url: /\b(?:https?:\/\/|www\.)[^\s]+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|co|us|ly|gl|at|cc|gd|me|app|info|biz|shop|store|link|id|in)(?:\/[^\s]*)?(?=[\s.,!?)]|$)/i,
  /** samples.embedded_phone — a North American number, with or without +1 and separators. */
  phone: /(?:\+?1[\s.-]?)?\(?\b[2-9]\d{2}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b/,
  /**
   * consent.frequency — a message frequency disclosure: "4 msgs/month", "up to 2 messages per
   * week", "message frequency varies", "recurring messages" (CTIA: frequency must be disclosed).
   */
  frequency: /\b(?:msgs?|messages?|texts?)\s+freq(?:uency)?\b|\bfrequency\s+(?:varies|may vary)\b|\b\d+\s*(?:msgs?|messages?|texts?)\s*(?:\/|per|a|an|each|every)\s*(?:day|week|wk|month|mo|year)\b|\brecurring\s+(?:msgs?|messages?|texts?|automated)\b/i,
  /** consent.rates — "Msg & data rates may apply" (CTIA disclosure, required by every carrier). */
  rates: /\b(?:msg|message)s?\s*(?:&|and|\+)\s*data\s+rates\s+may\s+apply\b/i,
  /**
   * consent.not_bundled — consent folded into something else: required for a purchase or service,
   * accepted with the terms, pre-checked, or automatic (CTIA: consent must not be a condition of
   * purchase; TCR rejects "by using our service you agree to receive texts").
   */
  bundledConsent:
    /\b(?:required|mandatory|condition of (?:purchase|service|employment)|automatically (?:enrolled|subscribed|opted in|added)|pre-?checked|pre-?selected|checked by default|by (?:using|accepting|agreeing to|visiting|purchasing)\s+(?:our|the|this)\s+(?:terms|services?|site|website|app|products?))\b/i,
  /** Phrases that negate the bundling words above ("consent is not a condition of purchase"). */
  bundledNegation: /\b(?:not|never|isn't|is not|aren't)\s+(?:a\s+)?(?:required|mandatory|condition of (?:purchase|service|employment)|pre-?checked|pre-?selected|checked by default)\b|\boptional\b/gi,
  /**
   * opt_in.channel — a keyword opt-in: "Text JOIN to 55555", "send the keyword YOGA" (the keyword in
   * capitals, as advertised; STOP and HELP are not opt-in keywords).
   */
  keywordOptIn: /\b(?:[Tt]ext(?:ing)?|TEXT|[Tt]xt|[Ss]end(?:ing)?|SEND)\s+(?:the\s+(?:word|keyword)\s+)?["'“]?(?!STOP\b|HELP\b)[A-Z][A-Z0-9]+\b/,
} as const;

/**
 * A whole-word (or whole-phrase) match, any case: "gun" is not in "begun"; spaces and hyphens in a
 * phrase match any run of either ("opt out" matches "opt-out").
 */
export function hasWord(text: string, word: string): boolean {
  return wordPattern(word).test(text);
}

/** `text` with every whole-word occurrence of `words` replaced by a space. */
export function withoutWords(text: string, words: readonly string[]): string {
  return words.reduce((t, w) => t.replace(new RegExp(wordPattern(w).source, 'giu'), ' '), text);
}

function wordPattern(word: string): RegExp {
  const body = word
    .split(/[\s-]+/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('[\\s-]+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'iu');
}
