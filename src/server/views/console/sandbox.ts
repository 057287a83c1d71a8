import { CONSOLE_PATH } from '../../../api/values/console.js';
import type { AdvancedClock, ClockState } from '../../../api/schemas/sandbox.js';
import { html, shellWord, type SafeHtml } from './html.js';
import { commandBox, csrfField } from './layout.js';

// The sandbox page (local service only): the clock, advanced by a chosen amount, and the
// commonest trigger, a consumer's text to one of the account's numbers.

const P = CONSOLE_PATH;

export function sandboxMain(clock: ClockState, numbers: string[], csrf: string, mayAdvance: string | null, ran?: AdvancedClock['ran'], flash?: string): SafeHtml {
  return html`${flash ? html`<p class="notice" role="status">${flash}</p>` : ''}
<h2>Clock</h2>
<dl class="facts"><dt>Service time</dt><dd><time datetime="${clock.now}">${clock.now}</time></dd><dt>Mode</dt><dd>${clock.mode}</dd></dl>
${mayAdvance === null
  ? html`<form method="post" action="${P}/sandbox/advance" class="stack">${csrfField(csrf)}
<label for="advance-by">Advance by</label>
<select id="advance-by" name="seconds"><option value="1">1 second</option><option value="60">1 minute</option><option value="3600">1 hour</option><option value="86400">1 day</option><option value="2592000">30 days</option></select>
<button type="submit">Advance the clock</button></form>`
  : html`<p class="muted">${mayAdvance}</p>`}
${commandBox('svc clock advance 1h', 'Advance from the CLI')}
${ran?.length ? html`<h3>What ran</h3><ul>${ran.map((r) => html`<li>${r.items} ${r.label}</li>`)}</ul>` : ''}
<h2>A consumer texts you</h2>
${numbers.length
  ? html`<form method="post" action="${P}/sandbox/inbound" class="stack">${csrfField(csrf)}
<label for="inbound-from">From (E.164)</label><input type="text" id="inbound-from" name="from" value="+14155550123" required>
<label for="inbound-to">To</label><select id="inbound-to" name="to">${numbers.map((n) => html`<option value="${n}">${n}</option>`)}</select>
<label for="inbound-body">Text</label><textarea id="inbound-body" name="body" rows="2" required maxlength="1600"></textarea>
<button type="submit">Receive it</button></form>
${commandBox(`svc trigger message.received --to ${shellWord(numbers[0]!)} --from +14155550123 --body 'hello'`, 'From the CLI')}`
  : html`<p class="muted">The account has no number to text.</p>`}`;
}
