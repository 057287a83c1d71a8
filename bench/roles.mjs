#!/usr/bin/env node
// bench/roles: webhook deliveries while the API is under load, with the worker in a
// process of its own (`svc server start --role worker`) against today's single process (`--role all`).
// Each configuration is started by the BUILT CLI (npm run build first) on a fresh data directory,
// system clock: one endpoint on message.status (a loopback receiver here), then CONNECTIONS (default
// 50) autocannon connections of test sends for DURATION s (default 20). Reported per configuration:
// the message.status events accepted during the load, the share delivered during the load, the
// event createdAt → receipt lag p50/p99 during the load, and the load average before and after (the
// machine may be shared: the figures are only comparable within one run).
//   all (SQLite)             one process, as today
//   api + worker (SQLite)    two processes on one data directory and one file
//   api + worker (PostgreSQL) when BENCH_PG_URL names an empty database per run (…/db1,…/db2 are
//                            not made here): BENCH_PG_URL=postgres://user@127.0.0.1:5432/bench
//   all (PostgreSQL)         when BENCH_PG_URL_ALL names another empty database
// Also reported: events received twice (none here asks for a retry, so any is a double delivery).
// BENCH_SPLIT_ONLY=1 runs the split configurations only; BENCH_SVC_BIN=<dir>/bin/svc.js runs another
// build (a checkout of an earlier commit, built), so two versions compare in one sitting.
// BENCH_PG=1 starts a throwaway PostgreSQL server itself (bench/lib/postgres-server.mjs, durable: the
// test helper's way, fsync on) and runs both PostgreSQL configurations on databases of their own, no
// URL needed; BENCH_PG_ONLY=1 runs the PostgreSQL configurations only. BENCH_RATE=<n> sends n per second
// across the connections (autocannon's overallRate) instead of flat out, so two builds that send at
// different rates are compared on equal API load; BENCH_WORKER_FLAGS="--flag value" is passed to the
// worker process (`svc server start --role worker …`); BENCH_WORKER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=<dir>" is
// passed to the worker's node (a profile of the worker under the load). With a worker process (Linux), also
// reported: its CPU time during the load (/proc/<pid>/stat) per event delivered during it, and as a
// share of one core: what the worker costs per event, steadier than the lag on a shared machine.
// Bounded: every child is killed at the end or on a hard deadline (DEADLINE_S, default 300).
import http from 'node:http';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { startBenchPostgres } from './lib/postgres-server.mjs';

const DURATION = Number(process.env.DURATION ?? 20);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DEADLINE_MS = Number(process.env.DEADLINE_S ?? 300) * 1000;
const BIN = process.env.BENCH_SVC_BIN ?? fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const RATE = process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : undefined;
const WORKER_FLAGS = (process.env.BENCH_WORKER_FLAGS ?? '').split(/\s+/).filter(Boolean);
const WORKER_NODE_FLAGS = (process.env.BENCH_WORKER_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
const PG_ONLY = Boolean(process.env.BENCH_PG_ONLY);
const { default: autocannon } = await import('autocannon');

const children = new Set();
const killAll = () => children.forEach((c) => c.kill('SIGKILL'));
const deadline = setTimeout(() => {
  console.error('bench/roles: hard deadline reached');
  killAll();
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();

/** `svc server start ARGS` in the foreground; resolves with the child and the first stdout line (the address with --port 0). */
function startProcess(args, env, { waitLine, nodeFlags = [] }) {
  const child = spawn(process.execPath, [...nodeFlags, BIN, 'server', 'start', ...args], { env: { PATH: process.env.PATH, HOME: env.HOME, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  const ready = new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`svc server start ${args.join(' ')} exited (${code}): ${stderr}`)));
    if (waitLine) createInterface({ input: child.stdout }).once('line', (line) => resolve(line.trim()));
    else {
      const look = setInterval(() => {
        if (stderr.includes('worker running')) {
          clearInterval(look);
          resolve('');
        }
      }, 50);
    }
  });
  return {
    ready,
    pid: child.pid,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      children.delete(child);
    },
  };
}

