#!/usr/bin/env node
// bench/testing: svc/testing as a test suite uses it, from the BUILT package. Over
// BENCH_RUNS runs (default 50): `startService()` to ready (its own port, temp data, manual clock),
// `close()`; then, on one service seeded with a small fixture (examples/mock-10dlc.yaml: a brand, a
// campaign, a number), `reset()` after each run's writes (an inbound text, a webhook endpoint, a
// send, a clock move). Goals: ready < 300 ms, reset < 50 ms (p50). Then a suite as Vitest runs it
// (each test file in a fresh process): a cold `startService()` in a fresh process, against the
// suite's one service (`svc/testing/vitest-setup`) and each file's `connectService()` in a fresh
// process (import + a new account). Goal: a file's service ready < 150 ms after the first. Prints the
// load average beside each: the machine may be shared.
//
//   npm run bench:testing      BENCH_RUNS=50 BENCH_FILES=20 BENCH_COLD=5
import { loadavg, cpus } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { spawn } from 'node:child_process';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const FILES = Number(process.env.BENCH_FILES ?? 20);
const COLD = Number(process.env.BENCH_COLD ?? 5);
const SEED = join(ROOT, 'examples', 'mock-10dlc.yaml');

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const fmt = (xs) => `p50 ${pct(xs, 50).toFixed(1)} ms  p99 ${pct(xs, 99).toFixed(1)} ms  max ${Math.max(...xs).toFixed(1)} ms`;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

console.log(`bench:testing — ${RUNS} runs, ${cpus().length} cores, load average ${load()}`);
let t0 = performance.now();
const { startService } = await import(join(ROOT, 'dist', 'testing', 'index.js'));
const importMs = performance.now() - t0;

const ready = [];
const closing = [];
let first;
for (let i = 0; i < RUNS; i++) {
  t0 = performance.now();
  const svc = await startService();
  const ms = performance.now() - t0;
  if (i === 0) first = ms;
  else ready.push(ms);
  t0 = performance.now();
  await svc.close();
  closing.push(performance.now() - t0);
}
console.log(`import svc/testing            ${importMs.toFixed(1)} ms`);
console.log(`startService() first (loads the server) ${first.toFixed(1)} ms`);
console.log(`startService() to ready       ${fmt(ready)}   (runs 2..${RUNS})`);
console.log(`close()                       ${fmt(closing)}`);

const svc = await startService();
try {
  t0 = performance.now();
  await svc.seed(SEED);
  console.log(`seed(mock-10dlc.yaml) once    ${(performance.now() - t0).toFixed(1)} ms  (svc fixtures run, a child process)`);
  const number = (await svc.request('GET', '/v1/numbers')).body.data[0].phoneNumber;
  const resets = [];
  for (let i = 0; i < RUNS; i++) {
    await svc.inbound.sms({ to: number, from: '+14155550123', body: `hello ${i}` });
    await svc.request('POST', '/v1/webhooks', { url: `http://127.0.0.1:9/hook${i}`, events: ['message.received'] });
    await svc.request('POST', '/v1/messages', { from: number, to: '+14155550124', body: `reply ${i}` });
    await svc.clock.advance('1h');
    t0 = performance.now();
    await svc.reset();
    resets.push(performance.now() - t0);
  }
  const left = (await svc.request('GET', '/v1/messages')).body.data.length;
  if (left !== 0) throw new Error(`reset() left ${left} messages`);
  console.log(`reset() after writes          ${fmt(resets)}`);
} finally {
  await svc.close();
}

/**
 * A test file's service in a fresh process, as Vitest runs each file: from importing svc/testing to
 * a ready handle. `shared` (read from stdin: it holds the root key) connects to the suite's service.
 */
const TESTING = JSON.stringify(join(ROOT, 'dist', 'testing', 'index.js'));
const FILE_SCRIPT = `
  const { performance } = await import('node:perf_hooks');
  let input = '';
  for await (const c of process.stdin) input += c;
  const shared = input ? JSON.parse(input) : undefined;
  const t0 = performance.now();
  const { startService, connectService } = await import(${TESTING});
  const imported = performance.now() - t0;
  const svc = shared ? await connectService(shared) : await startService();
  const ready = performance.now() - t0;
  const t1 = performance.now();
  if (shared) await svc.reset();
  const reset = performance.now() - t1;
  await svc.close();
  console.log(JSON.stringify({ ready, imported, reset }));`;
function fileRun(shared) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', FILE_SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`a file's run exited ${code}`))));
    child.stdin.end(shared ? JSON.stringify(shared) : '');
  });
}

console.log(`\na suite, each test file in a fresh process (as Vitest runs it)`);
const cold = [];
for (let i = 0; i < COLD; i++) cold.push((await fileRun()).ready);
console.log(`startService() cold, per file ${fmt(cold)}   (${COLD} files)   load ${load()}`);
const { default: globalSetup } = await import(join(ROOT, 'dist', 'testing', 'vitest-setup.js'));
let shared;
t0 = performance.now();
const teardown = await globalSetup({ provide: (key, value) => void (shared = value) });
console.log(`vitest-setup: the suite's one service ${(performance.now() - t0).toFixed(1)} ms (once, in Vitest's main process)   load ${load()}`);
try {
  const runs = [];
  for (let i = 0; i < FILES; i++) runs.push(await fileRun(shared));
  const ready = runs.map((r) => r.ready);
  console.log(`connectService() per file     ${fmt(ready)}   (${FILES} files; import + a new account)   load ${load()}`);
  console.log(`  of which importing the kit  ${fmt(runs.map((r) => r.imported))}`);
  console.log(`  against a cold start        ${(pct(cold, 50) / pct(ready, 50)).toFixed(1)}x faster (p50)`);
  console.log(`its reset() (a new account)   ${fmt(runs.map((r) => r.reset))}`);
} finally {
  await teardown();
}
console.log(`load average after            ${load()}`);
