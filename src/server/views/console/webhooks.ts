import { CONSOLE_PATH } from '../../../api/values/console.js';
import type { Delivery, DeliveryDetail, InspectedAttempt, WebhookEndpoint } from '../../../api/schemas/webhooks.js';
import type { Sink, SinkRequest } from '../../../api/schemas/sinks.js';
import { html, query, shellWord, type SafeHtml } from './html.js';
import { commandBox, csrfField } from './layout.js';

// The webhooks section: the endpoints (and, on the local service, the sinks), an endpoint's
// deliveries with Retry and Replay, one delivery's attempts as sent and answered (the inspector), and
// a sink's kept requests, live. Every value goes through `html` (escaped): a receiver's answer, a
// header and a body are the outside world's text.

const P = CONSOLE_PATH;
const time = (iso: string | null | undefined): SafeHtml => (iso ? html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</time>` : html`<span class="muted">never</span>`);
const flashOf = (flash: string | undefined): SafeHtml | string => (flash ? html`<p class="notice" role="status">${flash}</p>` : '');
const endpointPath = (id: string): string => `${P}/webhooks/${encodeURIComponent(id)}`;
export const sinkPath = (id: string): string => `${P}/webhooks/sinks/${encodeURIComponent(id)}`;
/** What `svc` prints as one of these: a header block, one `Name: value` a line. */
const headerLines = (headers: Record<string, string>): string => Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\n');

export function webhooksMain(endpoints: WebhookEndpoint[], sinks: Sink[] | undefined): SafeHtml {
  const list = endpoints.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Endpoint</th><th scope="col">Events</th><th scope="col">State</th><th scope="col">Description</th></tr></thead><tbody>
${endpoints.map((e) => html`<tr><td><a href="${endpointPath(e.id)}">${e.url}</a><br><span class="muted">${e.id}</span></td><td>${e.events.join(', ')}</td><td>${e.enabled ? 'enabled' : `disabled${e.disabledReason ? `: ${e.disabledReason}` : ''}`}</td><td>${e.description ?? ''}</td></tr>`)}
</tbody></table></div>`
    : html`<p class="muted">No webhook endpoints.</p>${commandBox("svc webhooks create --url https://example.com/hook --events 'message.*'", 'Add one')}`;
  // Sinks exist on the local service only (its sandbox routes).
  const sinkList =
    sinks === undefined
      ? ''
      : html`<h2>Sinks</h2>${sinks.length
          ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Sink</th><th scope="col">Answers</th><th scope="col">Requests kept</th></tr></thead><tbody>
${sinks.map((s) => html`<tr><td><a href="${sinkPath(s.id)}">${s.id}</a><br><span class="muted">${s.url}</span></td><td>${answers(s)}</td><td>${s.received}</td></tr>`)}
</tbody></table></div>`
          : html`<p class="muted">No sinks: a sink is an endpoint served by this service that keeps what it receives.</p>`}${commandBox('svc webhooks sink create --fail-first 2', 'Make one')}`;
  return html`${list}${sinkList}`;
}

const answers = (s: Sink): string =>
  `${s.respond.status}${s.respond.failFirst ? `, 500 to the first ${s.respond.failFirst} attempt${s.respond.failFirst === 1 ? '' : 's'} of each event` : ''}${s.respond.delayMs ? `, after ${s.respond.delayMs} ms` : ''}`;

export function deliveriesMain(endpoint: WebhookEndpoint, deliveries: Delivery[], nextCursor: string | null, csrf: string, flash?: string): SafeHtml {
  const at = endpointPath(endpoint.id);
  const rows = deliveries.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Action</th></tr></thead><tbody>
${deliveries.map(
  (d) => html`<tr data-delivery-id="${d.id}"><td>${d.eventType}<br><span class="muted">${d.eventId}</span></td><td class="delivery-status">${d.status}${d.nextAttemptAt ? html`<br><span class="muted">next ${time(d.nextAttemptAt)}</span>` : ''}</td>
