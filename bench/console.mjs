#!/usr/bin/env node
// bench/console. The target: "a page's HTML in under 100 ms on the local service with 1M messages
// stored". The built service in this process (a temp data directory, manual clock); BENCH_MESSAGES
// messages (one conversation per 10) and as many events stored through the repositories in write
// transactions of 20k (setup, not measured); then each console page fetched over HTTP with a session
// cookie, BENCH_REPS times after a warm-up; the median and the worst are printed per page, with the
// median CPU time the process spent on a request (read it beside the wall-clock figures on a shared machine).
//
// Then the live target, "a new event appears on the events page, and a message's status moves in its
// thread, within 250 ms of its commit", and a new message made elsewhere (sent through the API, or an
// inbound one) appears in its open thread as soon: the pages open in Chromium (playwright-core, Debian's
// chromium), BENCH_LIVE updates of each kind, one at a time. The commit's time is taken by a listener
// of the event store (told after the commit, as the console's stream is; its change notices for a
// live message's `queued`); the page's time by a MutationObserver in the page, when the new event's
// row (or the bubble, or its new status) is in the DOM.
// Both read the same system clock (performance.timeOrigin + performance.now()). p50 and p99 are
// printed with the load average beside them: on a shared machine, read the figures with it.
//
// Last, (d) the same with roles on SQLite: an API process (here, `--role api`) and a worker
// in a process of its own (bench/lib/console-worker.mjs, `--role worker`) on one fresh data directory.
// Each round sends a message through the API and advances the clock 2 s (the worker runs the carrier's
// jobs: its `sent` and `delivered` events); the events page (types=message.status) is open on the API
// process, which learns of them only through the file. Timed from the worker's commit (its listeners,
// reported on its stdout) to the row in the page, p50/p99 with the load average; the one-process
// figure of (a) in the same run is the floor it is read against. Then the API process's CPU while idle,
// with the page open and without. BENCH_ROLES_ONLY=1 runs (a) and (d) only.
//
//   npm run build && node bench/console.mjs     BENCH_MESSAGES=1000000  BENCH_REPS=30  BENCH_LIVE=60
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startService } from '../dist/server/main.js';
import { BRAND, CAMPAIGN } from './lib/registration.mjs';

