import { CONSOLE_PATH } from '../../../api/values/console.js';
import type { Domain, Email, EmailEvents } from '../../../api/schemas/email.js';
import type { Brand } from '../../../api/schemas/brands.js';
import type { Campaign, CampaignSummary } from '../../../api/schemas/campaigns.js';
import type { Prediction } from '../../../api/schemas/registrations.js';
import { html, query, shellWord, type SafeHtml } from './html.js';
import { commandBox } from './layout.js';

// Sending domains (their DNS records, copyable), emails with the per-recipient timeline,
// and 10DLC registration (brands, campaigns, the approval prediction's checks) in the console.

const P = CONSOLE_PATH;
const when = (iso: string | null | undefined): SafeHtml => (iso ? html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</time>` : html`<span class="muted">—</span>`);
/** The next page of one list of the page; the other list's cursor is kept, so it stays where it was. */
const pager = (next: string | null, param: string, keep: Record<string, string | undefined>, what: string): SafeHtml =>
  next ? html`<p class="pager"><a rel="next" href="${query({ ...keep, [param]: next })}">Next page of ${what}</a></p>` : html``;

export interface EmailPages {
  domains: string | undefined;
  cursor: string | undefined;
  nextDomains: string | null;
  nextEmails: string | null;
}
export interface RegistrationPages {
  brands: string | undefined;
  campaigns: string | undefined;
  nextBrands: string | null;
  nextCampaigns: string | null;
}

export function emailMain(domains: Domain[], emails: Email[], pages: EmailPages, sandbox: boolean): SafeHtml {
  const domainBlocks = domains.length
    ? domains.map(
        (d) => html`<h3>${d.domain} <span class="badge">${d.status}</span></h3>
<div class="table-wrap"><table><caption class="muted">DNS records to publish for ${d.domain}</caption><thead><tr><th scope="col">Type</th><th scope="col">Name</th><th scope="col">Value</th><th scope="col">Status</th></tr></thead><tbody>
${d.records.map((r) => html`<tr><td>${r.type}</td><td><code>${r.name}</code></td><td>${commandBox(r.value, r.purpose)}</td><td>${r.status}</td></tr>`)}
</tbody></table></div>${commandBox(`svc domains verify ${shellWord(d.domain)} --wait`, 'Check again')}`,
      )
    : html`<p class="muted">No sending domain.</p>${commandBox('svc domains add example.com', 'Add one')}`;
  const emailRows = emails.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Subject</th><th scope="col">To</th><th scope="col">Status</th><th scope="col">Sent</th></tr></thead><tbody>
${emails.map((e) => html`<tr><td><a href="${P}/email/emails/${encodeURIComponent(e.id)}">${e.subject ?? '(no subject)'}</a></td><td>${e.to.join(', ')}</td><td>${e.status}</td><td>${when(e.createdAt)}</td></tr>`)}
</tbody></table></div>${pager(pages.nextEmails, 'cursor', { domains: pages.domains }, 'emails')}`
    : html`<p class="muted">No email sent yet.</p>`;
  return html`<h2>Domains</h2>${domainBlocks}${pager(pages.nextDomains, 'domains', { cursor: pages.cursor }, 'domains')}
<h2>Emails</h2><section id="live" data-live-types="email.*">${emailRows}</section>
${sandbox ? html`<p><a href="${P}/email/inbox">The mail sandbox</a>: every message delivered, as the recipient got it.</p>` : ''}`;
}

export function emailDetailMain(e: Email, timeline: EmailEvents): SafeHtml {
  return html`<dl class="facts"><dt>From</dt><dd>${e.from}</dd><dt>Subject</dt><dd>${e.subject ?? ''}</dd><dt>Status</dt><dd>${e.status}</dd><dt>Tags</dt><dd>${e.tags.join(', ')}</dd></dl>
<h2>Recipients</h2>
<section id="live" data-live-types="email.*">
${e.recipients.map((r) => {
  const steps = timeline.data.filter((t) => t.recipient === r.address);
  return html`<h3>${r.address} <span class="badge">${r.kind}</span> <span class="badge">${r.status}</span></h3>
<ol class="timeline">${steps.map((t) => html`<li><span class="muted">${when(t.occurredAt)}</span> <strong>${t.type}</strong> ${t.status}${t.bounce ? ` · ${t.bounce.class} bounce ${t.bounce.code ?? ''} ${t.bounce.message ?? ''}` : ''}${t.url ? ` · ${t.url}` : ''}</li>`)}</ol>`;
})}
</section>
${commandBox(`svc emails events ${shellWord(e.id)}`, 'Timeline')}`;
}

export function registrationMain(brands: Brand[], campaigns: CampaignSummary[], pages: RegistrationPages): SafeHtml {
  return html`<h2>Brands</h2>
${brands.length ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Brand</th><th scope="col">Entity</th><th scope="col">Status</th><th scope="col">Registry id</th></tr></thead><tbody>
${brands.map((b) => html`<tr><td>${b.displayName ?? b.legalName}<br><span class="muted">${b.id}</span></td><td>${b.entityType}</td><td>${b.status}</td><td>${b.tcrBrandId ?? '—'}</td></tr>`)}
</tbody></table></div>${pager(pages.nextBrands, 'brands', { campaigns: pages.campaigns }, 'brands')}` : html`<p class="muted">No brand.</p>`}
${commandBox('svc brands register', 'Register a brand')}
<h2>Campaigns</h2>
${campaigns.length ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Campaign</th><th scope="col">Brand</th><th scope="col">Use case</th><th scope="col">Status</th></tr></thead><tbody>
${campaigns.map((c) => html`<tr><td><a href="${P}/registration/campaigns/${encodeURIComponent(c.id)}">${c.name ?? c.id}</a></td><td>${c.brandName ?? ''}</td><td>${c.useCase}</td><td>${c.status}</td></tr>`)}
</tbody></table></div>${pager(pages.nextCampaigns, 'campaigns', { brands: pages.brands }, 'campaigns')}` : html`<p class="muted">No campaign.</p>`}
${commandBox('svc campaigns list', 'Campaigns')}`;
}

export function campaignMain(c: Campaign, prediction: Prediction | null): SafeHtml {
  return html`<dl class="facts"><dt>Id</dt><dd>${c.id}</dd><dt>Brand</dt><dd>${c.brandId}</dd><dt>Use case</dt><dd>${c.useCase}</dd><dt>Status</dt><dd>${c.status}</dd><dt>Last rejection</dt><dd>${c.lastRejectionReason ?? '—'}</dd><dt>Description</dt><dd>${c.description}</dd></dl>
<h2>Sample messages</h2><ul>${c.sampleMessages.map((m) => html`<li>${m}</li>`)}</ul>
<h2>Approval prediction</h2>
${prediction
  ? html`<p><strong>${prediction.score}</strong>/100 · ${prediction.band}</p>
<ul class="checks">${prediction.checks.map((k) => html`<li><span class="badge">${k.passed ? 'pass' : 'fail'}</span> ${k.label}${k.suggestion ? html`<br><span class="muted">${k.suggestion}</span>` : ''}</li>`)}</ul>`
  : html`<p class="muted">No prediction for this campaign's fields.</p>`}
${commandBox(`svc campaigns get ${shellWord(c.id)}`, 'Campaign')}`;
}
