#!/usr/bin/env node
// bench/fuzz: the fuzz proof (test/fuzz-openapi.test.ts: requests generated with fast-check
// from /openapi.json for every operation, against the real service on 127.0.0.1) run much longer
// than in CI and with a fresh seed each time. The test itself sends and checks; this script picks
// the seed and the number of runs, bounds the whole run, and prints requests per second, the
// failures (each with the seed that reproduces it) and the seed. Exits 1 on a failure.
//
//   npm run bench:fuzz                 FUZZ_RUNS=150 (per operation) FUZZ_SEED=<random> BENCH_DEADLINE_S=900
//   FUZZ_SEED=123 FUZZ_RUNS=12 npm run bench:fuzz     replays a CI-sized run of one seed
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const runs = Number(process.env.FUZZ_RUNS ?? 150);
const deadlineMs = Number(process.env.BENCH_DEADLINE_S ?? 900) * 1000;
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-fuzz-'));
const report = join(dir, 'report.json');

console.log(`fuzz: seed ${seed}, ${runs} runs per operation (replay: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npm run bench:fuzz)`);
const child = spawn(join(root, 'node_modules/.bin/vitest'), ['run', 'test/fuzz-openapi.test.ts'], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, FUZZ_SEED: String(seed), FUZZ_RUNS: String(runs), FUZZ_REPORT: report, FUZZ_TIMEOUT_MS: String(deadlineMs) },
});
// Bounded: the whole run stops at the deadline, whatever it is doing.
const timer = setTimeout(() => child.kill('SIGTERM'), deadlineMs + 60_000);
const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
clearTimeout(timer);

if (!existsSync(report)) {
  console.error('fuzz: no report (the run ended before the fuzz finished; see the output above)');
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}
const r = JSON.parse(readFileSync(report, 'utf8'));
rmSync(dir, { recursive: true, force: true });
console.log(`fuzz: ${r.operations} operations, ${r.requests} requests in ${r.seconds.toFixed(1)} s = ${Math.round(r.requests / r.seconds)} requests/s`);
console.log(`fuzz: statuses ${JSON.stringify(r.statuses)}`);
console.log(`fuzz: ${r.failures.length} failures${r.failures.length ? ':' : ''}`);
for (const f of r.failures) console.log(`  ${f.slice(0, 1000)}`);
console.log(JSON.stringify({ seed: r.seed, runsPerOperation: r.runsPerOperation, operations: r.operations, requests: r.requests, seconds: r.seconds, requestsPerSec: Math.round(r.requests / r.seconds), failures: r.failures.length }));
process.exit(r.failures.length ? 1 : code);
