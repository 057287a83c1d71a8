#!/usr/bin/env node
// bench/webhooks-fairness: one tenant's slow receivers beside another tenant's fast one, against the
// BUILT code (npm run build first). The service runs in a child process (bench/lib/service-child.mjs,
// system clock); this process holds the receivers (node:http on loopback) and sends.
//   Sub-account S2: SLOW_ENDPOINTS (default 20) endpoints on one receiver that answers each request
//   after SLOW_MS (default 9,500 ms, inside the 10 s ack timeout). Sub-account S1: one endpoint on a
//   receiver that answers at once. SENDS (default 20) test sends from each, S2's first (each send
//   gives its message.status events to every endpoint of its sub-account).
//   alone       S1's sends with S2 idle: S1's lag (event createdAt → receipt), p50 / p99 / max
//   beside S2   S2's sends, then S1's at once: S1's lag, and S2's requests open when S1's last arrived
// The machine's load average is printed at the start and the end (2 cores shared: read the figures
// against it). BENCH_BASELINE=DIR runs the same against another checkout's build (DIR/dist) after
// this one's. Bounded: a hard deadline (DEADLINE_S, default 240); children and temp dirs are removed.
import http from 'node:http';
import os from 'node:os';
import { existsSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hardDeadline, isServeChild, serveChild, spawnServiceChild } from './lib/service-child.mjs';

if (isServeChild()) {
  await serveChild(() => ({}));
} else {
  const me = fileURLToPath(import.meta.url);
  const SLOW_ENDPOINTS = Number(process.env.SLOW_ENDPOINTS ?? 20);
  const SLOW_MS = Number(process.env.SLOW_MS ?? 9_500);
  const SENDS = Number(process.env.SENDS ?? 20);
  const PHASE_MS = 90_000;
  const BASELINE = process.env.BENCH_BASELINE ? resolvePath(process.env.BENCH_BASELINE) : undefined;
  if (BASELINE && !existsSync(join(BASELINE, 'dist/server/main.js'))) {
    console.error(`bench/webhooks-fairness: BENCH_BASELINE=${BASELINE} has no built dist/server/main.js`);
    process.exit(1);
  }
  const children = [];
  const servers = [];
  const disarm = hardDeadline('bench/webhooks-fairness', Number(process.env.DEADLINE_S ?? 240) * 1000, () => {
    for (const c of children) c.kill();
    for (const s of servers) s.closeAllConnections();
  });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' / ');
  const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

  /** A loopback receiver: `delayMs` before each answer; `received` has each request's lag and time. */
  const startReceiver = (delayMs) =>
    new Promise((resolve) => {
      const rx = { received: [], open: 0, url: '' };
      const server = http.createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          const at = Date.now();
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          rx.received.push({ at, lagMs: at - Date.parse(body.createdAt) });
          rx.open++;
          res.on('close', () => rx.open--);
          const answer = () => res.writeHead(200).end('ok');
          if (delayMs > 0) setTimeout(answer, delayMs);
          else answer();
        });
      });
      server.keepAliveTimeout = 60_000;
      servers.push(server);
      server.listen(0, '127.0.0.1', () => resolve(Object.assign(rx, { url: `http://127.0.0.1:${server.address().port}` })));
    });

  const waitFor = async (pred, label) => {
    const deadline = Date.now() + PHASE_MS;
    while (!pred()) {
      if (Date.now() > deadline) throw new Error(`${label}: not done within ${PHASE_MS / 1000} s`);
      await sleep(5);
    }
  };

  /** One build's run: its own service child, receivers and sub-accounts. */
  const run = async (label, root) => {
    const child = spawnServiceChild(me, 'svc-bench-fairness-', '--serve', { root });
    children.push(child);
    const slow = await startReceiver(SLOW_MS);
    const fast = await startReceiver(0);
    try {
      const { baseUrl, liveKey, testKey } = await child.ready;
      const call = async (key, path, body, sub) => {
        const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(sub ? { 'service-subaccount': sub } : {}) };
        const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
        const json = await res.json();
        if (res.status >= 300) throw new Error(`${path} → ${res.status} ${JSON.stringify(json)}`);
        return json;
      };
      const tenant = async (name) => {
        const { id } = await call(liveKey, '/v1/subaccounts', { name });
        const found = await call(testKey, '/v1/numbers/search', { areaCode: '415', capabilities: ['sms'], limit: 1 }, id);
        const from = (await call(testKey, '/v1/numbers/buy', { phoneNumber: found.data[0].phoneNumber }, id)).phoneNumber;
        let n = 0;
        const send = () => call(testKey, '/v1/messages', { from, to: `+1415${String(3_000_000 + n++).padStart(7, '0')}`, body: `${name} ${n}` }, id);
        return { id, send };
      };
      const s2 = await tenant('S2');
      const s1 = await tenant('S1');
      for (let i = 0; i < SLOW_ENDPOINTS; i++) await call(liveKey, '/v1/webhooks', { url: `${slow.url}/s2/${i}`, events: ['message.*'] }, s2.id);
      await call(liveKey, '/v1/webhooks', { url: `${fast.url}/s1`, events: ['message.*'] }, s1.id);

      // S1 alone: how many events its sends give is learned here (the carrier's steps on the system clock).
      for (let i = 0; i < SENDS; i++) await s1.send();
      let seen = -1;
      await waitFor(() => {
        const settled = fast.received.length > 0 && fast.received.length === seen;
        seen = fast.received.length;
        return settled && Date.now() - fast.received.at(-1).at > 2000;
      }, 'S1 alone');
      const perRun = fast.received.length;
      const alone = fast.received.splice(0).map((r) => r.lagMs).sort((a, b) => a - b);

      // Beside S2: S2's sends first, then S1's at once.
      const started = Date.now();
      for (let i = 0; i < SENDS; i++) await s2.send();
      for (let i = 0; i < SENDS; i++) await s1.send();
      await waitFor(() => fast.received.length >= perRun, 'S1 beside S2');
      const beside = fast.received.map((r) => r.lagMs).sort((a, b) => a - b);
      const lastAt = Math.max(...fast.received.map((r) => r.at));
      const line = (lags) => `p50 ${pct(lags, 50)} ms, p99 ${pct(lags, 99)} ms, max ${lags.at(-1)} ms`;
      console.log(`${label}: S1 alone         ${alone.length} events: lag ${line(alone)}`);
      console.log(`${label}: S1 beside S2     ${beside.length} events: lag ${line(beside)}; all in ${lastAt - started} ms after S2's first send; then S2 had ${slow.open} requests open, ${slow.received.length} received`);
      await child.stop();
    } catch (err) {
      child.kill();
      throw err;
    } finally {
      children.splice(children.indexOf(child), 1);
      for (const s of servers.splice(0)) {
        s.closeAllConnections();
        s.close();
      }
    }
  };

  try {
    console.log(`bench/webhooks-fairness: S2 ${SLOW_ENDPOINTS} endpoints answering after ${SLOW_MS} ms, S1 one answering at once, ${SENDS} test sends each; load average ${load()} (1/5/15 min), ${os.cpus().length} cores`);
    await run('this build', undefined);
    if (BASELINE) await run(`baseline`, BASELINE);
    console.log(`load average at the end ${load()}`);
  } finally {
    disarm();
  }
}
