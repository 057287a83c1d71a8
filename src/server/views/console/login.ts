import { CONSOLE_PATH } from '../../../api/values/console.js';
import type { ConsoleStanding } from '../../domain/console/sessions.js';
import { html, type SafeHtml } from './html.js';

// The page a one-time link opens (login CSRF: domain/console/sessions.ts). It names whose
// console the link opens before anything happens; only its button signs this browser in.

export function loginConfirmMain(standing: ConsoleStanding, token: string): SafeHtml {
  const { account, caller, key } = standing;
  const acting = account.id === caller.id ? '' : html` (a sub-account of <strong>${caller.name}</strong>)`;
  return html`<p>This link opens the console of the account <strong>${account.name}</strong> <span class="muted">${account.id}</span>${acting},
as the key <strong>${key.name}</strong> <span class="muted"><code>${key.prefix}…</code>, ${key.mode}</span>.</p>
<form method="post" action="${CONSOLE_PATH}/login" class="stack">
<input type="hidden" name="token" value="${token}">
<button type="submit">Sign in to ${account.name}</button>
</form>
<p class="notice">Did you not just run <code>svc console</code> yourself? Then close this page: someone may be trying to sign you in to their account, to read what you do there.</p>`;
}
