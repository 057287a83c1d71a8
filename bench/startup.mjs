#!/usr/bin/env node
// bench/startup: `svc --version`, `svc --help` and `svc keys list` (against a running local service)
// against bare `node -e 0`, as ratios measured in the same run (issue 2). Interleaves the commands
// round by round so machine noise hits all of them alike; reports medians.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin/svc.js');
const rounds = Number(process.env.ROUNDS ?? 25);
const { startService } = await import('../dist/server/main.js');
const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-startup-'));
const svc = await startService({ host: '127.0.0.1', port: 0, dataDir, clock: 'system' });
const env = { ...process.env, SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.bootstrap.liveKey, SVC_CONFIG_DIR: join(dataDir, 'cfg'), NO_COLOR: '1' };

const cases = {
  'node -e 0': [process.execPath, ['-e', '0']],
  'svc --version': [process.execPath, [bin, '--version']],
  'svc --help': [process.execPath, [bin, '--help']],
  'svc keys list': [process.execPath, [bin, 'keys', 'list']],
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
const runOnce = (cmd, args) => {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
};
// Child processes are spawned synchronously, so the in-process service cannot answer `keys list`
// while we block; run the service in this process but spawn asynchronously for that case.
const { spawn } = await import('node:child_process');
const runAsync = (cmd, args) =>
  new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - t0) / 1e6) : reject(new Error(`${args.join(' ')} exited ${code}: ${err}`))));
  });

for (const [, [cmd, args]] of Object.entries(cases)) await runAsync(cmd, args); // warm the file cache
for (let i = 0; i < rounds; i++) {
  for (const [name, [cmd, args]] of Object.entries(cases)) times[name].push(await runAsync(cmd, args));
}
void runOnce;
await svc.close();
rmSync(dataDir, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(times['node -e 0']);
const targets = { 'svc --version': 1.3, 'svc --help': 1.3, 'svc keys list': 2.5 };
const report = Object.entries(times).map(([name, xs]) => {
  const m = median(xs);
  const ratio = m / base;
  return { command: name, medianMs: +m.toFixed(1), ratio: +ratio.toFixed(2), target: targets[name] ?? null, ok: targets[name] ? ratio <= targets[name] : null };
});
console.table(report);
console.log(JSON.stringify({ bench: 'startup', rounds, results: report }));
if (process.argv.includes('--enforce') && report.some((r) => r.ok === false)) process.exit(1);
