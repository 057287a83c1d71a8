import type { Clock } from '../../clock.js';
import type { UnitOfWork, DomainEvents } from '../deps.js';
import type { CompliancePages, PageConfig } from '../../../api/schemas/brands.js';
import type { BrandStatus } from '../../../api/values/registration.js';
import { HOSTED_PAGE_PATHS } from '../../../api/values/registration.js';
import { DEFAULT_MESSAGE_FREQUENCY, DEFAULT_MESSAGE_PURPOSE, LEAD_FORM_LIMITS } from '../../../api/values/hosted-pages.js';
import { NUL_OR_LONE_SURROGATE } from '../../../api/values/text.js';
import { E164_PATTERN } from '../../../api/schemas/common.js';
import type { LeadRecord, LeadsRepo } from '../../storage/leads-repo.js';
import type { BrandRecord, BrandsRepo } from '../../storage/brands-repo.js';
import { compliancePagesOf, getPublic } from './brands.js';
import { iso } from '../../clock.js';
import { newId } from '../../ids.js';
import { notFound } from '../../errors.js';

// contract §7: the hosted opt-in page `/p/{brandId}/opt-in` (and its privacy and terms pages) is
// public HTML built from the brand's `pageConfig` and `compliancePages`; submitting its form emits
// `lead.captured` (spec: Event catalog) to the brand's account.

export interface LeadsDeps {
  leads: LeadsRepo;
  brands: BrandsRepo;
  uow: UnitOfWork;
  events: DomainEvents;
  clock: Clock;
}

/** What a hosted page shows of a brand. */
export interface HostedPageBrand {
  id: string;
  accountId: string;
  status: BrandStatus;
  legalName: string;
  displayName: string | null;
  website: string | null;
  email: string | null;
  phone: string | null;
  pageConfig: PageConfig | null;
  compliancePages: CompliancePages | null;
}

/** One piece of the consent label: text, or text linking to another hosted page. */
export type ConsentPart = { text: string; href?: string };

/** Everything a hosted page renders: the brand, its texts (its own or the defaults), the consent. */
export interface HostedPage {
  brand: HostedPageBrand;
  /** The name customers know (displayName, else legalName). */
  brandName: string;
  /** The privacy policy and messaging terms: the brand's own, or the brands module's defaults. */
  texts: CompliancePages;
  /**
   * The brand's own opt-in text, shown above the form; null when it has set none (the default opt-in
   * text is the consent language itself, which the checkbox's label already carries).
   */
  intro: string | null;
  consent: ConsentPart[];
  /** The consent language exactly as the page shows it (the label's text). */
  consentText: string;
}

/**
 * Decision: a page is served for every brand status. A brand under review must be reachable by the
 * registry's reviewers (the opt-in URL is part of what they check), and a rejected brand is fixed
 * and resubmitted with the same pages. Unknown ids are `not_found` (an HTML 404 at the edge).
 */
export async function hostedPage(deps: Pick<LeadsDeps, 'brands'>, brandId: string): Promise<HostedPage> {
  const record = await getPublic(deps, brandId);
  if (!record) throw notFound('brand');
  const brand = hostedPageBrand(record);
  const brandName = brand.displayName?.trim() || brand.legalName;
  const consent = consentParts(brand, brandName);
  return {
    brand,
    brandName,
    texts: compliancePagesOf(record),
    intro: record.compliancePages?.optIn ?? null,
    consent,
    consentText: consent.map((p) => p.text).join(''),
  };
}

/** What a page shows of a brand record (`pageConfig` was validated by PageConfigSchema when set). */
const hostedPageBrand = (b: BrandRecord): HostedPageBrand => ({
  id: b.id,
  accountId: b.accountId,
  status: b.status,
  legalName: b.legalName,
  displayName: b.fields.displayName ?? null,
  website: b.fields.website ?? null,
  email: b.fields.email ?? null,
  phone: b.fields.phone ?? null,
  pageConfig: b.pageConfig as PageConfig | null,
  compliancePages: b.compliancePages,
});

/**
 * The SMS-consent disclosure carriers require next to the checkbox (CTIA Messaging Principles and
 * Best Practices, 10DLC opt-in review): the brand, what the messages are about, how often, that
 * message and data rates may apply, STOP and HELP, the privacy policy and terms, and that consent
 * is not a condition of purchase.
 */
function consentParts(brand: HostedPageBrand, brandName: string): ConsentPart[] {
  const cfg = brand.pageConfig ?? {};
  const purpose = cfg.messagePurpose?.trim() || DEFAULT_MESSAGE_PURPOSE;
  const frequency = (cfg.messageFrequency?.trim() || DEFAULT_MESSAGE_FREQUENCY).replace(/\.$/, '');
  return [
    { text: `I agree to receive recurring automated text messages from ${brandName} about ${purpose} at the phone number provided. ` },
    { text: `${frequency}. Msg & data rates may apply. Reply STOP to opt out, HELP for help. ` },
    { text: 'Consent is not a condition of purchase. See our ' },
    { text: 'Privacy Policy', href: HOSTED_PAGE_PATHS.privacy(brand.id) },
    { text: ' and ' },
    { text: 'Messaging Terms', href: HOSTED_PAGE_PATHS.messagingTerms(brand.id) },
    { text: '.' },
  ];
}