<td><ol>${d.attempts.map((a) => html`<li>${time(a.at)}: ${a.outcome}${a.responseStatus !== null ? ` · HTTP ${a.responseStatus}` : ''}${a.durationMs !== null ? ` · ${a.durationMs} ms` : ''}${a.error ? ` · ${a.error}` : ''}</li>`)}</ol></td>
<td><a href="${at}/deliveries/${encodeURIComponent(d.id)}" aria-label="Inspect delivery ${d.id}">Inspect</a> <form method="post" action="${at}/deliveries/${encodeURIComponent(d.id)}/retry" class="inline">${csrfField(csrf)}<button type="submit" aria-label="Retry delivery ${d.id}">Retry</button></form>${commandBox(`svc webhooks retry ${shellWord(endpoint.id)} ${shellWord(d.id)}`, 'CLI')}</td></tr>`,
)}
</tbody></table></div>`
    : html`<p class="muted">No deliveries in the last 7 days.</p>`;
  return html`${flashOf(flash)}<dl class="facts"><dt>URL</dt><dd>${endpoint.url}</dd><dt>Events</dt><dd>${endpoint.events.join(', ')}</dd><dt>State</dt><dd>${endpoint.enabled ? 'enabled' : 'disabled'}</dd></dl>
<h2>Replay</h2>
<form method="post" action="${at}/replay" class="stack">${csrfField(csrf)}
<label for="replay-status">Events whose latest delivery here is</label>
<select id="replay-status" name="status"><option value="abandoned">abandoned (given up)</option><option value="failed">failed (still being retried)</option></select>
<button type="submit">Replay</button>
</form>
${commandBox(`svc webhooks replay --endpoint ${shellWord(endpoint.id)} --status abandoned`, 'Replay from the CLI')}
<h2>Deliveries</h2><section id="live" data-live-types="*">${rows}</section>${nextCursor ? html`<p class="pager"><a href="${query({ cursor: nextCursor })}" rel="next">Next page</a></p>` : ''}`;
}

export interface InspectedDelivery {
  endpoint: WebhookEndpoint;
  /** The API's inspection of it (views/webhooks.ts deliveryDetailView). */
  delivery: DeliveryDetail;
  /** A sample (`POST /v1/webhooks/{id}/test`): not in the feed, so it cannot be sent again. */
  sample: boolean;
}

function attemptSection(a: InspectedAttempt): SafeHtml {
  const request =
    a.request !== null
      ? html`<pre class="json" tabindex="0">${`POST ${a.request.url}\n${headerLines(a.request.headers)}`}</pre><p class="muted">Body: the one below, the same for every attempt.</p>`
      : // An answer means something was sent: the attempt predates the requests being kept.
        a.responseStatus !== null
        ? html`<p class="muted">Not recorded: this attempt was made before the service kept each attempt's request.</p>`
        : html`<p class="muted">Nothing was sent${a.error ? `: ${a.error}` : ''}.</p>`;
  const responseBody = a.responseBody === null || a.responseBody === '' ? html`<p class="muted">No body.</p>` : html`<pre class="json" tabindex="0">${a.responseBody}</pre>`;
  return html`<section class="attempt" data-attempt="${a.attempt}" aria-labelledby="attempt-${a.attempt}">
<h3 id="attempt-${a.attempt}">Attempt ${a.attempt}: ${a.outcome}</h3>
<p>${time(a.at)}</p>
<h4>Request</h4>${request}
<h4>Response</h4>
<dl class="facts"><dt>Status</dt><dd>${a.responseStatus === null ? 'none' : `HTTP ${a.responseStatus}`}</dd><dt>Duration</dt><dd>${a.durationMs === null ? 'none' : `${a.durationMs} ms`}</dd><dt>Error</dt><dd>${a.error ?? 'none'}</dd></dl>
${responseBody}
</section>`;
}

