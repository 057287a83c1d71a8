#!/usr/bin/env node
// bench/replicas (Measures): three replicas on one PostgreSQL database deliver every
// webhook event once to each of two receivers, and still lose nothing when one is `kill -9`ed.
// A throwaway PostgreSQL server (bench/lib/postgres-server.mjs, fsync off: it counts deliveries), then
// two runs (RUNS: both, plain or kill), each on an empty database: three `svc server start --store …`
// processes of the BUILT CLI (npm run build first), system clock, each its own data directory and
// port; two loopback receivers answering 204 to everything (so no retry is ever asked for); ACCOUNTS
// (default 8) sub-accounts, each with a number and an endpoint per receiver on message.status (one
// account's event commits are serialized by its feed lock: with one account, 14 of the run's
// backends were found waiting on it); test sends spread over the accounts and over the three
// replicas by CONNECTIONS (default 8) connections each, until EVENTS (default 20000) message.status
// events are expected (a send makes two as it moves). The kill run kills one replica with SIGKILL
// once a third of the sends are offered: its claims run out (the lease, 60 s) and the others finish
// its work, the deliveries it wrote and never claimed included; its share of the sends not taken is
// then sent to the two left.
//
// Expected is what the events feeds hold (every committed event: a send the killed replica took and
// never answered counts if it committed). A run ends when the database says every delivery is final
// and no message has a step to come (bounded by SETTLE_S after the sends). Per receiver: received
// (every request), distinct (event ids: the id a receiver dedupes on), redelivered (received twice
// across the kill: at-least-once, see diagnose), doubled (any other repeat: beyond the spec), lost
// (expected − distinct), each lost or doubled one described from its database row; the time from
// the first send to the last receipt, the CPU seconds of the replicas and PostgreSQL, the errors the
// replicas logged, and the load average. Loopback only; every child is killed at the end or on a
// hard deadline (DEADLINE_S, default 900).
import http from 'node:http';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { startBenchPostgres } from './lib/postgres-server.mjs';
const { default: pg } = await import('pg');

