// The console's one stylesheet and one script, served under /console/assets/ (the CSP
// allows no inline script or style, and nothing from elsewhere). Kept here as text so the build
// ships them with the code; each is small and has no dependency.

export const CONSOLE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1f2328;background:#f6f8fa}
a{color:#0550ae}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:2}
header.top{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.5rem 1rem;background:#1f2328;color:#fff}
header.top a{color:#fff;font-weight:700;text-decoration:none}
header.top .who{margin:0;flex:1}
header.top .muted{color:#d0d7de}
.brand{margin:0}
.badge{display:inline-block;border:1px solid currentColor;border-radius:1rem;padding:0 .5rem;font-size:.8rem}
nav[aria-label=Console] ul{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;margin:0;padding:.5rem 1rem;background:#fff;border-bottom:1px solid #d0d7de}
nav[aria-label=Console] a{display:block;padding:.25rem .75rem;border-radius:4px;text-decoration:none}
nav[aria-label=Console] a[aria-current=page]{background:#0550ae;color:#fff}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.cmd{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:.4rem .6rem;margin:.5rem 0}
.cmd code{flex:1;font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
.cmd-label{font-size:.8rem;color:#57606a}
button,input,select,textarea{font:inherit}
button{background:#0550ae;color:#fff;border:0;border-radius:4px;padding:.35rem .8rem;cursor:pointer}
button.secondary,.signout button{background:#fff;color:#1f2328;border:1px solid #57606a}
:focus-visible{outline:3px solid #bf8700;outline-offset:2px}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #d0d7de;vertical-align:top;overflow-wrap:anywhere}
/* Headers, times, statuses and numbers whole: the free text beside them wraps instead. */
th,td time,td .status,td.nowrap{white-space:nowrap;overflow-wrap:normal}
th{font-size:.85rem;color:#57606a}
.table-wrap{overflow-x:auto}
.muted{color:#57606a}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;background:#fff;padding:.75rem;border:1px solid #d0d7de;border-radius:6px}
dl.facts dt{color:#57606a}
dl.facts dd{margin:0;overflow-wrap:anywhere}
.thread{list-style:none;padding:0;display:flex;flex-direction:column;gap:.5rem}
.bubble{max-width:36rem;padding:.5rem .75rem;border-radius:10px;background:#fff;border:1px solid #d0d7de;white-space:pre-wrap;overflow-wrap:anywhere}
.bubble.outbound{align-self:flex-end;background:#ddf4ff}
.bubble .meta{display:block;font-size:.8rem;color:#57606a;white-space:normal}
form.stack{display:flex;flex-direction:column;gap:.5rem;max-width:36rem;background:#fff;padding:.75rem;border:1px solid #d0d7de;border-radius:6px}
form.inline{display:inline}
label{font-weight:600}
input[type=text],select,textarea{padding:.4rem;border:1px solid #57606a;border-radius:4px;background:#fff;color:#1f2328;width:100%}
.notice{background:#fff8c5;border:1px solid #bf8700;padding:.5rem .75rem;border-radius:6px}
.error{background:#ffebe9;border:1px solid #cf222e;padding:.5rem .75rem;border-radius:6px}
.pager{margin:1rem 0}
svg text{font:12px system-ui,sans-serif;fill:#1f2328}
svg .bar{fill:#0550ae}
.filters{display:flex;gap:.5rem;align-items:end;flex-wrap:wrap;margin:.5rem 0}
.filters label{display:block}
pre.json{background:#fff;border:1px solid #d0d7de;padding:.5rem;overflow:auto;max-height:16rem;font-size:12px}
svg .node rect{fill:#fff;stroke:#0550ae;stroke-width:1.5}
svg .node-title{font-weight:700}
svg .node.covered rect{stroke:#1a7f37;stroke-width:2.5;fill:#dafbe1}
svg .node.uncovered rect{stroke:#bc4c00;stroke-width:2.5;stroke-dasharray:6 3;fill:#fff1e5}
ul.uncovered{margin:.25rem 0;padding-left:1.5rem}
svg .edge{stroke:#57606a;stroke-width:1.5}
.route-graph{margin:0}.route-graph svg{max-width:100%;height:auto}
.route-view{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem;align-items:start}
@media (max-width:60rem){.route-view{grid-template-columns:1fr}}
ol.timeline{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:.75rem 2rem}
ol.timeline li{margin:.2rem 0}
audio{display:block;margin:.5rem 0}
.dialpad{max-width:16rem}
.dialpad .keys{display:grid;grid-template-columns:repeat(3,1fr);gap:.4rem}
.dialpad .keys button{font-size:1.25rem;padding:.6rem 0;background:#fff;color:#1f2328;border:1px solid #57606a}
button.hangup{background:#a40e26;margin:.75rem 0}
iframe.email-frame{width:100%;height:24rem;border:1px solid #d0d7de;background:#fff}
@media (max-width:40rem){main{padding:.5rem}dl.facts{grid-template-columns:1fr}table,tbody,tr,td{display:block}thead{display:none}tr{border-bottom:1px solid #d0d7de;padding:.4rem 0}td{border:0;padding:.15rem .5rem}.cmd code{font-size:12px}}
`;

export const CONSOLE_JS = `'use strict';
// The console's one script: copy buttons, and live sections. A section marked data-live-types
// listens to the session's event stream (server-sent events) and, when an event of those types
// arrives, fetches this same page again and swaps the section in; an events table
// (data-live-rows="events") puts the new event's row, sent whole by the stream, at its top instead.
// The server renders (and escapes) every value; this script never builds markup from data.
(function () {
  document.addEventListener('click', function (e) {
    var b = e.target.closest && e.target.closest('button.copy');
    if (!b) return;
    var text = b.getAttribute('data-copy') || '';
    var done = function () { b.textContent = 'Copied'; setTimeout(function () { b.textContent = 'Copy'; }, 1500); };
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, function () {});
  });
  // The phone's dial pad: a key typed on the keyboard (outside a text field) presses its button, and
  // after a press the page comes back with that key focused.
  var pad = document.querySelector('form.dialpad');
  if (pad) {
    document.addEventListener('keydown', function (e) {
      if (e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName || '')) return;
      if (!/^[0-9*#]$/.test(e.key)) return;
      var key = pad.querySelector('button[value="' + e.key + '"]');
      if (key) { e.preventDefault(); key.click(); }
    });
    var pressed = new URLSearchParams(location.search).get('pressed');
    var pressedKey = pressed && pad.querySelector('button[value="' + CSS.escape(pressed) + '"]');
    if (pressedKey) pressedKey.focus();
  }
  var live = document.getElementById('live');
  if (!live || !window.EventSource) return;
  var types = live.getAttribute('data-live-types') || '*';
  var busy = false, again = false;
  // A swap must not take the keyboard's place (keyboard alone reaches every action): the
  // focused control, and the disclosures opened, are found again in the new section by their row's
  // id (rows come and go above them) and their rank in it, or else by their href.
  var FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';
  var ROW = '[data-event-id], [data-delivery-id], [data-message-id], [data-key-id], [data-counterparty], [data-sink-request-id]';
  var ROW_ATTRS = ['data-event-id', 'data-delivery-id', 'data-message-id', 'data-key-id', 'data-counterparty', 'data-sink-request-id'];
  function placeOf(el) {
    var row = el.closest(ROW);
    if (!row) return { href: el.getAttribute('href'), rank: Array.prototype.indexOf.call(live.querySelectorAll(FOCUSABLE), el) };
    var attr = ROW_ATTRS.filter(function (a) { return row.hasAttribute(a); })[0];
    return { attr: attr, id: row.getAttribute(attr), rank: Array.prototype.indexOf.call(row.querySelectorAll(FOCUSABLE), el) };
  }
  function find(place) {
    if (place.attr) {
      var row = live.querySelector('[' + place.attr + '="' + CSS.escape(place.id) + '"]');
      return row ? row.querySelectorAll(FOCUSABLE)[place.rank] || null : null;
    }
    if (place.href) return live.querySelector('a[href="' + CSS.escape(place.href) + '"]');
    return live.querySelectorAll(FOCUSABLE)[place.rank] || null;
  }
  function keep() {
    var a = document.activeElement;
    return {
      focus: a && a !== live && live.contains(a) ? placeOf(a) : null,
      open: Array.prototype.map.call(live.querySelectorAll('details[open] > summary'), placeOf),
    };
  }
  function restore(kept) {
    kept.open.forEach(function (p) { var s = find(p); if (s && s.parentElement) s.parentElement.open = true; });
    var el = kept.focus && find(kept.focus);
    if (el) el.focus({ preventScroll: true });
  }
  // A page past the first of a list in recency order (the conversations) takes no rows in: a row
  // that moves to the top leaves it and every row below moves up one, under the reader's eyes and
  // keyboard. Only the first page follows (newer rows land there); a later page shows its notice,
  // whose link is the first page. Not a count of new rows: a message's hint does not say whether it
  // opened a conversation, and counting them would cost a query per change.
  var hold = live.hasAttribute('data-live-hold');
  // Rows put in while a fetch of the page is under way: the page it brings may have been read before
  // their commit, so after the swap they go in again (those it already has are skipped).
  var during = null;
  function refresh() {
    if (hold) { var held = document.getElementById('live-held'); if (held) held.hidden = false; return; }
    if (busy) { again = true; return; }
    busy = true;
    during = [];
    fetch(location.href, { credentials: 'same-origin', headers: { 'Accept': 'text/html' } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (text === null) return;
        var doc = new DOMParser().parseFromString(text, 'text/html');
        var next = doc.getElementById('live');
        var kept = keep();
        if (next) live.replaceChildren.apply(live, Array.prototype.slice.call(next.childNodes).map(function (n) { return document.adoptNode(n); }));
        restore(kept);
        reapply();
        // An events table's next-page link (its one pager, after the section) comes with the rows it follows.
        if (paged) {
          var pager = doc.querySelector('p.pager'), ours = document.querySelector('p.pager');
          if (pager && ours) ours.replaceWith(document.adoptNode(pager));
          else if (pager) live.after(document.adoptNode(pager));
          else if (ours) ours.remove();
        }
        var missed = during; during = null;
        missed.forEach(function (d) { if (!putRow(d)) again = true; });
        live.setAttribute('data-refreshed', String(Date.now()));
      })
      .catch(function () {})
      .then(function () { busy = false; during = null; if (again) { again = false; refresh(); } });
  }
  // A new event's row, rendered by the service (the events tables' own view, so escaped as
  // the page is), put at the top with no fetch: a burst of events no longer queues behind page
  // fetches. Newest first, so rows heard in commit order each go on top. The table keeps its page
  // size; the next page then starts after the last row kept (its data-before). Anything this cannot
  // do (no table, a row that is not one event's, a page grown past its size with no next-page link
  // to move) is left to refresh().
  var rowsOf = live.getAttribute('data-live-rows');
  var limit = Number(live.getAttribute('data-live-limit')) || 0;
  // A table with next pages (not the overview's few recent rows): a trimmed row must stay reachable.
  var paged = live.hasAttribute('data-live-next');
  function putRow(d) {
    var body = live.querySelector('tbody');
    if (!body || typeof d.row !== 'string' || typeof d.id !== 'string') return false;
    if (during) during.push(d);
    var selector = 'tr[data-event-id="' + CSS.escape(d.id) + '"]';
    if (body.querySelector(selector)) return true;
    var parsed = new DOMParser().parseFromString('<table><tbody>' + d.row + '</tbody></table>', 'text/html').querySelectorAll('tbody > *');
    if (parsed.length !== 1 || !parsed[0].matches(selector)) return false;
    var kept = keep();
    body.insertBefore(document.adoptNode(parsed[0]), body.firstElementChild);
    // The first row: the table shows, the empty notice goes.
    var wrap = body.closest('.table-wrap'), none = live.querySelector('.live-empty');
    if (wrap) wrap.hidden = false;
    if (none) none.remove();
    var trimmed = false;
    while (limit && body.children.length > limit) { body.removeChild(body.lastElementChild); trimmed = true; }
    restore(kept);
    live.setAttribute('data-inserted', String(Date.now()));
    if (!trimmed || !paged) return true;
    var next = document.querySelector('a[rel="next"]');
    var before = body.lastElementChild && body.lastElementChild.getAttribute('data-before');
    if (!next || !before) return false;
    var params = new URLSearchParams(next.getAttribute('href').replace(/^[^?]*\?/, ''));
    params.set('cursor', before);
    next.setAttribute('href', '?' + params.toString());
    return true;
  }
  // A message's status moves in place (within 250 ms of its commit): no fetch, no wait
  // behind one under way. Statuses only move forward, so a page fetched before the move and swapped
  // in after it cannot set it back: what the stream said is applied again after every swap.
  var RANK = { queued: 0, sending: 1, sent: 2, delivered: 3, failed: 3, undelivered: 3, received: 3 };
  var heard = {};
  function setStatus(id, status, reason) {
    var el = live.querySelector('[data-message-id="' + CSS.escape(id) + '"]');
    if (!el) return false;
    if ((RANK[status] || 0) > (RANK[el.getAttribute('data-status')] || 0)) {
      el.setAttribute('data-status', status);
      var text = el.querySelector('.status');
      if (text) text.textContent = status + (reason ? ' (' + reason + ')' : '');
    }
    return true;
  }
  function reapply() { Object.keys(heard).forEach(function (id) { setStatus(id, heard[id][0], heard[id][1]); }); }
  function onData(e) {
    var d = {};
    try { d = JSON.parse(e.data); } catch (err) { /* a malformed message: fetch the page */ }
    if (d.messageId && d.status) {
      heard[d.messageId] = [d.status, d.reason || null];
      if (setStatus(d.messageId, d.status, d.reason || null)) return;
    }
    if (d.row && !hold && putRow(d)) return;
    refresh();
  }
  // A sink's page (data-live-sink) hears when that sink keeps a request, and nothing else.
  var sink = live.getAttribute('data-live-sink');
  var source = new EventSource('/console/stream?types=' + encodeURIComponent(types) + (rowsOf && !hold ? '&rows=' + encodeURIComponent(rowsOf) : '') + (sink ? '&sink=' + encodeURIComponent(sink) : ''));
  source.addEventListener('message', onData);
  if (live.hasAttribute('data-live-changes')) source.addEventListener('change', onData);
  source.addEventListener('ended', function () { source.close(); location.reload(); });
  // Once the stream is open, one refresh catches what committed between this page's render and now.
  // (A held page has nothing to catch up: it shows the rows it was loaded with.)
  source.addEventListener('open', function () { live.setAttribute('data-listening', 'true'); if (!hold) refresh(); });
})();
`;
