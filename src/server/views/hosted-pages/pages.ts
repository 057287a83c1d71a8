import { HOSTED_PAGE_PATHS } from '../../../api/values/registration.js';
import { CONSENT_VALUE, type HostedPage, type LeadField, type LeadFormErrors, type LeadFormValues } from '../../domain/registration/leads.js';
import { esc, paragraphs, renderFrame, type RenderedPage } from './html.js';

// contract §7: the hosted pages of a brand, as HTML. Every brand or visitor value goes through esc().

const nav = (page: HostedPage, current: 'optIn' | 'privacy' | 'messagingTerms' | null) => [
  { href: HOSTED_PAGE_PATHS.optIn(page.brand.id), text: 'Sign up for texts', current: current === 'optIn' },
  { href: HOSTED_PAGE_PATHS.privacy(page.brand.id), text: 'Privacy Policy', current: current === 'privacy' },
  { href: HOSTED_PAGE_PATHS.messagingTerms(page.brand.id), text: 'Messaging Terms', current: current === 'messagingTerms' },
];

const frame = (page: HostedPage, title: string, main: string, current: 'optIn' | 'privacy' | 'messagingTerms' | null): RenderedPage =>
  renderFrame({ title, brandName: page.brandName, accent: page.brand.pageConfig?.accentColor, logoUrl: page.brand.pageConfig?.logoUrl, main, nav: nav(page, current) });

const EMPTY: LeadFormValues = { firstName: '', lastName: '', email: '', phone: '', consent: false };

const LABELS: Record<Exclude<LeadField, 'consent'>, { label: string; type: string; autocomplete: string; required: boolean; hint?: string }> = {
  firstName: { label: 'First name', type: 'text', autocomplete: 'given-name', required: true },
  lastName: { label: 'Last name', type: 'text', autocomplete: 'family-name', required: true },
  email: { label: 'Email (optional)', type: 'email', autocomplete: 'email', required: false },
  phone: { label: 'Mobile number', type: 'tel', autocomplete: 'tel', required: true, hint: 'For example +14155550123 or (415) 555-0123.' },
};

/**
 * The opt-in page: the form, empty on a first visit, or the visitor's values with each error next
 * to its field (aria-invalid, aria-describedby) and a summary linking to the fields. The consent box
 * is never ticked by the page: only a visitor's own tick, kept across a failed submission.
 */
export function optInPageView(page: HostedPage, state: { values: LeadFormValues; errors: LeadFormErrors } = { values: EMPTY, errors: {} }): RenderedPage {
  const cfg = page.brand.pageConfig ?? {};
  const { values, errors } = state;
  const failed = Object.entries(errors) as Array<[LeadField, string]>;
  const summary = failed.length
    ? `<div class="error-summary" role="alert" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">There is a problem</h2>
<ul>${failed.map(([f, m]) => `<li><a href="#${f}">${esc(m)}</a></li>`).join('')}</ul>
</div>`
    : '';
  const input = (field: Exclude<LeadField, 'consent'>): string => {
    const d = LABELS[field];
    const described = [d.hint ? `${field}-hint` : null, errors[field] ? `${field}-error` : null].filter(Boolean).join(' ');
    return [
      `<label for="${field}">${esc(d.label)}</label>`,
      d.hint ? `<p class="hint" id="${field}-hint">${esc(d.hint)}</p>` : '',
      `<input type="${d.type}" id="${field}" name="${field}" value="${esc(values[field])}" autocomplete="${d.autocomplete}"${d.required ? ' required aria-required="true"' : ''}${errors[field] ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}>`,
      errors[field] ? `<p class="field-error" id="${field}-error">${esc(errors[field]!)}</p>` : '',
    ].join('\n');
  };
  const consentLabel = page.consent.map((p) => (p.href ? `<a href="${esc(p.href)}">${esc(p.text)}</a>` : esc(p.text))).join('');
  const main = `<h1>${esc(cfg.headline?.trim() || `Get text messages from ${page.brandName}`)}</h1>
${summary}
${cfg.body?.trim() ? paragraphs(cfg.body) : ''}
${paragraphs(page.texts.optIn)}
<form method="post" action="${esc(HOSTED_PAGE_PATHS.optIn(page.brand.id))}" novalidate>
${input('firstName')}
${input('lastName')}
${input('email')}
${input('phone')}
<div class="consent">
<input type="checkbox" id="consent" name="consent" value="${CONSENT_VALUE}"${values.consent ? ' checked' : ''}>
<label for="consent" id="consent-label">${consentLabel}</label>
</div>
<button type="submit">${esc(cfg.buttonText?.trim() || 'Sign up')}</button>
</form>`;
  return frame(page, `${failed.length ? 'Error: ' : ''}Sign up for texts from ${page.brandName}`, main, 'optIn');
}

/** The privacy policy or the messaging terms: the brand's text (or the default) as paragraphs. */
export function legalPageView(page: HostedPage, which: 'privacy' | 'messagingTerms'): RenderedPage {
  const title = which === 'privacy' ? 'Privacy Policy' : 'Messaging Terms';
  const main = `<h1>${esc(`${page.brandName} ${title}`)}</h1>\n${paragraphs(page.texts[which])}`;
  return frame(page, `${title} — ${page.brandName}`, main, which);
}

/** Where a valid submission lands (Post/Redirect/Get): nothing of the visitor's details is shown. */
export function confirmationPageView(page: HostedPage): RenderedPage {
  const main = `<h1>Thank you</h1>
<p>${esc(page.brandName)} has received your details.</p>
<p>If you agreed to text messages, you can reply STOP at any time to opt out, or HELP for help.</p>
<p><a href="${esc(HOSTED_PAGE_PATHS.optIn(page.brand.id))}">Back to the sign-up page</a></p>`;
  return frame(page, `Thank you — ${page.brandName}`, main, null);
}

/** Any failure on a hosted page (an unknown brand, a body too large…): an HTML page, not JSON. */
export function errorPageView(heading: string, message: string): RenderedPage {
  return renderFrame({ title: heading, brandName: '', accent: null, main: `<h1>${esc(heading)}</h1>\n<p>${esc(message)}</p>` });
}
