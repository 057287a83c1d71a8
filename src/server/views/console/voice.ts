import { stringify } from 'yaml';
import { CONSOLE_PATH } from '../../../api/values/console.js';
import type { PhoneNumber } from '../../../api/schemas/numbers.js';
import type { RouteResponse } from '../../../api/schemas/routes.js';
import type { Call, CallTrace } from '../../../api/schemas/calls.js';
import { html, query, shellWord, type SafeHtml } from './html.js';
import { commandBox } from './layout.js';
import { routeGraphSvg } from './route-graph.js';

// issue 27: numbers and their routes, calls and their traces, in the console.

const P = CONSOLE_PATH;
const when = (iso: string | null): SafeHtml => (iso ? html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</time>` : html`<span class="muted">—</span>`);

export function numberMain(n: PhoneNumber, route: RouteResponse): SafeHtml {
  return html`<dl class="facts">
<dt>Number</dt><dd>${n.phoneNumber}</dd><dt>Id</dt><dd>${n.id}</dd><dt>Label</dt><dd>${n.label ?? ''}</dd>
<dt>Type</dt><dd>${n.type}</dd><dt>Status</dt><dd>${n.status}</dd><dt>Campaign</dt><dd>${n.campaignName ?? 'none'}</dd>
<dt>Capabilities</dt><dd>${Object.entries(n.capabilities).filter(([, on]) => on).map(([c]) => c).join(', ')}</dd>
</dl>
<h2>Call route</h2>
<div class="route-view">
${routeGraphSvg(n.phoneNumber, route.route)}
<div><h3>As YAML</h3><pre class="json" tabindex="0" aria-label="The route as YAML">${route.route ? stringify(route.route) : '# no route yet\n'}</pre>
${commandBox(`svc routes edit ${shellWord(n.id)}`, 'Change it')}</div>
</div>`;
}

export function callsMain(calls: Call[], nextCursor: string | null): SafeHtml {
  if (calls.length === 0) return html`<p class="muted">No calls yet.</p>${commandBox('svc calls simulate --help', 'Place a sandbox call')}`;
  return html`<section id="live" data-live-types="call.*"><div class="table-wrap"><table><thead><tr><th scope="col">Call</th><th scope="col">From → to</th><th scope="col">Status</th><th scope="col">Started</th></tr></thead><tbody>
${calls.map((c) => html`<tr><td><a href="${P}/calls/${encodeURIComponent(c.id)}">${c.id}</a></td><td>${c.from} → ${c.to}</td><td>${c.status}${c.outcome ? ` (${c.outcome})` : ''}</td><td>${when(c.startedAt)}</td></tr>`)}
</tbody></table></div></section>${nextCursor ? html`<p class="pager"><a rel="next" href="${query({ cursor: nextCursor })}">Next page</a></p>` : ''}`;
}

export function callMain(c: Call, trace: CallTrace): SafeHtml {
  const audio = [
    c.recordingId ? html`<h3>Recording</h3><audio controls preload="none" src="${P}/calls/${encodeURIComponent(c.id)}/recording.wav" aria-label="Call recording"></audio>${commandBox(`svc calls recording ${shellWord(c.id)}`, 'Download')}` : '',
    c.voicemailId ? html`<h3>Voicemail</h3><audio controls preload="none" src="${P}/voicemails/${encodeURIComponent(c.voicemailId)}/audio.wav" aria-label="Voicemail"></audio>${commandBox(`svc voicemails audio ${shellWord(c.voicemailId)}`, 'Download')}` : '',
  ];
  return html`<dl class="facts">
<dt>From</dt><dd>${c.from}</dd><dt>To</dt><dd>${c.to}</dd><dt>Direction</dt><dd>${c.direction}</dd>
<dt>Status</dt><dd>${c.status}${c.outcome ? ` (${c.outcome})` : ''}</dd><dt>Answered by</dt><dd>${c.answeredBy ?? '—'}</dd>
<dt>Duration</dt><dd>${c.durationSeconds === null ? '—' : `${c.durationSeconds} s`}</dd>
</dl>
<h2>Trace</h2>
<section id="live" data-live-types="call.*"><ol class="timeline">${trace.data.map((t) => html`<li><span class="muted">${when(t.at)}</span> <strong>${t.step}</strong> ${t.detail}</li>`)}</ol>
<p class="muted">${trace.complete ? 'Complete.' : 'Still running: new steps appear here.'}</p></section>
${audio}`;
}