/** The delivery inspector: every attempt's request as sent and the answer it got, oldest first. */
export function deliveryMain(i: InspectedDelivery, csrf: string): SafeHtml {
  const { delivery: d, endpoint } = i;
  const at = endpointPath(endpoint.id);
  const body =
    d.body === null
      ? html`<p class="muted">The event is no longer stored: its body cannot be shown.</p>`
      : html`<p class="muted">${d.bodyTruncated ? `Its first ${d.body.length} characters.` : `${d.body.length} characters.`}</p><pre class="json" tabindex="0">${d.body}</pre>`;
  const resend = i.sample
    ? html`<p class="muted">A sample delivery is not in the events feed: it cannot be sent again (send another sample instead).</p>${commandBox(`svc webhooks test ${shellWord(endpoint.id)}`, 'Another sample')}`
    : html`<form method="post" action="${at}/deliveries/${encodeURIComponent(d.id)}/resend" class="inline">${csrfField(csrf)}<button type="submit">Replay this event</button></form>
${commandBox(`svc events resend ${shellWord(d.eventId)} --endpoint ${shellWord(endpoint.id)}`, 'Same in the CLI')}`;
  return html`<p><a href="${at}">All deliveries of this endpoint</a></p>
<dl class="facts"><dt>Endpoint</dt><dd>${endpoint.url}</dd><dt>Event</dt><dd>${d.eventType} <span class="muted">${d.eventId}</span></dd><dt>Status</dt><dd>${d.status}</dd><dt>Next attempt</dt><dd>${time(d.nextAttemptAt)}</dd><dt>Created</dt><dd>${time(d.createdAt)}</dd></dl>
<h2>Replay</h2>
<p>A new delivery of the same event (same id and body, signed afresh), to this endpoint.</p>
${resend}
<h2>Attempts</h2>
${d.attempts.length ? d.attempts.map(attemptSection) : html`<p class="muted">No attempt yet.</p>`}
<h2>Body as sent</h2>
${body}`;
}

/**
 * A sink's kept requests, newest first. Live (`data-live-sink`: the console's stream tells the page
 * when the sink keeps a request, and the page fetches itself); a page past the first holds its rows
 * and says newer ones came (`data-live-hold`).
 */
export function sinkMain(sink: Sink, requests: SinkRequest[], nextCursor: string | null, paged: boolean): SafeHtml {
  const rows = requests.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Received</th><th scope="col">Event</th><th scope="col">Signature</th><th scope="col">Answer</th><th scope="col">Request</th></tr></thead><tbody>
${requests.map(
  (r) => html`<tr data-sink-request-id="${r.id}"><td>${time(r.receivedAt)}</td><td>${r.eventType ?? html`<span class="muted">none named</span>`}${r.attempt !== null ? ` · attempt ${r.attempt}` : ''}<br><span class="muted">${r.eventId ?? ''}</span></td><td class="signature">${r.signatureValid ? 'verified' : 'not verified'}</td><td>${r.answeredStatus === null ? 'none (the client went away)' : `HTTP ${r.answeredStatus}`}</td>
<td><details><summary>Headers and body <span class="muted">${r.id}</span></summary><pre class="json" tabindex="0">${headerLines(r.headers)}</pre><pre class="json" tabindex="0">${r.body}</pre></details></td></tr>`,
)}
</tbody></table></div>`
    : html`<p class="muted">No request received yet.</p>`;
  const held = paged
    ? html`<p id="live-held" class="notice" role="status" hidden>Newer requests have come in since this page was loaded. <a href="${sinkPath(sink.id)}">Show the newest requests</a></p>`
    : '';
  return html`<dl class="facts"><dt>URL</dt><dd>${sink.url}</dd><dt>Endpoint</dt><dd><a href="${endpointPath(sink.endpointId)}">${sink.endpointId}</a></dd><dt>Events</dt><dd>${sink.events.join(', ')}</dd><dt>Answers</dt><dd>${answers(sink)}</dd><dt>Requests received</dt><dd>${sink.received}</dd></dl>
<h2>Requests</h2>${held}<section id="live" data-live-sink="${sink.id}" data-live-changes="true"${paged ? html` data-live-hold="true"` : ''} aria-live="polite">${rows}</section>${nextCursor ? html`<p class="pager"><a href="${query({ before: nextCursor })}" rel="next">Older requests</a></p>` : ''}`;
}