const N = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const REPS = Number(process.env.BENCH_REPS ?? 30);
const LIVE = Number(process.env.BENCH_LIVE ?? 60);
const ROLES_ONLY = process.env.BENCH_ROLES_ONLY === '1';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const now = () => performance.timeOrigin + performance.now();
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-console-'));
const svc = await startService({ host: '127.0.0.1', port: 0, dataDir, clock: 'manual' });
try {
  const accountId = svc.bootstrap.accountId;
  const base = Date.now() - 100_000_000;
  const t0 = Date.now();
  svc.db.pragma('cache_size = -524288');
  for (let stored = 0; stored < N; ) {
    const batch = Math.min(20_000, N - stored);
    await svc.deps.uow.write(async (tx) => {
      for (let k = 0; k < batch; k++, stored++) {
        const at = base + stored;
        const party = `+1${2_000_000_000 + Math.floor(stored / 10)}`;
        await tx.messages.insert({
          id: `msg_${randomBytes(10).toString('hex')}`, accountId, numberId: null, direction: stored % 3 ? 'outbound' : 'inbound',
          from: '+14155550100', to: party, counterparty: party, body: `bench message ${stored}: the quick brown fox jumps over the lazy dog`,
          status: 'delivered', segments: 1, channel: 'sms', media: null, reason: null, test: true, providerMessageId: null, createdAt: at, updatedAt: at,
        });
        const eventId = `evt_${randomBytes(10).toString('hex')}`;
        await tx.eventsRepo.insert({ id: eventId, accountId, type: 'message.delivered', createdAt: at, body: { id: eventId, type: 'message.delivered', createdAt: new Date(at).toISOString(), to: party, status: 'delivered' } });
      }
    });
  }
  svc.db.pragma('cache_size = -2000');
  svc.db.pragma('wal_checkpoint(TRUNCATE)');
  console.log(`stored ${N} messages and ${N} events in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const key = svc.bootstrap.liveKey;
  const link = await (await fetch(`${svc.baseUrl}/v1/console/sessions`, { method: 'POST', headers: { authorization: `Bearer ${key}` } })).json();
  // The link's confirmation page, then its button (a POST from the console's own origin).
  const token = new URL(link.url).searchParams.get('token');
  const login = await fetch(`${svc.baseUrl}/console/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: svc.baseUrl, 'sec-fetch-site': 'same-origin' }, body: new URLSearchParams({ token }).toString() });
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const lastParty = `+1${2_000_000_000 + Math.floor((N - 1) / 10)}`;
  const conversations = await (await fetch(`${svc.baseUrl}/console/messages`, { headers: { cookie } })).text();
  const deep = /href="\?cursor=([^"]+)"/.exec(conversations)?.[1];
  const pages = {
    overview: '/console/',
    conversations: '/console/messages',
    'conversations, page 2': deep ? `/console/messages?cursor=${deep}` : '/console/messages',
    thread: `/console/messages/${encodeURIComponent(lastParty)}`,
    events: '/console/events',
    'events, message.*': '/console/events?types=message.*',
    billing: '/console/billing',
    keys: '/console/keys',
  };
  for (const [name, path] of ROLES_ONLY ? [] : Object.entries(pages)) {
    const times = [];
    const cpu = [];
    for (let i = 0; i < REPS + 3; i++) {
      const s = process.hrtime.bigint();
      const c = process.cpuUsage();
      const res = await fetch(`${svc.baseUrl}${path}`, { headers: { cookie } });
      await res.text();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      const used = process.cpuUsage(c);
      if (i >= 3) {
        times.push(Number(process.hrtime.bigint() - s) / 1e6);
        cpu.push((used.user + used.system) / 1000);
      }
    }
    // The CPU this process spent on the request (the service's work and the client's, no waiting for
    // a core): what the page costs, apart from what a loaded machine adds to its wall-clock time.
    console.log(`${name.padEnd(24)} median ${median(times).toFixed(1)} ms   worst ${Math.max(...times).toFixed(1)} ms   cpu median ${median(cpu).toFixed(1)} ms   (load average ${load()})`);
  }
  const floor = await measureLive(svc);
  await measureRolesLive(floor);
} finally {
  await svc.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/** Opens a console session in a fresh browser context with a one-time link minted with `key`. */
async function consolePage(browser, svc, key) {
  const link = await (await fetch(`${svc.baseUrl}/v1/console/sessions`, { method: 'POST', headers: { authorization: `Bearer ${key}` } })).json();
  const page = await (await browser.newContext()).newPage();
  await page.goto(link.url);
  await Promise.all([page.waitForURL(`${svc.baseUrl}/console/`), page.getByRole('button', { name: /^Sign in to / }).click()]);
  return page;
}

/**
 * Opens `path` (null: the page as it is), waits for its live section to listen (and its first refresh), then installs the
 * observer: `window.__seen[key]` is the time a key first appeared in #live (an event's marker, in its
 * row's JSON; a message's `id:status`, by its bubble's data-status).
 */
async function openLive(page, svc, path) {
  if (path !== null) await page.goto(`${svc.baseUrl}${path}`);
  await page.waitForSelector('#live[data-listening="true"][data-refreshed]', { timeout: 10_000 });
  await page.evaluate(() => {
    const seen = (window.__seen = {});
    const live = document.getElementById('live');
    const scan = () => {
      const t = performance.timeOrigin + performance.now();
      for (const m of live.textContent.matchAll(/live-mark-\d+/g)) seen[m[0]] ??= t;
      for (const b of live.querySelectorAll('[data-message-id][data-status]')) seen[`${b.getAttribute('data-message-id')}:${b.getAttribute('data-status')}`] ??= t;
    };
    scan();
    new MutationObserver(scan).observe(live, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

async function waitSeen(page, key) {
  const handle = await page.waitForFunction((k) => window.__seen[k], key, { timeout: 10_000, polling: 5 });
  return await handle.jsonValue();
}

function report(what, ms, floor) {
  const ratio = floor ? `   p50 ${(percentile(ms, 50) / percentile(floor, 50)).toFixed(2)}x, p99 ${(percentile(ms, 99) / percentile(floor, 99)).toFixed(2)}x the one-process figure` : '';
  console.log(`${what.padEnd(40)} n=${ms.length}  min ${Math.min(...ms).toFixed(1)} ms   p50 ${percentile(ms, 50).toFixed(1)} ms   p99 ${percentile(ms, 99).toFixed(1)} ms   max ${Math.max(...ms).toFixed(1)} ms${ratio}   (goal 250 ms; load average ${load()})`);
}

/** The API of `svc` with its live key: the answer's JSON, or an error naming the call. */
function apiOf(svc) {
  return async (method, path, body) => {
    const res = await fetch(`${svc.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${svc.bootstrap.liveKey}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const out = await res.json();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(out)}`);
    return out;
  };
}

/**
 * A live number on a mock campaign: its messages move with the service clock (a test key's are
 * delivered as they are sent, before a page could watch them move).
 */
async function liveNumber(api) {
  const found = await api('POST', '/v1/numbers/search', { areaCode: '415', capabilities: ['sms'], limit: 1 });
  const bought = await api('POST', '/v1/numbers/buy', { phoneNumber: found.data[0].phoneNumber });
  const brand = await api('POST', '/v1/brands', { ...BRAND, mock: true });
  const campaign = await api('POST', '/v1/campaigns', { ...CAMPAIGN, brandId: brand.id });
  await api('POST', `/v1/numbers/${bought.id}/assign`, { campaignId: campaign.id });
  return bought.phoneNumber;
}

async function measureLive(svc) {
  if (!existsSync(CHROMIUM)) {
    console.log(`live updates: not measured, no Chromium at ${CHROMIUM} (scripts/install-test-tools.sh, or CHROMIUM_PATH)`);
    return undefined;
  }
  const api = apiOf(svc);
  const number = await liveNumber(api);
  const counterparty = '+14155550188';
  // Commit times, from the event store's listeners (after the commit, as the console's stream hears them).
  const committed = {};
  const off = svc.deps.events.subscribe((e) => {
    const t = now();
    const mark = /live-mark-\d+/.exec(JSON.stringify(e.body))?.[0];
    if (mark) committed[mark] ??= t;
    if (e.type === 'message.status') committed[`${e.body.messageId}:${e.body.status}`] ??= t;
    if (e.type === 'message.received') committed[`${e.body.messageId}:received`] ??= t;
  });
  // A live message's acceptance (`queued`) is no event: the console hears it as a change notice, after
  // the commit. Kept apart: (b) times the statuses events report, from a page loaded after the send.
  const accepted = {};
  const offChanges = svc.deps.events.subscribeChanges((ch) => {
    if (ch.kind === 'message' && ch.status === 'queued') accepted[`${ch.id}:queued`] ??= now();
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
  try {
    const page = await consolePage(browser, svc, svc.bootstrap.liveKey);

    // (a) A consumer's text: its message.received event shows on the events page.
    await openLive(page, svc, '/console/events?types=message.received');
    const events = [];
    for (let i = 0; i < LIVE; i++) {
      const mark = `live-mark-${i}`;
      await api('POST', '/v1/sandbox/inbound-messages', { from: counterparty, to: number, body: `hello ${mark}` });
      const seen = await waitSeen(page, mark);
      events.push(seen - committed[mark]);
    }
    report('live: an event on the events page', events);
    if (ROLES_ONLY) return events;

    // (b) A message's status moving in an open thread (set in place from the stream, no fetch): each
    // message sent from the thread's box (the page comes back with its bubble, queued), then the
    // clock moved a second at a time, each move waited for in the page before the next (sent,
    // delivered: the statuses the API reports) and timed.
    const thread = `/console/messages/${encodeURIComponent(counterparty)}`;
    await openLive(page, svc, thread);
    const moves = [];
    for (let i = 0; moves.length < LIVE && i < LIVE * 2; i++) {
      await page.selectOption('#from', number);
      await page.fill('#body', `status ${i}`);
      await Promise.all([page.waitForURL(/\?sent=msg_/), page.click('form.stack button[type="submit"]')]);
      const id = new URL(page.url()).searchParams.get('sent');
      await openLive(page, svc, null);
      const timed = new Set();
      for (let step = 0; step < 30 && !committed[`${id}:delivered`]; step++) {
        await svc.deps.scheduler.advance(step === 0 ? 0 : 1);
        for (const key of Object.keys(committed).filter((k) => k.startsWith(`${id}:`) && !timed.has(k))) {
          timed.add(key);
          moves.push((await waitSeen(page, key)) - committed[key]);
        }
      }
    }
    report("live: a message's status in its thread", moves);

    // (c) A new message made elsewhere, in the open thread (a fresh page): sent through the API with
    // the live key (it stays `queued`: the clock does not move) or texted in by a consumer, in turn;
    // timed from its commit to its bubble in the DOM.
    await openLive(page, svc, thread);
    const sends = [];
    const inbound = [];
    for (let i = 0; i < LIVE * 2; i++) {
      const made = i % 2 === 0
        ? await api('POST', '/v1/messages', { from: number, to: counterparty, body: `new ${i}` })
        : await api('POST', '/v1/sandbox/inbound-messages', { from: counterparty, to: number, body: `new ${i}` });
      const key = `${made.id}:${made.status}`;
      (i % 2 === 0 ? sends : inbound).push((await waitSeen(page, key)) - (accepted[key] ?? committed[key]));
    }
    report('live: a new message sent through the API', sends);
    report('live: a new inbound message', inbound);
    return events;
  } finally {
    off();
    offChanges();
    await browser.close();
  }
}


/**
 * (d) An API process here and a worker in its own process on one data directory (SQLite): the worker's
 * message.status events on the events page of the API process, from the worker's commit to the row.
 */
async function measureRolesLive(floor) {
  if (!existsSync(CHROMIUM)) return;
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-console-roles-'));
  const api = await startService({ host: '127.0.0.1', port: 0, dataDir: dir, clock: 'manual', role: 'api' });
  const worker = spawn(process.execPath, [fileURLToPath(new URL('./lib/console-worker.mjs', import.meta.url)), dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const committed = new Map();
  let workerReady;
  const ready = new Promise((resolve, reject) => {
    workerReady = resolve;
    worker.once('exit', (code) => reject(new Error(`the worker process exited (${code})`)));
  });
  createInterface({ input: worker.stdout }).on('line', (line) => {
    const m = JSON.parse(line);
    if (m.ready) workerReady();
    else if (m.type === 'message.status') committed.set(m.id, m.at);
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
  try {
    await ready;
    const call = apiOf(api);
    const number = await liveNumber(call);
    const page = await consolePage(browser, api, api.bootstrap.liveKey);
    await page.goto(`${api.baseUrl}/console/events?types=message.status`);
    await page.waitForSelector('#live[data-listening="true"][data-refreshed]', { timeout: 10_000 });
    // When each event's row first appeared in the page.
    await page.evaluate(() => {
      const seen = (window.__rows = {});
      const live = document.getElementById('live');
      const scan = () => {
        const t = performance.timeOrigin + performance.now();
        for (const r of live.querySelectorAll('tr[data-event-id]')) seen[r.getAttribute('data-event-id')] ??= t;
      };
      scan();
      new MutationObserver(scan).observe(live, { subtree: true, childList: true });
    });
    const lags = [];
    for (let i = 0; lags.length < LIVE && i < LIVE * 2; i++) {
      const sent = await call('POST', '/v1/messages', { from: number, to: '+14155550189', body: `roles ${i}` });
      // Run by the worker (the API process hands the advance over and answers once it ran).
      await call('POST', '/v1/sandbox/clock/advance', { seconds: 2 });
      const feed = await call('GET', '/v1/events?types=message.status&order=desc&limit=10');
      for (const e of feed.data.filter((x) => x.messageId === sent.id).reverse()) {
        const seen = await (await page.waitForFunction((k) => window.__rows[k], e.id, { timeout: 10_000, polling: 5 })).jsonValue();
        // Its commit time may still be on its way from the worker's stdout.
        for (const until = Date.now() + 5_000; !committed.has(e.id); ) {
          if (Date.now() > until) throw new Error(`the worker never reported committing ${e.id}`);
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        lags.push(seen - committed.get(e.id));
      }
    }
    report("live, api + worker: the worker's event", lags, floor);
    // What looking sooner costs the API process (this one; the browser is another): its CPU over an
    // idle IDLE_MS with the events page open (its stream waits: a look every LIVE_POLL_MS), then with
    // no page open (every POLL_MS), the latter the floor.
    const IDLE_MS = 3_000;
    const idleCpu = async () => {
      const c = process.cpuUsage();
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const used = process.cpuUsage(c);
      return (used.user + used.system) / 1000;
    };
    const watched = await idleCpu();
    await page.context().close();
    while (api.deps.events.watched) await new Promise((resolve) => setTimeout(resolve, 10));
    const unwatched = await idleCpu();
    console.log(`api process CPU over ${IDLE_MS / 1000} s idle: ${watched.toFixed(1)} ms with the events page open, ${unwatched.toFixed(1)} ms with none (${(watched / unwatched).toFixed(2)}x)   (load average ${load()})`);
  } finally {
    await browser.close();
    worker.stdin.end();
    await new Promise((resolve) => (worker.exitCode === null ? worker.once('exit', resolve) : resolve()));
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
