#!/usr/bin/env node
// bench/messages (list half): `svc messages list --all -o ndjson` over stored messages, as a real
// child process against the built service: rows per second and peak memory (max RSS, from GNU time)
// at 10k and 100k rows. Memory must stay flat as the table grows (--all streams page by page).
// Rows are stored through the messages repository in one transaction per 10k (setup, not measured).
//
//   node bench/messages-list.mjs        BENCH_SIZES=10000,100000
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { startService } from '../dist/server/main.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sizes = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const TIME = '/usr/bin/time';
if (!existsSync(TIME)) throw new Error('bench/messages-list needs GNU time (/usr/bin/time, Debian package "time") for max RSS');

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-list-'));
const svc = await startService({ host: '127.0.0.1', port: 0, dataDir, clock: 'system', rateLimit: { ratePerSec: 1e6, burst: 1e6 } });
const accountId = svc.bootstrap.accountId;
const { messages } = svc.deps;

let stored = 0;
function storeUpTo(n) {
  const start = Date.now() - n; // distinct, increasing createdAt
  while (stored < n) {
    const batch = Math.min(10_000, n - stored);
    svc.db.transaction(() => {
      for (let i = 0; i < batch; i++, stored++) {
        const at = start + stored;
        messages.insert({
          id: `msg_${randomBytes(10).toString('hex')}`,
          accountId,
          numberId: null,
          direction: stored % 3 ? 'outbound' : 'inbound',
          from: '+14155550100',
          to: `+1415555${String(stored % 10000).padStart(4, '0')}`,
          counterparty: `+1415555${String(stored % 10000).padStart(4, '0')}`,
          body: `bench message ${stored}: the quick brown fox jumps over the lazy dog`,
          status: 'delivered',
          segments: 1,
          channel: 'sms',
          media: null,
          reason: null,
          test: true,
          providerMessageId: null,
          createdAt: at,
          updatedAt: at,
        });
      }
    })();
  }
}

function runList() {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.bootstrap.liveKey, SVC_CONFIG_DIR: join(dataDir, 'cfg'), NO_COLOR: '1' };
    const t0 = process.hrtime.bigint();
    const child = spawn(TIME, ['-f', 'maxrss_kb=%M', process.execPath, join(root, 'bin/svc.js'), 'messages', 'list', '--all', '-o', 'ndjson'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let err = '';
    child.stdout.on('data', (d) => {
      for (let i = 0; i < d.length; i++) if (d[i] === 10) lines++;
    });
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const m = /maxrss_kb=(\d+)/.exec(err);
      if (code !== 0 || !m) return reject(new Error(`svc messages list exited ${code}: ${err}`));
      resolve({ rows: lines, seconds: +seconds.toFixed(2), rowsPerSec: Math.round(lines / seconds), maxRssMiB: +(Number(m[1]) / 1024).toFixed(1) });
    });
  });
}

const results = [];
try {
  for (const n of sizes) {
    storeUpTo(n);
    const r = await runList();
    if (r.rows !== n) throw new Error(`listed ${r.rows} rows, stored ${n}`);
    results.push({ stored: n, ...r });
  }
} finally {
  await svc.close();
  rmSync(dataDir, { recursive: true, force: true });
}
console.table(results);
const growth = results.length > 1 ? +(results[results.length - 1].maxRssMiB / results[0].maxRssMiB).toFixed(2) : null;
console.log(JSON.stringify({ bench: 'messages-list', results, memoryGrowth: growth }));