// ---- The form ----

export const LEAD_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'consent'] as const;
export type LeadField = (typeof LEAD_FIELDS)[number];
/** What the visitor typed, kept to fill the form again after an error. */
export type LeadFormValues = { firstName: string; lastName: string; email: string; phone: string; consent: boolean };
export type LeadFormErrors = Partial<Record<LeadField, string>>;

/** The checkbox's submitted value (a browser sends it only when ticked). */
export const CONSENT_VALUE = 'yes';

/** A posted form (urlencoded: a field may repeat; the first counts) as the form's values. */
export function leadFormValues(form: Record<string, string | string[] | undefined>): LeadFormValues {
  const one = (k: string): string => {
    const v = form[k];
    return (Array.isArray(v) ? v[0] : v) ?? '';
  };
  return { firstName: one('firstName'), lastName: one('lastName'), email: one('email'), phone: one('phone'), consent: one('consent') === CONSENT_VALUE };
}

// A pragmatic address check (one @, a dot in the domain, no spaces): the visitor's typo is caught,
// deliverability is the brand's business.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Decision: a phone in E.164, or a US number of 10 digits (or 11 with the leading 1) with the usual
 * punctuation, becomes +1… . NANP area codes and exchanges never start with 0 or 1.
 */
export function normalisePhone(input: string): string | null {
  const s = input.trim();
  if (s.startsWith('+')) {
    const compact = `+${s.slice(1).replace(/[\s().-]/g, '')}`;
    return E164_PATTERN.test(compact) ? compact : null;
  }
  if (!/^[\d\s().-]+$/.test(s)) return null;
  let digits = s.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  if (!/^[2-9]\d{2}[2-9]\d{6}$/.test(digits)) return null;
  return `+1${digits}`;
}

// NUL (`%00` in a form) is refused in every string the service stores, this form's too.
const NOT_TEXT = 'Remove the control characters from this field.';

/** Every failure of the form at once, each on its field; an empty object when it is valid. */
export function validateLeadForm(v: LeadFormValues): LeadFormErrors {
  const errors: LeadFormErrors = {};
  const name = (field: 'firstName' | 'lastName', label: string) => {
    const t = v[field].trim();
    if (!t) errors[field] = `Enter your ${label}.`;
    else if (t.length > LEAD_FORM_LIMITS.name) errors[field] = `Use at most ${LEAD_FORM_LIMITS.name} characters.`;
    else if (NUL_OR_LONE_SURROGATE.test(t)) errors[field] = NOT_TEXT;
  };
  name('firstName', 'first name');
  name('lastName', 'last name');
  const email = v.email.trim();
  if (email && (email.length > LEAD_FORM_LIMITS.email || !EMAIL.test(email) || NUL_OR_LONE_SURROGATE.test(email))) errors.email = 'Enter an email address like name@example.com, or leave it empty.';
  if (!v.phone.trim()) errors.phone = 'Enter your mobile number.';
  else if (v.phone.length > LEAD_FORM_LIMITS.phone || !normalisePhone(v.phone)) errors.phone = 'Enter a mobile number like +14155550123 or (415) 555-0123.';
  return errors;
}

export type CaptureResult =
  | { kind: 'captured'; page: HostedPage; lead: LeadRecord }
  | { kind: 'invalid'; page: HostedPage; values: LeadFormValues; errors: LeadFormErrors };

/**
 * A submission of the opt-in form (a public act: no caller, so `(deps, …)`). Valid: the lead is
 * stored and `lead.captured` emitted to the brand's account in one transaction, once per submission.
 * Decision: an unticked consent box is still a lead (the event carries `consent: false`; the spec
 * makes `consent` a boolean of the event), and only a ticked one is consent to texts.
 */
export async function captureLead(deps: LeadsDeps, brandId: string, form: Record<string, string | string[] | undefined>): Promise<CaptureResult> {
  const page = await hostedPage(deps, brandId);
  const values = leadFormValues(form);
  const errors = validateLeadForm(values);
  if (Object.keys(errors).length) return { kind: 'invalid', page, values, errors };
  const now = deps.clock.nowMs();
  const lead: LeadRecord = {
    id: newId('lead'),
    accountId: page.brand.accountId,
    brandId: page.brand.id,
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim() || null,
    phone: normalisePhone(values.phone)!,
    consent: values.consent,
    consentText: page.consentText,
    capturedAt: now,
    createdAt: now,
  };
  await deps.uow.write(async (tx) => {
    await tx.leads.insert(lead);
    // spec: Event catalog — lead.captured {leadId, brandId, firstName, lastName, email, phone, consent, consentText, capturedAt}.
    await tx.events.emit(lead.accountId, 'lead.captured', {
      leadId: lead.id,
      brandId: lead.brandId,
      firstName: lead.firstName,
      lastName: lead.lastName,
      email: lead.email,
      phone: lead.phone,
      consent: lead.consent,
      consentText: lead.consentText,
      capturedAt: iso(lead.capturedAt),
    });
  });
  return { kind: 'captured', page, lead };
}
