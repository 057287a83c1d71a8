import { stringify } from 'yaml';
import { CONSOLE_PATH } from '../../../api/values/console.js';
import type { PhoneNumber } from '../../../api/schemas/numbers.js';
import type { RouteResponse } from '../../../api/schemas/routes.js';
import type { Call, CallTrace } from '../../../api/schemas/calls.js';
import type { CallCoverage } from '../../../api/schemas/call-tests.js';
import { html, query, shellWord, type SafeHtml } from './html.js';
import { commandBox, csrfField } from './layout.js';
import { routeGraphSvg } from './route-graph.js';

// Numbers and their routes, calls and their traces, in the console.

const P = CONSOLE_PATH;
const when = (iso: string | null): SafeHtml => (iso ? html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</time>` : html`<span class="muted">—</span>`);

/** The number's last kept test run (cli.md "Calls as tests"): its figures and each branch it did not take; nothing before a run is kept. */
function coverageSection(c: CallCoverage | null): SafeHtml | string {
  if (c === null) return '';
  const uncovered = c.branches.filter((b) => !b.taken);
  return html`<section class="coverage" aria-labelledby="coverage-title"><h3 id="coverage-title">Test coverage</h3>
<p>The last run of <code>svc calls test</code>, recorded ${when(c.recordedAt)}, tested ${c.source === 'file' ? 'a route document given with the tests' : 'the saved route'}: ${c.passed} of ${c.tests} test${c.tests === 1 ? '' : 's'} passed, ${c.covered} of ${c.total} branch${c.total === 1 ? '' : 'es'} covered (${c.percent}%).</p>
${uncovered.length ? html`<p>Not covered:</p><ul class="uncovered">${uncovered.map((b) => html`<li><code>${b.id}</code></li>`)}</ul>` : html`<p>Every branch was covered.</p>`}
</section>`;
}

export function numberMain(n: PhoneNumber, route: RouteResponse, coverage: CallCoverage | null = null): SafeHtml {
  return html`<dl class="facts">
<dt>Number</dt><dd>${n.phoneNumber}</dd><dt>Id</dt><dd>${n.id}</dd><dt>Label</dt><dd>${n.label ?? ''}</dd>
<dt>Type</dt><dd>${n.type}</dd><dt>Status</dt><dd>${n.status}</dd><dt>Campaign</dt><dd>${n.campaignName ?? 'none'}</dd>
<dt>Capabilities</dt><dd>${Object.entries(n.capabilities).filter(([, on]) => on).map(([c]) => c).join(', ')}</dd>
</dl>
<h2>Call route</h2>
<div class="route-view">
<div>${routeGraphSvg(n.phoneNumber, route.route, coverage?.branches ?? null)}${coverageSection(coverage)}</div>
<div><h3>As YAML</h3><pre class="json" tabindex="0" aria-label="The route as YAML">${route.route ? stringify(route.route) : '# no route yet\n'}</pre>
${commandBox(`svc routes edit ${shellWord(n.id)}`, 'Change it')}</div>
</div>`;
}

/** The phone (local service only): a sandbox call from a caller to one of the account's numbers. */
function phoneForm(numbers: string[], csrf: string): SafeHtml {
  if (numbers.length === 0) return html`<h2>Phone</h2><p class="muted">The account has no voice number to call.</p>`;
  return html`<h2>Phone</h2>
<form method="post" action="${P}/calls" class="stack" aria-label="Place a sandbox call">${csrfField(csrf)}
<label for="phone-from">Call from (E.164)</label><input type="text" id="phone-from" name="from" value="+14155550123" required>
<label for="phone-to">To</label><select id="phone-to" name="to">${numbers.map((n) => html`<option value="${n}">${n}</option>`)}</select>
<button type="submit">Call</button>
</form>
${commandBox(`svc calls simulate --from +14155550123 --to ${shellWord(numbers[0]!)}`, 'From the CLI')}`;
}

export function callsMain(calls: Call[], nextCursor: string | null, phoneNumbers: string[] | null, csrf: string): SafeHtml {
  const phone = phoneNumbers === null ? '' : phoneForm(phoneNumbers, csrf);
  if (calls.length === 0) return html`<p class="muted">No calls yet.</p>${commandBox('svc calls simulate --help', 'Place a sandbox call')}${phone}`;
  return html`<section id="live" data-live-types="call.*"><div class="table-wrap"><table><thead><tr><th scope="col">Call</th><th scope="col">From → to</th><th scope="col">Status</th><th scope="col">Started</th></tr></thead><tbody>
${calls.map((c) => html`<tr><td><a href="${P}/calls/${encodeURIComponent(c.id)}">${c.id}</a></td><td>${c.from} → ${c.to}</td><td>${c.status}${c.outcome ? ` (${c.outcome})` : ''}</td><td>${when(c.startedAt)}</td></tr>`)}
</tbody></table></div></section>${nextCursor ? html`<p class="pager"><a rel="next" href="${query({ cursor: nextCursor })}">Next page</a></p>` : ''}${phone}`;
}

const DIAL_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '0', '#'] as const;
const KEY_NAMES: Record<string, string> = { '*': 'star', '#': 'pound' };

/** The dial pad and the hang-up button of a sandbox call under way; keys typed on the keyboard press them too (console.js). */
function dialPad(c: Call, csrf: string, manualClock: boolean): SafeHtml {
  const id = encodeURIComponent(c.id);
  return html`<h2 id="phone-title">Phone</h2>
${manualClock ? html`<p class="notice">The service clock is manual: the call moves when the clock does (<a href="${P}/sandbox">advance it</a>, or <code>svc clock advance 1s</code>).</p>` : ''}
<form method="post" action="${P}/calls/${id}/keys" class="dialpad" aria-labelledby="phone-title">${csrfField(csrf)}
<p class="muted" id="dialpad-help">Keys reach the call's IVR menu. Type 0-9, * or # on the keyboard, or press a key.</p>
<div class="keys" role="group" aria-label="Dial pad" aria-describedby="dialpad-help">${DIAL_KEYS.map((k) => html`<button type="submit" name="digit" value="${k}" aria-label="${KEY_NAMES[k] ? `${k} (${KEY_NAMES[k]})` : k}">${k}</button>`)}</div>
</form>
<form method="post" action="${P}/calls/${id}/hangup" class="inline">${csrfField(csrf)}<button type="submit" class="hangup">Hang up</button></form>
${commandBox(`svc calls simulate --to ${shellWord(c.to)} --from ${shellWord(c.from)} --digits 1`, 'Keys given up front, from the CLI')}`;
}

export function callMain(c: Call, trace: CallTrace, phone: { csrf: string; manualClock: boolean } | null = null, flash?: string): SafeHtml {
  const audio = [
    c.recordingId ? html`<h3>Recording</h3><audio controls preload="none" src="${P}/calls/${encodeURIComponent(c.id)}/recording.wav" aria-label="Call recording"></audio>${commandBox(`svc calls recording ${shellWord(c.id)}`, 'Download')}` : '',
    c.voicemailId ? html`<h3>Voicemail</h3><audio controls preload="none" src="${P}/voicemails/${encodeURIComponent(c.voicemailId)}/audio.wav" aria-label="Voicemail"></audio>${commandBox(`svc voicemails audio ${shellWord(c.voicemailId)}`, 'Download')}` : '',
  ];
  return html`${flash ? html`<p class="notice" role="status">${flash}</p>` : ''}<dl class="facts">
<dt>From</dt><dd>${c.from}</dd><dt>To</dt><dd>${c.to}</dd><dt>Direction</dt><dd>${c.direction}</dd>
<dt>Status</dt><dd>${c.status}${c.outcome ? ` (${c.outcome})` : ''}</dd><dt>Answered by</dt><dd>${c.answeredBy ?? '—'}</dd>
<dt>Duration</dt><dd>${c.durationSeconds === null ? '—' : `${c.durationSeconds} s`}</dd>
</dl>
<h2>Trace</h2>
<section id="live" data-live-types="call.*" data-live-changes="true"><ol class="timeline">${trace.data.map((t) => html`<li><span class="muted">${when(t.at)}</span> <strong>${t.step}</strong> ${t.detail}</li>`)}</ol>
<p class="muted">${trace.complete ? 'Complete.' : 'Still running: new steps appear here.'}</p></section>
${phone === null ? '' : dialPad(c, phone.csrf, phone.manualClock)}
${audio}`;
}
