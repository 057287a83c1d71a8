#!/usr/bin/env node
// bench/replicas (issue 26, Measures): three replicas on one PostgreSQL database deliver every
// webhook event once to each of two receivers, and still lose nothing when one is `kill -9`ed.
// A throwaway PostgreSQL server (bench/lib/postgres-server.mjs, fsync off: it counts deliveries), then two runs, each on an empty
// database: three `svc server start --store …` processes of the BUILT CLI (npm run build first),
// system clock, each its own data directory and port; two loopback receivers, each with an endpoint
// on message.status, answering 204 to everything (so no retry is ever asked for); test sends spread
// over the three replicas by CONNECTIONS (default 8) connections each, until EVENTS (default 20000)
// message.status events are expected (a send makes several as it moves). The second run kills one
// replica with SIGKILL once a third of the sends are in: its claims run out (the lease, 60 s) and the
// others finish its work. Expected is what the events feed holds (every committed event); per
// receiver: received, distinct, doubled (received − distinct), lost (expected − distinct), the
// time from the first send to the last receipt, and the load average. Loopback only; every child is
// killed at the end or on a hard deadline (DEADLINE_S, default 900).
import http from 'node:http';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { startBenchPostgres } from './lib/postgres-server.mjs';

const EVENTS = Number(process.env.EVENTS ?? 20_000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 8);
const DEADLINE_MS = Number(process.env.DEADLINE_S ?? 900) * 1000;
/** After the sends, how long the counts may stand still before the run is called finished (the lease is 60 s). */
const SETTLE_MS = Number(process.env.SETTLE_S ?? 90) * 1000;
const BIN = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const { default: autocannon } = await import('autocannon');

const children = new Set();
let pgServer;
const killAll = () => {
  children.forEach((c) => c.kill('SIGKILL'));
  pgServer?.kill();
};
const deadline = setTimeout(() => {
  console.error('bench/replicas: hard deadline reached');
  killAll();
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    killAll();
    process.exit(1);
  });
}

/** `svc server start ARGS` in the foreground; `ready` resolves with its address (the first stdout line). */
function startReplica(args, env) {
  const child = spawn(process.execPath, [BIN, 'server', 'start', ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (c) => (stderr = (stderr + c.toString()).slice(-4000)));
  const exited = new Promise((r) => child.once('exit', r));
  const ready = new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`svc server start exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve(line.trim()));
  });
  return {
    ready,
    kill9() {
      child.kill('SIGKILL');
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      children.delete(child);
    },
  };
}

function receiver() {
  const seen = new Map();
  let received = 0;
  let last = 0;
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received++;
      last = Date.now();
      seen.set(body.id, (seen.get(body.id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  return {
    server,
    listen: () => new Promise((r) => server.listen(0, '127.0.0.1', r)),
    url: () => `http://127.0.0.1:${server.address().port}/hook`,
    counts: () => ({ received, distinct: seen.size, last }),
    seen,
    close: () => server.close(),
  };
}