/** A process's user + system CPU time in ms so far (Linux /proc; null elsewhere). */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat (11 and 12 after the name), in clock ticks (100 Hz on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

const pct = (values, p) => {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
};

async function run(label, { split, store }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-roles-'));
  const env = { HOME: dataDir, SVC_DATA_DIR: dataDir, ...(store ? { SVC_STORE: store } : {}) };
  const receipts = [];
  const rx = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      receipts.push({ at, lag: at - Date.parse(body.createdAt), id: body.id });
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => rx.listen(0, '127.0.0.1', r));
  const started = [];
  let worker;
  try {
    const api = startProcess(['--port', '0', '--rate-limit', '1000000', ...(split ? ['--role', 'api'] : [])], env, { waitLine: true });
    started.push(api);
    const baseUrl = await api.ready;
    if (split) {
      worker = startProcess(['--role', 'worker', ...WORKER_FLAGS], env, { waitLine: false, nodeFlags: WORKER_NODE_FLAGS });
      started.push(worker);
      await worker.ready;
    }
    const { liveKey, testKey } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8'));
    const headersFor = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
    const post = async (key, path, body) => {
      const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: headersFor(key), body: JSON.stringify(body) });
      const json = await res.json();
      if (res.status >= 300) throw new Error(`${path} → ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const events = async () => {
      const page = await (await fetch(`${baseUrl}/v1/events?after=now`, { headers: headersFor(testKey) })).json();
      return page.cursor;
    };
    await post(liveKey, '/v1/webhooks', { url: `http://127.0.0.1:${rx.address().port}/hook`, events: ['message.status'] });
    const found = await post(testKey, '/v1/numbers/search', { areaCode: '415', capabilities: ['sms'], limit: 1 });
    const from = (await post(testKey, '/v1/numbers/buy', { phoneNumber: found.data[0].phoneNumber })).phoneNumber;
    const cursorAtStart = await events();
    const loadBefore = loadavg()[0];
    let i = 0;
    const loadStart = Date.now();
    const workerCpuStart = worker ? cpuMsOf(worker.pid) : null;
    const load = await autocannon({
      url: baseUrl,
      connections: CONNECTIONS,
      duration: DURATION,
      timeout: 10,
      ...(RATE ? { overallRate: RATE } : {}),
      requests: [
        {
          method: 'POST',
          path: '/v1/messages',
          headers: headersFor(testKey),
          setupRequest: (req) => {
            const n = i++;
            return { ...req, headers: { ...req.headers, 'idempotency-key': `bench-roles-${n}` }, body: JSON.stringify({ from, to: `+1415${String(2_000_000 + (n % 7_000_000)).padStart(7, '0')}`, body: `Bench message ${n}` }) };
          },
        },
      ],
    });
    const loadEnd = Date.now();
    const workerCpuEnd = worker ? cpuMsOf(worker.pid) : null;
    const loadAfter = loadavg()[0];
    const duringLoad = receipts.filter((r) => r.at <= loadEnd);
    // An event received twice (no receiver here asks for a retry: every answer is 204).
    const doubled = receipts.length - new Set(receipts.map((r) => r.id)).size;
    // Accepted during the load: the message.status events the feed holds after the start's cursor,
    // created up to the load's end (read once the load is over: the API answers reads again).
    let accepted = 0;
    let cursor = cursorAtStart;
    for (;;) {
      const page = await (await fetch(`${baseUrl}/v1/events?after=${cursor}&types=message.status&limit=100`, { headers: headersFor(testKey) })).json();
      accepted += page.data.filter((e) => Date.parse(e.createdAt) <= loadEnd).length;
      if (page.data.length < 100) break;
      cursor = page.cursor;
    }
    const result = {
      label,
      sendsPerSec: Math.round(load['2xx'] / ((loadEnd - loadStart) / 1000)),
      accepted,
      deliveredDuringLoad: duringLoad.length,
      share: accepted ? Number((duringLoad.length / accepted).toFixed(2)) : null,
      lagP50ms: pct(duringLoad.map((r) => r.lag), 50),
      lagP99ms: pct(duringLoad.map((r) => r.lag), 99),
      doubled,
      workerCpuMsPerDelivered: workerCpuStart !== null && workerCpuEnd !== null && duringLoad.length ? Number(((workerCpuEnd - workerCpuStart) / duringLoad.length).toFixed(3)) : null,
      workerCpuShare: workerCpuStart !== null && workerCpuEnd !== null ? Number(((workerCpuEnd - workerCpuStart) / (loadEnd - loadStart)).toFixed(2)) : null,
      loadavg: { before: loadBefore, after: loadAfter },
    };
    console.log(
      `  ${label.padEnd(28)} ${result.sendsPerSec} sends/s; ${accepted} message.status accepted during the load, ${duringLoad.length} delivered during it (${result.share}); ` +
        `lag p50 ${result.lagP50ms} ms, p99 ${result.lagP99ms} ms; ${doubled} doubled; ` +
        `${result.workerCpuMsPerDelivered === null ? '' : `worker CPU ${result.workerCpuMsPerDelivered} ms per delivered (${result.workerCpuShare} of a core); `}load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`,
    );
    return result;
  } finally {
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
    rx.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `bench/roles: ${CONNECTIONS} connections × ${DURATION} s of test sends${RATE ? ` at ${RATE}/s` : ' flat out'}, one endpoint on message.status, system clock; ` +
    `${WORKER_FLAGS.length ? `worker flags ${WORKER_FLAGS.join(' ')}; ` : ''}${loadavg()[0].toFixed(2)} load average at the start`,
);
const results = [];
let pgServer;
try {
  if (process.env.BENCH_PG) {
    pgServer = await startBenchPostgres();
    console.log(`  a throwaway PostgreSQL server on 127.0.0.1:${pgServer.port} (${pgServer.settings})`);
  }
  const pgUrl = pgServer ? await pgServer.createDatabase('roles_split') : process.env.BENCH_PG_URL;
  const pgUrlAll = pgServer ? await pgServer.createDatabase('roles_all') : process.env.BENCH_PG_URL_ALL;
  if (!PG_ONLY) {
    if (!process.env.BENCH_SPLIT_ONLY) results.push(await run('all (SQLite)', { split: false }));
    results.push(await run('api + worker (SQLite)', { split: true }));
  }
  // One process on PostgreSQL too, on another empty database: what the split changes there.
  if (pgUrlAll && !process.env.BENCH_SPLIT_ONLY) results.push(await run('all (PostgreSQL)', { split: false, store: pgUrlAll }));
  if (pgUrl) results.push(await run('api + worker (PostgreSQL)', { split: true, store: pgUrl }));
  else console.log('  api + worker (PostgreSQL)    skipped: set BENCH_PG=1, or BENCH_PG_URL to an empty database');
} finally {
  killAll();
  await pgServer?.stop?.();
}
console.log(JSON.stringify({ bench: 'roles', node: process.version, connections: CONNECTIONS, durationS: DURATION, rate: RATE ?? null, workerFlags: WORKER_FLAGS, results }));