const EVENTS = Number(process.env.EVENTS ?? 20_000);
/** Sub-accounts the sends are spread over (each account's event commits are serialized by its feed lock). */
const ACCOUNTS = Number(process.env.ACCOUNTS ?? 8);
/** Which runs: `both` (default), `plain` (no kill) or `kill`. */
const RUNS = process.env.RUNS ?? 'both';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 8);
const DEADLINE_MS = Number(process.env.DEADLINE_S ?? 900) * 1000;
/** After the sends, how long the counts may stand still before the run is called finished (the lease is 60 s). */
/** After the sends, how long the database may take to say every delivery is final (a bound: leases run out in 60 s, retries wait for a 5-minute tick). */
const SETTLE_MS = Number(process.env.SETTLE_S ?? 420) * 1000;
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
  // The errors the service logged (one JSON line each), counted by message: what went wrong in the background.
  const errors = {};
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderr = (stderr + line + '\n').slice(-4000);
    try {
      const { msg, err } = JSON.parse(line);
      const key = `${msg}${err?.message ? `: ${err.message}` : ''}`;
      errors[key] = (errors[key] ?? 0) + 1;
    } catch {
      // not a log line
    }
  });
  const exited = new Promise((r) => child.once('exit', r));
  const ready = new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`svc server start exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout }).once('line', (line) => resolve(line.trim()));
  });
  return {
    ready,
    errors,
    /** CPU seconds this replica has used (0 once it is gone). */
    cpu: () => cpuOf(child.pid)[0],
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

/**
 * A loopback receiver answering 204 to everything. Per event id (spec: Events — the `id` a receiver
 * dedupes on; one endpoint per receiver, so one delivery per id) it keeps the attempt numbers it
 * was sent (`Service-Delivery-Attempt`) and when each arrived.
 */
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
      const got = seen.get(body.id) ?? [];
      got.push({ attempt: Number(req.headers['service-delivery-attempt']), at: last });
      seen.set(body.id, got);
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

/** /proc/PID/stat's CPU fields, in seconds: [own user + system, reaped children's user + system]. */
function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const tick = (i) => Number(fields[i - 3]) / 100; // fields are numbered from 1, the first two are before ') '
    return [tick(14) + tick(15), tick(16) + tick(17)];
  } catch {
    return [0, 0];
  }
}

/** The PostgreSQL server's CPU seconds so far: the postmaster, its reaped backends and its live ones. */
function postgresCpu(pid) {
  const [own, reaped] = cpuOf(pid);
  let live = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ');
      if (Number(fields[1]) === pid) live += cpuOf(Number(entry))[0];
    } catch {
      // gone meanwhile
    }
  }
  return own + reaped + live;
}

/** A request the killed replica had written before it died may be read by the receiver a moment later. */
const KILL_SLACK_MS = 1000;

/** Counts `key(x)` over `xs`: {key: count}. */
const tally = (xs, key) => xs.reduce((acc, x) => ((acc[key(x)] = (acc[key(x)] ?? 0) + 1), acc), {});

/**
 * Per receiver, what the database says of each event it did not get, or got more than once: the
 * delivery's status, its recorded attempts, its claim (by the killed replica: the one whose
 * heartbeat stopped; its lease run out or not) and whether an attempt is still to come.
 *
 * A delivery received twice is `redelivered` (at-least-once, spec: Events, Delivery: "the same event
 * can arrive more than once") when the database records ONE attempt, the first copy arrived by the
 * kill (KILL_SLACK_MS for a request already written) and the second after it: the killed replica
 * sent it and died before recording it, and another took its claim over. Anything else received
 * more than once is `doubled`: beyond what the spec allows (no receiver here asks for a retry).
 */
async function diagnose(q, { endpoints, rxs, expectedIds, killedAt }) {
  const dead = new Set((await q(`SELECT id FROM replicas WHERE seen_at < (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint - 10000`)).map((r) => r.id));
  return await Promise.all(
    rxs.map(async (rx, i) => {
      const rows = await q(`SELECT event_id, status, attempt, claimed_by, lease_until, next_attempt_at, attempts, (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::bigint AS db_now FROM webhook_deliveries WHERE endpoint_id = ANY($1)`, [endpoints[i]]);
      const byEvent = new Map(rows.map((r) => [r.event_id, r]));
      const describe = (r) => {
        if (!r) return 'no delivery row';
        const claim = r.claimed_by === null ? 'unclaimed' : `claimed by ${dead.has(r.claimed_by) ? 'the killed replica' : 'a live replica'}, lease ${Number(r.lease_until) <= Number(r.db_now) ? 'run out' : 'live'}`;
        const recorded = JSON.parse(r.attempts).map((a) => a.attempt);
        return `${r.status}, attempts recorded [${recorded.join(',')}], ${claim}, ${r.next_attempt_at === null ? 'nothing to come' : 'an attempt to come'}`;
      };
      const lost = [...expectedIds].filter((id) => !rx.seen.has(id));
      let redelivered = 0;
      const doubled = [];
      for (const [id, got] of rx.seen) {
        if (got.length < 2) continue;
        const r = byEvent.get(id);
        const recorded = r ? JSON.parse(r.attempts).length : 0;
        const acrossTheKill = killedAt !== undefined && got.length === 2 && got[0].at <= killedAt + KILL_SLACK_MS && got[1].at > killedAt;
        if (acrossTheKill && recorded === 1) redelivered++;
        else doubled.push({ id, why: `attempts received [${got.map((g) => g.attempt).join(',')}]${killedAt === undefined ? '' : `, at ${got.map((g) => `${((g.at - killedAt) / 1000).toFixed(1)} s`).join(', ')} from the kill`}; ${describe(r)}` });
      }
      return {
        redelivered,
        doubled: doubled.length,
        unexpected: [...rx.seen.keys()].filter((id) => !expectedIds.has(id)).length,
        lostBy: tally(lost, (id) => describe(byEvent.get(id))),
        doubledBy: tally(doubled, (d) => d.why.replace(/, at [^;]* from the kill/, '')),
        doubledExamples: doubled.slice(0, 5).map((d) => `${d.id}: ${d.why}`),
      };
    }),
  );
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
    const headersFor = (key, subaccount) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(subaccount ? { 'service-subaccount': subaccount } : {}) });
    const base = replicas[0].baseUrl;
    const post = async (key, path, body, subaccount) => {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers: headersFor(key, subaccount), body: JSON.stringify(body) });
      const json = await res.json();
      if (res.status >= 300) throw new Error(`${path} → ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    // ACCOUNTS sub-accounts of the bootstrap agency, each with a number and an endpoint per receiver:
    // one account's commits of events are serialized by its feed lock (PostgreSQL, feed-order.ts).
    const accounts = [];
    const endpoints = rxs.map(() => []);
    for (let a = 0; a < ACCOUNTS; a++) {
      const sub = (await post(liveKey, '/v1/subaccounts', { name: `bench ${a + 1}` })).id;
      for (const [i, rx] of rxs.entries()) endpoints[i].push((await post(liveKey, '/v1/webhooks', { url: rx.url(), events: ['message.status'] }, sub)).id);
      const found = await post(testKey, '/v1/numbers/search', { areaCode: '415', capabilities: ['sms'], limit: 1 }, sub);
      accounts.push({ sub, from: (await post(testKey, '/v1/numbers/buy', { phoneNumber: found.data[0].phoneNumber }, sub)).phoneNumber, cursor: undefined });
    }
    const sql = new pg.Pool({ connectionString: store, max: 2 });
    const q = async (text, values = []) => (await sql.query(text, values)).rows;

    // The events feeds are the truth of what was committed: every message.status event, read forward.
    const expectedIds = new Set();
    const readFeed = async () => {
      for (const account of accounts) {
        for (;;) {
          const qs = account.cursor ? `after=${account.cursor}&` : '';
          const res = await fetch(`${base}/v1/events?${qs}types=message.status&limit=100`, { headers: headersFor(testKey, account.sub) });
          const page = await res.json();
          for (const e of page.data) expectedIds.add(e.id);
          account.cursor = page.cursor;
          if (page.data.length < 100) break;
        }
      }
    };

    // How many message.status events a send makes: measured on a first one.
    await post(testKey, '/v1/messages', { from: accounts[0].from, to: '+14155550100', body: 'probe' }, accounts[0].sub);
    await new Promise((r) => setTimeout(r, 3000));
    await readFeed();
    const perSend = Math.max(1, expectedIds.size);
    const sends = Math.ceil((EVENTS - expectedIds.size) / perSend);
    const loadBefore = loadavg()[0];
    const cpuBefore = { replicas: replicas.map((r) => r.cpu()), postgres: postgresCpu(pgServer.pid), bench: process.cpuUsage() };
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
              const { sub, from } = accounts[i % accounts.length];
              return { ...req, headers: { ...req.headers, 'service-subaccount': sub, 'idempotency-key': `bench-replicas-${db}-${i}` }, body: JSON.stringify({ from, to: `+1415${String(2_000_000 + (i % 7_000_000)).padStart(7, '0')}`, body: `Bench ${i}` }) };
            },
          },
        ],
      });
    let killedAt;
    let killedAtMs;
    let victimCpu;
    if (killOne) {
      const victim = replicas[2];
      const watch = setInterval(() => {
        if (n >= sends / 3) {
          clearInterval(watch);
          victimCpu = victim.cpu();
          killedAtMs = Date.now();
          killedAt = killedAtMs - started;
          victim.kill9();
        }
      }, 20);
    }
    // Feed reads during the load keep the final read short.
    let sending = true;
    const feedDuringLoad = (async () => {
      while (sending) {
        await readFeed().catch(() => undefined);
        await new Promise((r) => setTimeout(r, 2000));
      }
    })();
    const loads = await Promise.all(replicas.map((r) => cannon(r, Math.ceil(sends / 3))));
    // The killed replica's share of the sends not taken goes to the two left, as a load balancer
    // would send it: the run still offers every event it set out to.
    if (killOne) {
      const short = sends - loads.reduce((a, l) => a + l['2xx'], 0);
      if (short > 0) loads.push(...(await Promise.all(replicas.slice(0, 2).map((r) => cannon(r, Math.ceil(short / 2))))));
    }
    sending = false;
    await feedDuringLoad;
    const sendsDone = Date.now() - started;
    // Only the 2xx answers received count as accepted: a send the killed replica took but never
    // answered may or may not have committed (the feed says which).
    const accepted = loads.reduce((a, l) => a + l['2xx'], 0);
    const refused = loads.reduce((a, l) => a + l.non2xx, 0);
    const failed = loads.reduce((a, l) => a + l.errors + l.timeouts, 0);
    // Finished when the database says so: no message has a step to come (its jobs), no delivery
    // has an attempt to come (a pending, claimed or retried one), bounded by SETTLE_MS. Counting
    // the receivers only until they stood still ended a run before a lease or a retry was due.
    const openWork = async () => (await q(`SELECT (SELECT COUNT(*)::int FROM jobs WHERE kind LIKE 'message.%') AS jobs, (SELECT COUNT(*)::int FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL) AS deliveries`))[0];
    const settleBy = Date.now() + SETTLE_MS;
    let open;
    for (;;) {
      open = await openWork();
      if ((open.jobs === 0 && open.deliveries === 0) || Date.now() > settleBy) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    await readFeed();
    const settledS = Number(((Date.now() - started) / 1000).toFixed(1));
    const loadAfter = loadavg()[0];
    // Where the CPU went (seconds), against the seconds the run took: on a shared machine the run gets what is left.
    const benchCpu = process.cpuUsage(cpuBefore.bench);
    const cpuS = {
      replicas: replicas.map((r, i) => Number(((i === 2 && victimCpu !== undefined ? victimCpu : r.cpu()) - cpuBefore.replicas[i]).toFixed(1))),
      postgres: Number((postgresCpu(pgServer.pid) - cpuBefore.postgres).toFixed(1)),
      bench: Number(((benchCpu.user + benchCpu.system) / 1e6).toFixed(1)),
    };
    const expected = expectedIds.size;
    const diagnosis = await diagnose(q, { endpoints, rxs, expectedIds, killedAt: killedAtMs });
    const per = rxs.map((rx, i) => {
      const { received, distinct, last } = rx.counts();
      const d = diagnosis[i];
      return { receiver: i + 1, expected, received, distinct, redelivered: d.redelivered, doubled: d.doubled, lost: expected - [...expectedIds].filter((id) => rx.seen.has(id)).length, unexpected: d.unexpected, timeS: Number(((last - started) / 1000).toFixed(1)), lostBy: d.lostBy, doubledBy: d.doubledBy, doubledExamples: d.doubledExamples };
    });
    const errors = replicas.map((r) => r.errors);
    const result = { label, errors, cpuS, sends: accepted, refused, failed, sendsOffered: sends, sendsS: Number((sendsDone / 1000).toFixed(1)), eventsPerSec: Math.round(expected / (sendsDone / 1000)), settledS, final: open.jobs === 0 && open.deliveries === 0, openAtEnd: open, killedAtS: killedAt === undefined ? null : Number((killedAt / 1000).toFixed(1)), receivers: per, loadavg: { before: loadBefore, after: loadAfter } };
    console.log(`  ${label}: ${accepted} sends accepted (${refused} refused, ${failed} failed or timed out) in ${result.sendsS} s (${result.eventsPerSec} events/s)${killedAt === undefined ? '' : `; replica 3 killed (SIGKILL) at ${result.killedAtS} s`}; ${result.final ? 'every delivery final' : `NOT final after the settle bound: ${open.jobs} message jobs, ${open.deliveries} deliveries open`} at ${settledS} s; load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`);
    console.log(`    CPU seconds: replicas ${cpuS.replicas.join(' + ')}, PostgreSQL ${cpuS.postgres}, this bench ${cpuS.bench}; ${(1000 * (cpuS.replicas.reduce((a, b) => a + b, 0) + cpuS.postgres) / Math.max(1, expected)).toFixed(1)} ms per event (replicas and PostgreSQL)`);
    for (const [i, e] of errors.entries()) if (Object.keys(e).length) console.log(`    replica ${i + 1} logged: ${JSON.stringify(e)}`);
    for (const p of per) {
      console.log(`    receiver ${p.receiver}: expected ${p.expected}, received ${p.received}, distinct ${p.distinct}, redelivered ${p.redelivered} (at-least-once across the kill), doubled ${p.doubled}, lost ${p.lost}, time ${p.timeS} s`);
      if (p.lost) console.log(`      lost, by what the database says: ${JSON.stringify(p.lostBy)}`);
      if (p.doubled) console.log(`      doubled, by what the database says: ${JSON.stringify(p.doubledBy)}; for example ${JSON.stringify(p.doubledExamples)}`);
    }
    await sql.end();
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
  if (RUNS !== 'kill') results.push(await run('three replicas', { killOne: false }));
  if (RUNS !== 'plain') results.push(await run('one replica killed mid-run', { killOne: true }));
} finally {
  for (const c of children) c.kill('SIGKILL');
  await pgServer?.stop().catch(() => undefined);
}
console.log(JSON.stringify({ bench: 'replicas', node: process.version, events: EVENTS, connections: CONNECTIONS, results }));
process.exit(results.every((r) => r.sends > 0 && r.final && r.receivers.every((p) => p.lost === 0 && p.doubled === 0 && p.unexpected === 0)) ? 0 : 1);