async function run(label, { killOne }) {
  const store = await pgServer.createDatabase('replicas');
  const db = new URL(store).pathname.slice(1);
  const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'svc-bench-replica-')));
  const rxs = [receiver(), receiver()];
  for (const rx of rxs) await rx.listen();
  const replicas = [];
  try {
    // The first migrates and bootstraps; the others join the bootstrapped database.
    for (const dir of dirs) {
      const r = startReplica(['--port', '0', '--rate-limit', '1000000', '--store', store], { HOME: dir, SVC_DATA_DIR: dir });
      replicas.push(r);
      r.baseUrl = await r.ready;
    }
    const { liveKey, testKey } = JSON.parse(readFileSync(join(dirs[0], 'bootstrap.json'), 'utf8'));
    const headersFor = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
    const base = replicas[0].baseUrl;
    const post = async (key, path, body) => {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers: headersFor(key), body: JSON.stringify(body) });
      const json = await res.json();
      if (res.status >= 300) throw new Error(`${path} → ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    for (const rx of rxs) await post(liveKey, '/v1/webhooks', { url: rx.url(), events: ['message.status'] });
    const found = await post(testKey, '/v1/numbers/search', { areaCode: '415', capabilities: ['sms'], limit: 1 });
    const from = (await post(testKey, '/v1/numbers/buy', { phoneNumber: found.data[0].phoneNumber })).phoneNumber;

    // The events feed is the truth of what was committed: every message.status event, read forward.
    let cursor;
    let expected = 0;
    const readFeed = async () => {
      for (;;) {
        const q = cursor ? `after=${cursor}&` : '';
        const res = await fetch(`${base}/v1/events?${q}types=message.status&limit=100`, { headers: headersFor(testKey) });
        const page = await res.json();
        expected += page.data.length;
        cursor = page.cursor;
        if (page.data.length < 100) return;
      }
    };

    // How many message.status events a send makes: measured on a first one.
    await post(testKey, '/v1/messages', { from, to: '+14155550100', body: 'probe' });
    await new Promise((r) => setTimeout(r, 3000));
    await readFeed();
    const perSend = Math.max(1, expected);
    const sends = Math.ceil((EVENTS - expected) / perSend);
    const loadBefore = loadavg()[0];
    const started = Date.now();
    let n = 0;
    const cannon = (r, amount) =>
      autocannon({
        url: r.baseUrl,
        connections: CONNECTIONS,
        amount,
        timeout: 20,
        requests: [
          {
            method: 'POST',
            path: '/v1/messages',
            headers: headersFor(testKey),
            setupRequest: (req) => {
              const i = n++;
              return { ...req, headers: { ...req.headers, 'idempotency-key': `bench-replicas-${db}-${i}` }, body: JSON.stringify({ from, to: `+1415${String(2_000_000 + (i % 7_000_000)).padStart(7, '0')}`, body: `Bench ${i}` }) };
            },
          },
        ],
      });
    let killedAt;
    if (killOne) {
      const victim = replicas[2];
      const watch = setInterval(() => {
        if (n >= sends / 3) {
          clearInterval(watch);
          killedAt = Date.now() - started;
          victim.kill9();
        }
      }, 20);
    }
    const loads = await Promise.all(replicas.map((r) => cannon(r, Math.ceil(sends / 3))));
    const sendsDone = Date.now() - started;
    const accepted = loads.reduce((a, l) => a + l['2xx'], 0);
    const refused = loads.reduce((a, l) => a + l.non2xx, 0);
    const failed = loads.reduce((a, l) => a + l.errors + l.timeouts, 0);
    // Wait until both receivers hold every event of the feed and nothing moves for a while.
    const survivor = replicas[0];
    let stillSince = Date.now();
    let lastKey = '';
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      await readFeed().catch(() => undefined);
      const key = `${expected} ${rxs.map((rx) => rx.counts().received).join(' ')}`;
      if (key !== lastKey) {
        lastKey = key;
        stillSince = Date.now();
      }
      const complete = rxs.every((rx) => rx.counts().distinct >= expected);
      if ((complete && Date.now() - stillSince > 3000) || Date.now() - stillSince > SETTLE_MS) break;
    }
    void survivor;
    const loadAfter = loadavg()[0];
    const per = rxs.map((rx, i) => {
      const { received, distinct, last } = rx.counts();
      return { receiver: i + 1, expected, received, distinct, doubled: received - distinct, lost: expected - distinct, timeS: Number(((last - started) / 1000).toFixed(1)) };
    });
    const result = { label, sends: accepted, refused, failed, sendsOffered: sends, sendsS: Number((sendsDone / 1000).toFixed(1)), eventsPerSec: Math.round(expected / (sendsDone / 1000)), killedAtS: killedAt === undefined ? null : Number((killedAt / 1000).toFixed(1)), receivers: per, loadavg: { before: loadBefore, after: loadAfter } };
    console.log(`  ${label}: ${accepted} sends accepted (${refused} refused, ${failed} failed or timed out) in ${result.sendsS} s (${result.eventsPerSec} events/s)${killedAt === undefined ? '' : `; replica 3 killed (SIGKILL) at ${result.killedAtS} s`}; load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`);
    for (const p of per) console.log(`    receiver ${p.receiver}: expected ${p.expected}, received ${p.received}, distinct ${p.distinct}, doubled ${p.doubled}, lost ${p.lost}, time ${p.timeS} s`);
    return result;
  } finally {
    for (const r of replicas.reverse()) await r.stop().catch(() => undefined);
    for (const rx of rxs) rx.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

console.log(`bench/replicas: three replicas on one PostgreSQL database, two receivers on message.status, ${EVENTS} events, ${CONNECTIONS} connections per replica; ${loadavg()[0].toFixed(2)} load average at the start`);
const results = [];
try {
  pgServer = await startBenchPostgres({ durable: false });
  results.push(await run('three replicas', { killOne: false }));
  results.push(await run('one replica killed mid-run', { killOne: true }));
} finally {
  for (const c of children) c.kill('SIGKILL');
  await pgServer?.stop().catch(() => undefined);
}
console.log(JSON.stringify({ bench: 'replicas', node: process.version, events: EVENTS, connections: CONNECTIONS, results }));
process.exit(results.every((r) => r.sends > 0 && r.receivers.every((p) => p.lost === 0 && p.doubled === 0)) ? 0 : 1);
