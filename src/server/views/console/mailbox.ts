import { CONSOLE_PATH } from '../../../api/values/console.js';
import type { MailboxMessage } from '../../../api/schemas/email.js';
import { html, query, shellWord, type SafeHtml } from './html.js';
import { commandBox } from './layout.js';

// The mail sandbox in the console. A message's HTML is its own document, served from
// /console/email/inbox/frame under EMAIL_FRAME_HEADERS and shown in `<iframe sandbox src>`: no script
// runs (no allow-scripts), it has no origin (no allow-same-origin), no form is sent (no allow-forms).
// Not `srcdoc`: a srcdoc frame inherits the console's CSP (`style-src 'self'`), and a policy can only
// be tightened inside a document, never loosened, so every email rendered unstyled. Its own
// document takes the email's inline styles (`<style>`, `style=""`) and nothing else: no script,
// nothing loaded from anywhere (images, fonts, stylesheets, CSS url()), no form action.

/** The framed document's whole policy (header and meta alike). */
export const EMAIL_FRAME_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'; frame-ancestors 'self'";

export const EMAIL_FRAME_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': EMAIL_FRAME_CSP,
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

export const emailFrameDocument = (body: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${EMAIL_FRAME_CSP.replace("; frame-ancestors 'self'", '')}"><meta name="referrer" content="no-referrer"><base target="_blank"></head><body>${body}</body></html>`;

export function mailboxMain(messages: MailboxMessage[], selected: MailboxMessage | undefined, nextCursor: string | null, after: string | undefined): SafeHtml {
  const list = messages.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Delivered</th><th scope="col">To</th><th scope="col">Subject</th></tr></thead><tbody>
${messages.map((m) => html`<tr${m.id === selected?.id ? html` aria-current="true"` : ''}><td>${m.deliveredAt.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</td><td>${m.to}</td><td><a href="${CONSOLE_PATH}/email/inbox${query({ after, show: m.id })}">${m.subject || '(no subject)'}</a></td></tr>`)}
</tbody></table></div>`
    : html`<p class="muted">No message delivered yet.</p>`;
  const shown = selected
    ? html`<section aria-labelledby="message-title"><h2 id="message-title">${selected.subject || '(no subject)'}</h2>
<dl class="facts"><dt>From</dt><dd>${selected.from}</dd><dt>To</dt><dd>${selected.to}</dd><dt>Email</dt><dd>${selected.emailId}</dd></dl>
${selected.html !== null ? html`<h3>HTML</h3><iframe class="email-frame" title="The message's HTML (no script, nothing loaded)" sandbox="" referrerpolicy="no-referrer" src="${CONSOLE_PATH}/email/inbox/frame${query({ after, show: selected.id })}"></iframe>` : ''}
<h3>Text</h3><pre class="json" tabindex="0">${selected.text}</pre>
${commandBox(`svc emails get ${shellWord(selected.emailId)}`, 'The email')}</section>`
    : '';
  return html`<section id="live" data-live-types="email.*">${list}</section>${nextCursor ? html`<p class="pager"><a rel="next" href="${CONSOLE_PATH}/email/inbox${query({ after: nextCursor })}">Next page</a></p>` : ''}${shown}`;
}
