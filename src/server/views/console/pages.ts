import { CONSOLE_PATH } from '../../../api/values/console.js';
import type { ApiKey, CreatedApiKey } from '../../../api/schemas/keys.js';
import type { ConversationSummary } from '../../../api/schemas/conversations.js';
import type { Message } from '../../../api/schemas/messages.js';
import type { EventRecord } from '../../storage/events-repo.js';
import { feedItemView } from '../events.js';
import { encodeFeedCursor } from '../../domain/events/feed.js';
import type { Billing } from '../../../api/schemas/billing.js';
import type { PhoneNumber } from '../../../api/schemas/numbers.js';
import type { Subaccount } from '../../../api/schemas/subaccounts.js';
import { html, query, shellWord, type SafeHtml } from './html.js';
import { commandBox, csrfField } from './layout.js';
import { barChart, type DayTotal } from './chart.js';

// The console's pages, from the API's own shapes (views/*.ts), so a page shows exactly
// what the same key reads through the API. Every value goes through `html` (escaped).

const P = CONSOLE_PATH;
const dollars = (cents: number): string => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;
const time = (iso: string | null | undefined): SafeHtml => (iso ? html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</time>` : html`<span class="muted">never</span>`);
const pager = (nextCursor: string | null | undefined, params: Record<string, string | undefined> = {}): SafeHtml =>
  nextCursor ? html`<p class="pager"><a href="${query({ ...params, cursor: nextCursor })}" rel="next">Next page</a></p>` : html``;
const empty = (what: string): SafeHtml => html`<p class="muted">${what}</p>`;

export interface OverviewInput {
  account: { id: string; name: string; isAgency: boolean; parentId: string | null };
  caller: { id: string; name: string; isAgency: boolean };
  mode: string;
  billing: Billing;
  events: EventRecord[];
  /** How many recent events the overview shows (its live table keeps as many). */
  eventsLimit: number;
  /** An agency key's sub-accounts (the context switcher), or none. */
  subaccounts: Subaccount[];
  actingOnSubaccount: boolean;
  csrf: string;
}

export function overviewMain(o: OverviewInput): SafeHtml {
  const contextForm = o.caller.isAgency
    ? html`<h2>Context</h2>
<form method="post" action="${P}/context" class="stack">${csrfField(o.csrf)}
<label for="subaccount">Act as</label>
<select id="subaccount" name="subaccount">
<option value=""${o.actingOnSubaccount ? '' : html` selected`}>${o.caller.name} (agency)</option>
${o.subaccounts.map((s) => html`<option value="${s.id}"${s.id === o.account.id ? html` selected` : ''}>${s.name} (${s.id})</option>`)}
</select>
<button type="submit">Switch</button>
</form>
${commandBox(o.actingOnSubaccount ? `svc context use ${shellWord(o.account.id)}` : 'svc context clear', 'Same in the CLI')}`
    : html``;
  return html`<h2>Account</h2>
<dl class="facts">
<dt>Name</dt><dd>${o.account.name}</dd>
<dt>Id</dt><dd>${o.account.id}</dd>
<dt>Key</dt><dd>${o.mode}</dd>
<dt>Acting as</dt><dd>${o.actingOnSubaccount ? `sub-account of ${o.caller.name}` : o.account.isAgency ? 'agency' : 'account'}</dd>
</dl>
${contextForm}
<h2>Wallet</h2>
<dl class="facts">
<dt>Balance</dt><dd>${dollars(o.billing.wallet.balanceCents)}</dd>
<dt>Spend limit</dt><dd>${o.billing.spendLimitCents === null ? 'none' : dollars(o.billing.spendLimitCents)}</dd>
<dt>Spent this month</dt><dd>${dollars(o.billing.monthToDateCents)}</dd>
<dt>Plan</dt><dd>${o.billing.plan} (${o.billing.subscription.status})</dd>
</dl>
${commandBox('svc billing show', 'Wallet')}
<h2>Recent events</h2>
${liveEvents(o.events, undefined, o.eventsLimit, { paged: false, hold: false })}
<p><a href="${P}/events">All events</a></p>`;
}

/**
 * One event's row, the one markup of it: the events tables render their rows with it, and the
 * console's stream sends a new event's row made by it (the page puts it at the top itself,
 * no fetch), so a streamed row is escaped exactly as the page's own.
 */
export function eventRow(record: EventRecord): SafeHtml {
  const e = feedItemView(record);
  // data-before: the cursor of the rows older than this one (the next page's, when it is the last row kept).
  const before = record.seq > 0 ? encodeFeedCursor(record.seq) : '';
  return html`<tr data-event-id="${e.id}" data-before="${before}"><td>${time(e.createdAt)}</td><td>${e.type}</td><td><details><summary>${e.id}</summary><pre class="json" tabindex="0">${JSON.stringify(e, null, 2)}</pre></details></td></tr>`;
}

/**
 * The live section of an events table. `data-live-rows`: the stream sends each new event's row and
 * the page inserts it at the top, keeping at most `limit` rows (the page's size); `paged`: a list
 * with next pages (`data-live-next`: the next-page link moves with a trimmed row); `hold`: a page past
 * the first takes no rows in (they land on the first) and shows its notice instead (see
 * `data-live-hold` in assets.ts).
 */
function liveEvents(events: EventRecord[], types: string | undefined, limit: number, paging: { paged: boolean; hold: boolean }): SafeHtml {
  // The table is there even with no row yet (hidden, beside the empty notice), so the first event's row has somewhere to go.
  const table = html`${events.length ? '' : html`<p class="muted live-empty">No events yet.</p>`}<div class="table-wrap"${events.length ? '' : html` hidden`}><table><caption class="muted">Newest first</caption><thead><tr><th scope="col">Time</th><th scope="col">Type</th><th scope="col">Event</th></tr></thead><tbody>
${events.map(eventRow)}
</tbody></table></div>`;
  return html`<section id="live" data-live-types="${types || '*'}" data-live-rows="events" data-live-limit="${limit}"${paging.paged ? html` data-live-next="true"` : ''}${paging.hold ? html` data-live-hold="true"` : ''} aria-live="polite">${table}</section>`;
}

/** The events page: `paged` (a cursor given) holds its rows and says when newer ones came. */
export function eventsMain(events: EventRecord[], types: string | undefined, nextCursor: string | null, limit: number, paged: boolean): SafeHtml {
  const held = paged
    ? html`<p id="live-held" class="notice" role="status" hidden>Newer events have come in since this page was loaded. <a href="${P}/events${query({ types })}">Show the newest events</a></p>`
    : '';
  return html`<form method="get" action="${P}/events" class="filters">
<div><label for="types">Types</label><input type="text" id="types" name="types" value="${types ?? ''}" placeholder="message.*,call.ended"></div>
<button type="submit">Filter</button>
</form>
${held}${liveEvents(events, types, limit, { paged: true, hold: paged })}
${pager(nextCursor, { types })}`;
}

/** A conversation's row: the API's summary, and its latest message's status (read from the same record). */
export interface ConversationRow {
  summary: ConversationSummary;
  lastStatus: string;
}

/**
 * The conversations list (live). Each row names its counterparty (`data-counterparty`: the
 * script keeps the keyboard on a row that moved) and carries its latest message's id and status, so a
 * status moving is set in place. A page past the first (`paged`) never takes rows in: see
 * `data-live-hold` in assets.ts.
 */
export function conversationsMain(rows: ConversationRow[], nextCursor: string | null, paged: boolean): SafeHtml {
  const list = rows.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Counterparty</th><th scope="col">Latest</th><th scope="col">Status</th><th scope="col">When</th></tr></thead><tbody>
${rows.map(
  ({ summary: c, lastStatus }) =>
    html`<tr data-counterparty="${c.counterparty}"><td class="nowrap"><a href="${P}/messages/${encodeURIComponent(c.counterparty)}">${c.counterparty}</a></td><td>${c.direction === 'inbound' ? '← ' : '→ '}${c.lastBody}</td><td data-message-id="${c.lastMessageId}" data-status="${lastStatus}"><span class="status">${lastStatus}</span></td><td>${time(c.lastAt)}</td></tr>`,
)}
</tbody></table></div>`
    : empty('No conversations yet.');
  const held = paged
    ? html`<p id="live-held" class="notice" role="status" hidden>Newer messages have come in since this page was loaded. <a href="${P}/messages">Show the newest conversations</a></p>`
    : '';
  return html`${held}<section id="live" data-live-types="message.*" data-live-changes="true"${paged ? html` data-live-hold="true"` : ''}>${list}</section>${pager(nextCursor)}`;
}

