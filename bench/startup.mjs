#!/usr/bin/env node
// bench/startup: how long the CLI takes to start and finish, as a ratio to bare `node -e 0` measured
// in the same run (the machine is shared and noisy, so only the ratio means something).
// Cases: `svc --version` and `svc --help` (budget 1.3x), `svc keys list` and `svc messages send` with
// a test key and a test number bought over HTTP first (budget 2.5x each), both against the BUILT
// service (`npm run build` first) running in a child process (bench/lib/service-child.mjs), so it
// does not share this process's event loop. The commands run interleaved round by round, in a
// shuffled order, so noise hits them alike; each figure is a median. Bounded: ROUNDS rounds (default 25) and a hard deadline;
// the child and the temp dirs are removed at the end. Prints one line per case with its budget and
// PASS or MISS, then one JSON line; `--enforce` exits 1 on a MISS.
//
//   node bench/startup.mjs            ROUNDS=25 BENCH_DEADLINE_S=300 BENCH_SVC_BEFORE=…/bin/svc.js
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hardDeadline, isServeChild, serveChild, spawnServiceChild } from './lib/service-child.mjs';

if (isServeChild()) {
  await serveChild(() => ({}));
} else {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const bin = join(root, 'bin/svc.js');
  // BENCH_SVC_BEFORE: another checkout's bin/svc.js (built), measured in the same rounds as this one,
  // so a change is quoted before → after against the same floor.
  const before = process.env.BENCH_SVC_BEFORE;
  const rounds = Number(process.env.ROUNDS ?? 25);
  const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 300) * 1000;
  const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-startup-cfg-'));
  const child = spawnServiceChild(fileURLToPath(import.meta.url), 'svc-bench-startup-');
  const cleanup = () => {
    child.kill();
    rmSync(configDir, { recursive: true, force: true });
  };
  const disarm = hardDeadline('bench/startup', DEADLINE_MS, cleanup);

  try {
    const { baseUrl, liveKey, testKey } = await child.ready;
    /** One JSON POST to the service (loopback), the way a script would set up the send case. */
    const post = (key, path, body) =>
      new Promise((resolve, reject) => {
        const payload = JSON.stringify(body);
        const req = request(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => (res.statusCode >= 300 ? reject(new Error(`${path} → ${res.statusCode} ${text}`)) : resolve(JSON.parse(text))));
        });
        req.on('error', reject);
        req.end(payload);
      });
    // The send case sends from a number of the account's own, bought with the test key (no money, no campaign).
    const found = await post(testKey, '/v1/numbers/search', { areaCode: '415', capabilities: ['sms'], limit: 1 });
    const number = await post(testKey, '/v1/numbers/buy', { phoneNumber: found.data[0].phoneNumber });

    const env = { ...process.env, SVC_BASE_URL: baseUrl, SVC_CONFIG_DIR: configDir, NO_COLOR: '1' };
    delete env.SVC_PROFILE;
    const live = { ...env, SVC_API_KEY: liveKey };
    const test = { ...env, SVC_API_KEY: testKey };
    let sent = 0;
    const svcCases = (svcBin, suffix) => [
      { name: `svc --version${suffix}`, args: () => [svcBin, '--version'], env, budget: 1.3 },
      { name: `svc --help${suffix}`, args: () => [svcBin, '--help'], env, budget: 1.3 },
      { name: `svc keys list${suffix}`, args: () => [svcBin, 'keys', 'list'], env: live, budget: 2.5 },
      {
        name: `svc messages send${suffix}`,
        args: () => [svcBin, 'messages', 'send', '--from', number.phoneNumber, '--to', `+1415555${String(1000 + (sent++ % 9000))}`, '--body', 'Your table is ready'],
        env: test,
        budget: 2.5,
      },
    ];
    const cases = [{ name: 'node -e 0', args: () => ['-e', '0'], env }, ...svcCases(bin, ''), ...(before ? svcCases(before, ' (before)') : [])];
    const run = ({ name, args, env: caseEnv }) =>
      new Promise((resolve, reject) => {
        const t0 = process.hrtime.bigint();
        const proc = spawn(process.execPath, args(), { env: caseEnv, stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        proc.stderr.on('data', (d) => (err += d));
        proc.on('exit', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - t0) / 1e6) : reject(new Error(`${name} exited ${code}: ${err}`))));
      });

    for (const c of cases) await run(c); // warm the file cache
    const times = Object.fromEntries(cases.map((c) => [c.name, []]));
    // Each round runs every case once, in a fresh order (a fixed order lets the load of one slot bias a case).
    let seed = 13;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < rounds; i++) {
      const order = cases.map((c) => [random(), c]).sort((x, y) => x[0] - y[0]).map(([, c]) => c);
      for (const c of order) times[c.name].push(await run(c));
    }

    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const floor = median(times['node -e 0']);
    const results = cases.map(({ name, budget }) => {
      const ms = median(times[name]);
      const ratio = ms / floor;
      return { command: name, medianMs: +ms.toFixed(1), ratio: +ratio.toFixed(2), budget: budget ?? null, pass: budget === undefined ? null : ratio <= budget };
    });
    console.log(`bench/startup: ${rounds} rounds, medians; floor \`node -e 0\` ${floor.toFixed(1)} ms`);
    for (const r of results) {
      const verdict = r.budget === null ? 'floor' : `budget ${r.budget}x  ${r.pass ? 'PASS' : 'MISS'}`;
      console.log(`  ${r.command.padEnd(27)} ${String(r.medianMs).padStart(7)} ms  ${r.ratio.toFixed(2)}x  ${verdict}`);
    }
    console.log(JSON.stringify({ bench: 'startup', rounds, floorMs: +floor.toFixed(1), ...(before ? { before } : {}), results }));
    disarm();
    await child.stop();
    rmSync(configDir, { recursive: true, force: true });
    if (process.argv.includes('--enforce') && results.some((r) => r.pass === false)) process.exit(1);
  } catch (err) {
    console.error(err);
    cleanup();
    process.exit(1);
  }
}
