#!/usr/bin/env node
// bench/events-follow: the latency from an event's creation to its line printed by `svc events
// follow` running as a real child process (node bin/svc.js, the built CLI) against the local service
// on loopback (system clock; the follower long-polls with `wait`). Against the built code: run
// `npm run build` first.
//   EVENTS events (default 200), paced: each is emitted (in the service's process, as a domain
//   function would), its NDJSON line awaited on the child's stdout, then GAP_MS (default 20) pause.
//   Latency = emit → line received by this process (p50, p99, max). Ctrl-C (SIGINT) then stops the
//   follower, which must exit 0.
// Bounded: each event has PER_EVENT_TIMEOUT_MS (default 5000); the whole run TIMEOUT_SECS (default 60).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService } from '../dist/server/main.js';

const EVENTS = Number(process.env.EVENTS ?? 200);
const GAP_MS = Number(process.env.GAP_MS ?? 20);
const PER_EVENT_TIMEOUT_MS = Number(process.env.PER_EVENT_TIMEOUT_MS ?? 5000);
const TIMEOUT_SECS = Number(process.env.TIMEOUT_SECS ?? 60);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

let child;
const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-follow-'));
const cleanup = () => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
};
const hardStop = setTimeout(() => {
  console.error(`bench/events-follow: did not finish within ${TIMEOUT_SECS} s; giving up`);
  cleanup();
  process.exit(2);
}, TIMEOUT_SECS * 1000);
hardStop.unref();

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 100) / 100;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const svc = await startService({ host: '127.0.0.1', port: 0, dataDir, clock: 'system', rateLimit: { ratePerSec: 1e9, burst: 1e9 } });
const accountId = svc.bootstrap.accountId;
// An event is emitted inside a write, as a domain function would (the unit of work); the
// promise settles once it has committed.
const emitOne = (i) => svc.deps.uow.write((tx) => tx.events.emit(accountId, 'message.status', { messageId: `msg_bench_${i}`, status: 'delivered', reason: null }));

// The follower: a real process, the built-in `local` profile (so it long-polls), pointed at this service.
child = spawn(process.execPath, [join(root, 'bin', 'svc.js'), 'events', 'follow', '-o', 'ndjson', '--since', 'now'], {
  cwd: root,
  env: { PATH: process.env.PATH, HOME: dataDir, SVC_CONFIG_DIR: join(dataDir, 'config'), SVC_DATA_DIR: dataDir, SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.bootstrap.liveKey, NO_COLOR: '1' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let stderr = '';
child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
const waiting = new Map(); // eventId → resolve(receivedAt)
const early = new Map(); // eventId → receivedAt, for a line that arrives before its emit has settled
let buffered = '';
child.stdout.setEncoding('utf8').on('data', (chunk) => {
  const at = performance.now();
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, nl);
    buffered = buffered.slice(nl + 1);
    if (!line) continue;
    const id = JSON.parse(line).id;
    const resolve = waiting.get(id);
    if (resolve) resolve(at);
    else early.set(id, at);
    waiting.delete(id);
  }
});
const exited = new Promise((r) => child.on('close', (code, signal) => r({ code, signal })));

/** Emits one event and resolves with ms until its line arrived (undefined on timeout). */
async function timeOne(i) {
  const started = performance.now();
  const e = await emitOne(i);
  return new Promise((resolve) => {
    const done = (at) => {
      clearTimeout(timer);
      resolve(at - started);
    };
    const timer = setTimeout(() => {
      waiting.delete(e.id);
      resolve(undefined);
    }, PER_EVENT_TIMEOUT_MS);
    if (early.has(e.id)) {
      const at = early.get(e.id);
      early.delete(e.id);
      done(at);
    } else waiting.set(e.id, done);
  });
}

// Warm-up: the follower has started, resolved `now` and parked its long-poll once a line comes back.
let warm;
for (let i = 0; i < 50 && warm === undefined; i++) {
  warm = await timeOne(-1 - i);
  if (warm === undefined) await sleep(100);
}
if (warm === undefined) {
  console.error(`bench/events-follow: the follower never printed an event\n${stderr}`);
  cleanup();
  process.exit(1);
}
for (let i = 0; i < 5; i++) {
  await timeOne(-100 - i);
  await sleep(GAP_MS);
}

const latencies = [];
let lost = 0;
for (let i = 0; i < EVENTS; i++) {
  const ms = await timeOne(i);
  if (ms === undefined) lost++;
  else latencies.push(ms);
  await sleep(GAP_MS);
}

const stopAt = performance.now();
child.kill('SIGINT');
const { code, signal } = await exited;
const stopMs = Math.round(performance.now() - stopAt);
await svc.close();
rmSync(dataDir, { recursive: true, force: true });

const result = {
  bench: 'events-follow',
  events: EVENTS,
  gapMs: GAP_MS,
  received: latencies.length,
  lost,
  p50ms: pct(latencies, 50),
  p99ms: pct(latencies, 99),
  maxms: pct(latencies, 100),
  follower: { exitCode: code, signal, stopMs },
};
console.log(JSON.stringify(result, null, 2));
process.exitCode = lost === 0 && code === 0 ? 0 : 1;