export function threadMain(counterparty: string, messages: Message[], fromNumbers: string[], csrf: string, flash?: string): SafeHtml {
  const items = messages.length
    ? html`<ol class="thread">${messages.map(
        (m) => html`<li class="bubble ${m.direction}" data-message-id="${m.id}" data-status="${m.status}">${m.body}${m.media?.length ? html`<span class="meta">${m.media.length} media: ${m.media.map((x) => x.url).join(', ')}</span>` : ''}<span class="meta">${m.direction === 'outbound' ? `from ${m.from}` : `to ${m.to}`} · <span class="status">${m.status}${m.reason ? ` (${m.reason})` : ''}</span> · ${m.segments} segment${m.segments === 1 ? '' : 's'}${m.test ? ' · test' : ''} · ${time(m.createdAt)}</span></li>`,
      )}</ol>`
    : empty('No messages with this number yet.');
  const sendBox = fromNumbers.length
    ? html`<h2>Send</h2>
<form method="post" action="${P}/messages/${encodeURIComponent(counterparty)}" class="stack">${csrfField(csrf)}
<label for="from">From</label>
<select id="from" name="from">${fromNumbers.map((n) => html`<option value="${n}">${n}</option>`)}</select>
<label for="body">Message</label>
<textarea id="body" name="body" rows="3" required maxlength="1600"></textarea>
<button type="submit">Send</button>
</form>
${commandBox(`svc messages send --from ${shellWord(fromNumbers[0]!)} --to ${shellWord(counterparty)} --body '…'`, 'Send from the CLI')}`
    : html`<p class="muted">The account has no number to send from.</p>${commandBox('svc numbers search --area-code 415', 'Find one')}`;
  return html`${flash ? html`<p class="notice" role="status">${flash}</p>` : ''}<section id="live" data-live-types="message.*" data-live-changes="true" aria-live="polite">${items}</section>${sendBox}`;
}

