#!/usr/bin/env node
// bench/testing (issue 29): svc/testing as a test suite uses it, from the BUILT package. Over
// BENCH_RUNS runs (default 50): `startService()` to ready (its own port, temp data, manual clock),
// `close()`; then, on one service seeded with a small fixture (examples/mock-10dlc.yaml: a brand, a
// campaign, a number), `reset()` after each run's writes (an inbound text, a webhook endpoint, a
// send, a clock move). Goals: ready < 300 ms, reset < 50 ms (p50). Prints the load average: the
// machine may be shared.
//
//   npm run bench:testing      BENCH_RUNS=50
import { loadavg, cpus } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
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
console.log(`load average after            ${load()}`);
