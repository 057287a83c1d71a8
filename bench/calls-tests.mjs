#!/usr/bin/env node
// bench/calls-tests: `svc calls test` on a file of TESTS (default 1,000) tests against an IVR route
// file (12 keys; key 1 rings a staged ring set of 10), run as a user runs it: the built CLI
// (bin/svc.js) in a process of its own against the built local service. Each test is one
// evaluation of the call engine, sent 100 to a request (POST /v1/sandbox/calls/evaluate-batch).
// Two passes:
//   lifted     the service's rate limit out of the way (as every bench here): what the CLI, HTTP
//              and the engine cost. Goal: under 5 s.
//   default    the contract's limit (§2: 100 requests a second per key, burst 200): the CLI paces
//              itself by the RateLimit headers, but 1,000 tests are 10 requests, well within the
//              burst: no longer bounded by the limit (about 8 s when each test was a request), so
//              the same goal as the lifted pass.
// Prints each pass's wall time, the tests per second, the service's CPU time (it runs in this
// process; the CLI in its own) and the load average (os.loadavg) before and after (the machines are
// shared: on a loaded one the wall time grows well past the CPU time). Bounded by TIMEOUT_SECS (default 180).
// BENCH_CLI_FLAGS passes node flags to the CLI's process (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { startService } from '../dist/server/main.js';

const TESTS = Number(process.env.TESTS ?? 1000);
const TIMEOUT_SECS = Number(process.env.TIMEOUT_SECS ?? 180);
const BIN = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const hardStop = setTimeout(() => {
  console.error(`bench/calls-tests: did not finish within ${TIMEOUT_SECS} s; giving up`);
  process.exit(2);
}, TIMEOUT_SECS * 1000);
hardStop.unref();

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

// ---- the route file: 12 keys; 1 rings 10 destinations in 5 staged waves; the rest voicemail -------
const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '*', '#'];
const team = Array.from({ length: 10 }, (_, i) => `    - { destinationType: pstn, destination: "+1415555${1000 + i}", label: agent${i}, stage: ${Math.floor(i / 2)}, ringTimeoutSecs: 5 }`);
const ROUTE = [
  'destinations: []',
  'voicemailEnabled: true',
  'ivr:',
  '  enabled: true',
  '  greeting: { text: "Press 1 for the team" }',
  '  keys:',
  '  - digit: "1"',
  '    label: Team',
  '    action:',
  '     type: ring',
  '     ringMode: staged',
  '     destinations:',
  ...team.map((l) => `  ${l}`),
  ...KEYS.slice(1).map((d) => `  - { digit: "${d}", action: { type: voicemail } }`),
  '',
].join('\n');

// ---- the tests: the agents answering in turn, every other key, silence, hang-ups, a blocked caller --
const BLOCKED = '+14155550177';
function testsYaml(number) {
  const lines = [`number: "${number}"`, 'route: bench.route.yaml', 'tests:'];
  for (let i = 0; i < TESTS; i++) {
    const kind = i % 6;
    const agent = Math.floor(i / 6) % 10;
    lines.push(`  - name: test ${i + 1}`, `    from: "${kind === 5 ? BLOCKED : `+1415556${String(i % 10_000).padStart(4, '0')}`}"`);
    if (kind === 0) lines.push('    press: ["1"]', `    answer: { agent${agent}: 2s }`, `    expect: { status: completed, trace: [ivr.key 1, answered +1415555${1000 + agent}] }`);
    else if (kind === 1) lines.push(`    press: ["${KEYS[1 + (i % 11)]}"]`, '    expect: { outcome: voicemail }');
    else if (kind === 2) lines.push('    press: ["", "1"]', '    expect: { status: missed, outcome: voicemail, trace: [ivr.timeout, ivr.key 1, voicemail] }');
    else if (kind === 3) lines.push('    press: ["1"]', '    hangupAfter: 12s', '    expect: { status: missed, outcome: missed, trace: [hangup] }');
    else if (kind === 4) lines.push('    expect: { outcome: voicemail, trace: [ivr.timeout, ivr.timeout, ivr.fallback] }');
    else lines.push('    expect: { status: blocked }');
  }
  return `${lines.join('\n')}\n`;
}

function runCli(args, env) {
  return new Promise((resolve, reject) => {
    const flags = (process.env.BENCH_CLI_FLAGS ?? '').split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...flags, BIN, ...args], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function pass(name, rateLimit) {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-calls-tests-'));
  const home = mkdtempSync(join(tmpdir(), 'svc-bench-calls-tests-home-'));
  const svc = await startService({ host: '127.0.0.1', port: 0, dataDir, ...(rateLimit ? { rateLimit } : {}) });
  try {
    const auth = { authorization: `Bearer ${svc.bootstrap.testKey}`, 'content-type': 'application/json' };
    const api = async (method, path, body) => {
      const res = await request(`${svc.baseUrl}${path}`, { method, headers: auth, body: JSON.stringify(body) });
      const text = await res.body.text();
      if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
      return JSON.parse(text);
    };
    const found = await api('POST', '/v1/numbers/search', { areaCode: '415', capabilities: ['voice'], limit: 1 });
    const number = (await api('POST', '/v1/numbers/buy', { phoneNumber: found.data[0].phoneNumber })).phoneNumber;
    await api('POST', '/v1/blocked-numbers', { phoneNumber: BLOCKED });
    writeFileSync(join(dataDir, 'bench.route.yaml'), ROUTE);
    const file = join(dataDir, 'bench.test.yaml');
    writeFileSync(file, testsYaml(number));
    const env = { HOME: home, SVC_CONFIG_DIR: join(home, 'config'), SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.bootstrap.testKey };
    const loadBefore = load();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const res = await runCli(['calls', 'test', file, '--min-coverage', '100', '--reporter', 'json'], env);
    const secs = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const serviceCpu = (cpu.user + cpu.system) / 1e6;
    if (res.code !== 0) throw new Error(`${name}: svc calls test exited ${res.code}\n${res.stderr}\n${res.stdout.slice(0, 2000)}`);
    const report = JSON.parse(res.stdout);
    const passed = report.tests.filter((t) => t.passed).length;
    console.log(
      `${name.padEnd(8)} ${TESTS} tests in ${secs.toFixed(2)} s (${Math.round(TESTS / secs)} tests/s, service CPU ${serviceCpu.toFixed(2)} s), ${passed} passed, coverage ${report.coverage.covered} of ${report.coverage.total} (${report.coverage.percent}%, uncovered: ${report.coverage.uncovered.join(", ") || "none"}); load average ${loadBefore} before, ${load()} after`,
    );
    return secs;
  } finally {
    await svc.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

console.log(`bench/calls-tests: svc calls test, ${TESTS} tests against an IVR route file (node ${process.version})`);
const lifted = await pass('lifted', { ratePerSec: 1e9, burst: 1e9 });
const limited = await pass('default', undefined);
console.log(`goal: each pass under 5 s: lifted ${lifted < 5 ? 'met' : 'NOT met'}, default ${limited < 5 ? 'met' : 'NOT met'}`);