export function keysMain(keys: ApiKey[], nextCursor: string | null, csrf: string, sessionKeyId: string, created?: CreatedApiKey): SafeHtml {
  const shown = created
    ? html`<div class="notice" role="status"><p>Key <strong>${created.name}</strong> created. Copy it now: it is shown only once.</p>${commandBox(created.key ?? '', 'New key')}</div>`
    : '';
  const rows = keys.length
    ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Mode</th><th scope="col">Last used</th><th scope="col">State</th></tr></thead><tbody>
${keys.map(
  (k) => html`<tr data-key-id="${k.id}"><td>${k.name}${k.id === sessionKeyId ? html` <span class="badge">this session</span>` : ''}<br><span class="muted">${k.id}</span></td><td><code>${k.prefix}…</code></td><td>${k.mode}</td><td>${time(k.lastUsedAt)}</td><td>${k.revokedAt ? html`revoked ${time(k.revokedAt)}` : html`<form method="post" action="${P}/keys/${encodeURIComponent(k.id)}/revoke" class="inline">${csrfField(csrf)}<button type="submit" class="secondary" aria-label="Revoke key ${k.name} (${k.id})">Revoke</button></form>`}</td></tr>`,
)}
</tbody></table></div>`
    : empty('No keys.');
  return html`${shown}<h2>Create a key</h2>
<form method="post" action="${P}/keys" class="stack">${csrfField(csrf)}
<label for="key-name">Name</label><input type="text" id="key-name" name="name" required maxlength="100">
<label for="key-mode">Mode</label><select id="key-mode" name="mode"><option value="test">test</option><option value="live">live</option></select>
<button type="submit">Create key</button>
</form>
${commandBox('svc keys create --name ci --mode test', 'Create from the CLI')}
<h2>Keys</h2>${rows}${pager(nextCursor)}
${commandBox('svc keys revoke <id>', 'Revoke from the CLI')}`;
}

export function numbersMain(numbers: PhoneNumber[], nextCursor: string | null): SafeHtml {
  if (numbers.length === 0) return html`${empty('No numbers.')}${commandBox('svc numbers search --area-code 415', 'Find one')}`;
  return html`<div class="table-wrap"><table><thead><tr><th scope="col">Number</th><th scope="col">Label</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Campaign</th></tr></thead><tbody>
${numbers.map((n) => html`<tr><td><a href="${P}/numbers/${encodeURIComponent(n.id)}">${n.phoneNumber}</a><br><span class="muted">${n.id}</span></td><td>${n.label ?? ''}</td><td>${n.type}</td><td>${n.status}</td><td>${n.campaignName ?? ''}</td></tr>`)}
</tbody></table></div>${pager(nextCursor)}`;
}

export function billingMain(billing: Billing, days: DayTotal[], categories: Array<{ category: string; quantity: number; amountCents: number }>): SafeHtml {
  return html`<dl class="facts">
<dt>Balance</dt><dd>${dollars(billing.wallet.balanceCents)}</dd>
<dt>Spend limit</dt><dd>${billing.spendLimitCents === null ? 'none' : dollars(billing.spendLimitCents)}</dd>
<dt>Spent this month</dt><dd>${dollars(billing.monthToDateCents)}</dd>
<dt>Plan</dt><dd>${billing.plan} (${billing.subscription.status})</dd>
<dt>Auto-recharge</dt><dd>${billing.wallet.autoRecharge.enabled ? `on: ${dollars(billing.wallet.autoRecharge.amountCents ?? 0)} below ${dollars(billing.wallet.autoRecharge.thresholdCents ?? 0)}` : 'off'}</dd>
</dl>
<h2>Usage per day (last ${days.length} days)</h2>
${barChart(days, 'Spend per day, in dollars')}
${commandBox('svc usage --from 14d', 'Usage')}
<h2>This month by category</h2>
${categories.length ? html`<div class="table-wrap"><table><thead><tr><th scope="col">Category</th><th scope="col">Quantity</th><th scope="col">Amount</th></tr></thead><tbody>${categories.map((c) => html`<tr><td>${c.category}</td><td>${c.quantity}</td><td>${dollars(c.amountCents)}</td></tr>`)}</tbody></table></div>` : empty('Nothing spent this month.')}`;
}

export { dollars };
