// Hosted opt-in page facts as plain values (no zod). contract §7 (the pages and their paths live in
// registration.ts `HOSTED_PAGE_PATHS`); everything here is a decision where the spec is silent.

/** Decision: the confirmation page a valid submission redirects to (Post/Redirect/Get). */
export const HOSTED_CONFIRMATION_PATH = (brandId: string): string => `/p/${brandId}/opt-in/confirmed`;

/** Decision: bounds of the public opt-in form. */
export const LEAD_FORM_LIMITS = {
  /** The whole urlencoded body: the form has five short fields. */
  bodyBytes: 16 * 1024,
  name: 100,
  email: 254,
  phone: 32,
} as const;

/**
 * Decision: the public form is rate limited per client address (the page has no key to count by):
 * a token bucket of `burst` submissions refilled at `ratePerSec`.
 */
export const LEAD_FORM_RATE = { ratePerSec: 1, burst: 60 } as const;

/** Decision: used when a brand's `pageConfig.messageFrequency` is not set. */
export const DEFAULT_MESSAGE_FREQUENCY = 'Message frequency varies';

/** Decision: used when a brand's `pageConfig.messagePurpose` is not set. */
export const DEFAULT_MESSAGE_PURPOSE = 'updates and offers';

/** WCAG 2.1 AA: the minimum contrast ratio of normal text against its background (1.4.3). */
export const WCAG_AA_TEXT_CONTRAST = 4.5;
/** Decision: the accent colour used when a brand gives none, or one too light for white text. */
export const SAFE_ACCENT_COLOR = '#1a56db';
