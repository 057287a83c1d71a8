#!/usr/bin/env node
// bench/hosts (npm run bench:hosts): every process a host of its own, and the faults between them.
// Run as root on Linux (network namespaces, veth pairs, bridges): PostgreSQL on one host, API
// replicas (REPLICAS, default 3) on others, one worker, a receiver host and a load generator, each
// in a namespace `svch-<pid>-<host>`; the bridges live in a switch namespace of their own, so no
// link, address or route is added to the machine's own network. Three networks in 10.231.0.0/24:
//   back   10.231.0.0/26    PostgreSQL, the replicas, the worker
//   front  10.231.0.64/26   the load generator, the replicas
//   egress 10.231.0.128/26  the worker, the receivers
// A webhook URL must be https or loopback (contract §10), so the worker's host runs a loopback
// forwarder to the receiver host (an egress proxy): the worker posts to 127.0.0.1, the forwarder
// carries it over the egress link.
//
// Each fault is a run of its own on a fresh database (FAULTS=a,b,…; default all, then one mixed run
// with SEED): sends at RATE per second (default 20) for WARM_S, the fault, then AFTER_S (default 35),
// spread over the replicas, each request bounded by CLIENT_TIMEOUT_S (default 15):
//   a  a replica's link to the database taken down for 20 s (its switch port: packets vanish, no reset)
//   b  the worker's link to the receivers taken down for 20 s
//   c  PostgreSQL stopped with `pg_ctl -m fast` for 10 s, then started again
//   d  PostgreSQL's postmaster and backends SIGSTOPped for 10 s, then SIGCONT
//   e  a replica and the worker kill -9ed, and started again at once (as a supervisor would)
// Then, once every delivery is final (bounded by SETTLE_S, default 420: a failed delivery is retried
// at a 5-minute tick), the promises: no client request hit its timeout; every 201 stored exactly
// once; every message.status event delivered to each endpoint of its account at least once, twice
// only in a run with a kill; the ledger sums to the wallet for every account; every replica answered
// a 201 and /healthz 200 within RECOVERY_S (default 30) of the fault's end. A table per fault and a
// JSON line; a broken promise prints FAIL with evidence and the exit code is 1.
// Everything it made (namespaces, links, the PostgreSQL server, temp dirs) is removed at the end, on
// failure, on SIGINT/SIGTERM and on the hard deadline (DEADLINE_S, default 3000); at the start it
// sweeps what an earlier run of its own (a `svch-<pid>-` whose process is gone) left behind.
import http from 'node:http';
import net from 'node:net';
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, chownSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const SELF = fileURLToPath(import.meta.url);
const BIN = fileURLToPath(new URL('../bin/svc.js', import.meta.url));
const PREFIX = 'svch-';

// ---------------------------------------------------------------------------------------------
// Agents: this file run inside a namespace as `--agent <kind>`, driven by JSON lines on stdin.
// ---------------------------------------------------------------------------------------------

const reply = (x) => process.stdout.write(`${JSON.stringify(x)}\n`);
const commands = (handlers) => createInterface({ input: process.stdin }).on('line', async (line) => {
  const { cmd, ...args } = JSON.parse(line);
  try {
    reply({ ok: await handlers[cmd](args) });
  } catch (err) {
    reply({ error: String(err?.stack ?? err) });
  }
});

/** Receivers: one server; the path names the endpoint; per path, the arrival times of each event id. */
function receiverAgent(host, port) {
  let seen = new Map();
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        const { id } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const byId = seen.get(req.url) ?? new Map();
        seen.set(req.url, byId);
        byId.set(id, [...(byId.get(id) ?? []), { at: Date.now(), attempt: Number(req.headers['service-delivery-attempt']) }]);
      } catch {
        // not an event
      }
      res.writeHead(204).end();
    });
  });
  server.listen(port, host, () => reply({ ready: true }));
  commands({
    dump: () => Object.fromEntries([...seen].map(([path, byId]) => [path, Object.fromEntries(byId)])),
    reset: () => ((seen = new Map()), true),
  });
}

/** The worker host's egress proxy: 127.0.0.1:port → target:port, each connection piped both ways. */
function forwardAgent(port, target) {
  const server = net.createServer((down) => {
    const up = net.connect(port, target);
    down.pipe(up).pipe(down);
    const end = () => {
      down.destroy();
      up.destroy();
    };
    down.on('error', end).on('close', end);
    up.on('error', end).on('close', end);
  });
  server.listen(port, '127.0.0.1', () => reply({ ready: true }));
}

/** The load generator: setup calls, then a burst of sends and /healthz probes, every outcome timed. */
function loadgenAgent() {
  const json = async (base, key, method, path, body, sub) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(sub ? { 'service-subaccount': sub } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const out = await res.json();
    if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(out)}`);
    return out;
  };
  let accounts = [];
  let stop = false;
  commands({
    // Sub-accounts, each with a number and two endpoints (the receiver host's paths /ep/<a>/<i>).
    async setup({ base, liveKey, testKey, count, hookBase }) {
      accounts = [];
      const endpoints = [];
      for (let a = 0; a < count; a++) {
        const sub = (await json(base, liveKey, 'POST', '/v1/subaccounts', { name: `hosts ${a + 1}` })).id;
        for (const i of [0, 1]) {
          const path = `/ep/${a}/${i}`;
          const ep = await json(base, liveKey, 'POST', '/v1/webhooks', { url: `${hookBase}${path}`, events: ['message.status'] }, sub);
          endpoints.push({ id: ep.id, path, sub });
        }
        const found = await json(base, testKey, 'POST', '/v1/numbers/search', { areaCode: '415', capabilities: ['sms'], limit: 1 }, sub);
        const from = (await json(base, testKey, 'POST', '/v1/numbers/buy', { phoneNumber: found.data[0].phoneNumber }, sub)).phoneNumber;
        accounts.push({ sub, from });
      }
      return { endpoints, subs: accounts.map((a) => a.sub) };
    },
    // Open loop: a send every 1000/rate ms to the next replica (so a hung replica does not slow the
    // others), each bounded by timeoutMs; /healthz of each replica every 500 ms (bounded by 2 s).
    async burst({ bases, testKey, rate, durationMs, timeoutMs, label }) {
      stop = false;
      const sends = [];
      const health = [];
      const pending = new Set();
      const started = Date.now();
      let n = 0;
      const sendOne = async (r) => {
        const i = n++;
        const { sub, from } = accounts[i % accounts.length];
        const o = { replica: r, t0: Date.now(), i };
        try {
          const res = await fetch(`${bases[r]}/v1/messages`, {
            method: 'POST',
            headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json', 'service-subaccount': sub, 'idempotency-key': `${label}-${i}` },
            body: JSON.stringify({ from, to: `+1415${String(2_000_000 + i).padStart(7, '0')}`, body: `${label} ${i}` }),
            signal: AbortSignal.timeout(timeoutMs),
          });
          o.status = res.status;
          const text = await res.text();
          if (res.status === 201) o.id = JSON.parse(text).id;
          else o.text = text.slice(0, 200);
          if (res.status === 503) o.retryAfter = res.headers.get('retry-after');
        } catch (err) {
          o.status = err?.name === 'TimeoutError' ? 'timeout' : `error: ${err?.cause?.code ?? err?.message}`;
        }
        o.t1 = Date.now();
        sends.push(o);
      };
      const probe = async (r) => {
        const t0 = Date.now();
        let status;
        try {
          status = (await fetch(`${bases[r]}/healthz`, { signal: AbortSignal.timeout(2000) })).status;
        } catch (err) {
          status = err?.name === 'TimeoutError' ? 'timeout' : 'error';
        }
        health.push({ replica: r, t0, t1: Date.now(), status });
      };
      const every = 1000 / rate;
      let next = started;
      const probes = setInterval(() => bases.forEach((_, r) => track(probe(r))), 500);
      function track(p) {
        pending.add(p);
        p.finally(() => pending.delete(p));
      }
      let turn = 0;
      while (!stop && Date.now() - started < durationMs) {
        track(sendOne(turn++ % bases.length));
        next += every;
        await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
      }
      clearInterval(probes);
      await Promise.all([...pending]);
      return { sends, health };
    },
  });
  reply({ ready: true });
}

if (process.argv[2] === '--agent') {
  const [kind, ...rest] = process.argv.slice(3);
  if (kind === 'receiver') receiverAgent(rest[0], Number(rest[1]));
  else if (kind === 'forward') forwardAgent(Number(rest[0]), rest[1]);
  else loadgenAgent();
} else {
  await main();
}

// ---------------------------------------------------------------------------------------------
// The orchestrator (root, in the machine's own namespace; reaches hosts only by stdio pipes and
// PostgreSQL's Unix socket).
// ---------------------------------------------------------------------------------------------

async function main() {
  const { default: pg } = await import('pg');
  const REPLICAS = Number(process.env.REPLICAS ?? 3);
  const RATE = Number(process.env.RATE ?? 20);
  const WARM_MS = Number(process.env.WARM_S ?? 10) * 1000;
  const AFTER_MS = Number(process.env.AFTER_S ?? 35) * 1000;
  const CLIENT_TIMEOUT_MS = Number(process.env.CLIENT_TIMEOUT_S ?? 15) * 1000;
  const RECOVERY_MS = Number(process.env.RECOVERY_S ?? 30) * 1000;
  const SETTLE_MS = Number(process.env.SETTLE_S ?? 420) * 1000;
  const DEADLINE_MS = Number(process.env.DEADLINE_S ?? 3000) * 1000;
  const ACCOUNTS = Number(process.env.ACCOUNTS ?? 4);
  const SEED = Number(process.env.SEED ?? 46);
  const ALL = ['a', 'b', 'c', 'd', 'e'];
  const FAULTS = (process.env.FAULTS ?? [...ALL, 'mixed'].join(',')).split(',').filter(Boolean);
  const PG_PORT = 5432;
  const RX_PORT = 8080;
  const API_PORT = 4010;
  const SUPERUSER = 'svc_hosts';
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const began = Date.now();
  /**
   * Progress on stderr (HOSTS_VERBOSE=1): where a run is, when one stalls; and during each burst,
   * every second, each service process's pool diagnostic (SVC_DEBUG_POOL: its pool, breaker, write
   * groups, oldest unanswered write and event-loop delay), timed from the burst's start.
   */
  const step = (what) => process.env.HOSTS_VERBOSE && console.error(`  [${((Date.now() - began) / 1000).toFixed(1)} s] ${what}`);
  /** When the current burst began (epoch ms); undefined between bursts. */
  let burstAt;

  if (process.getuid?.() !== 0) throw new Error('bench/hosts needs root (ip netns, veth pairs, bridges)');
  const tag = `${PREFIX}${process.pid}-`;
  const ns = (host) => `${tag}${host}`;
  const SW = ns('sw');
  const made = { netns: [], dirs: [] };
  const children = new Set();
  let pgCtl; // set once PostgreSQL exists

  const sh = (cmd, args, opts = {}) => {
    const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
    if (r.status !== 0 && !opts.allowFail) throw new Error(`${cmd} ${args.join(' ')} → ${r.status}: ${r.stderr || r.stdout}`);
    return r;
  };
  const ip = (...args) => sh('ip', args);
  const alive = (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  /** Removes a namespace and every process left in it (only namespaces of this bench's prefix). */
  const dropNetns = (name) => {
    const pids = sh('ip', ['netns', 'pids', name], { allowFail: true }).stdout.split('\n').filter(Boolean).map(Number);
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    sh('ip', ['netns', 'del', name], { allowFail: true });
  };
  /** A PostgreSQL data directory of this bench: its postmaster stopped at once. */
  const stopPostmaster = (data) => {
    try {
      const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0 && alive(pid)) process.kill(pid, 'SIGQUIT');
      if (pid > 0 && alive(pid)) process.kill(pid, 'SIGCONT');
    } catch {
      // no server
    }
  };

  // The sweep: what a run of this bench whose process is gone left behind.
  for (const name of sh('ip', ['netns', 'list']).stdout.split('\n').map((l) => l.split(' ')[0])) {
    const m = /^svch-(\d+)-/.exec(name ?? '');
    if (m && !alive(Number(m[1]))) dropNetns(name);
  }
  for (const entry of readdirSync(tmpdir())) {
    const m = /^svch-(\d+)-/.exec(entry);
    if (m && !alive(Number(m[1]))) {
      stopPostmaster(join(tmpdir(), entry, 'data'));
      rmSync(join(tmpdir(), entry), { recursive: true, force: true });
    }
  }
  if (sh('ip', ['-4', 'route', 'show', 'root', '10.231.0.0/24']).stdout.trim() || sh('ip', ['-4', 'addr']).stdout.includes('10.231.0.')) {
    throw new Error('10.231.0.0/24 is in use on this machine: bench/hosts will not share it');
  }

  let cleaned = false;
  const cleanup = () => {
    if (cleaned) return;
    cleaned = true;
    for (const c of children) c.kill('SIGKILL');
    if (pgCtl) stopPostmaster(pgCtl.data);
    for (const name of made.netns.reverse()) dropNetns(name);
    for (const dir of made.dirs) rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', cleanup);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      console.error(`bench/hosts: ${signal}; removing what it made`);
      cleanup();
      process.exit(130);
    });
  }
  const deadline = setTimeout(() => {
    console.error('bench/hosts: hard deadline reached; removing what it made');
    cleanup();
    process.exit(2);
  }, DEADLINE_MS);
  deadline.unref();
  const tempDir = (name) => {
    const dir = mkdtempSync(join(tmpdir(), `${tag}${name}-`));
    made.dirs.push(dir);
    return dir;
  };

  // --- the network ---------------------------------------------------------------------------
  const NETS = { back: { bridge: 'brb', base: '10.231.0.', bits: 26 }, front: { bridge: 'brf', base: '10.231.0.', bits: 26 }, egress: { bridge: 'bre', base: '10.231.0.', bits: 26 } };
  const replicaNames = Array.from({ length: REPLICAS }, (_, i) => `api${i + 1}`);
  /** Host → its addresses per network. */
  const HOSTS = {
    pg: { back: '10.231.0.2' },
    ...Object.fromEntries(replicaNames.map((h, i) => [h, { back: `10.231.0.${11 + i}`, front: `10.231.0.${75 + i}` }])),
    worker: { back: '10.231.0.20', egress: '10.231.0.148' },
    rx: { egress: '10.231.0.130' },
    lg: { front: '10.231.0.66' },
  };
  /** The switch-side end of a host's link on a network: the port a fault takes down. */
  const port = (host, net) => `${host}${net[0]}`;
  const addNetns = (name) => {
    ip('netns', 'add', name);
    made.netns.push(name);
    ip('-n', name, 'link', 'set', 'lo', 'up');
  };
  addNetns(SW);
  for (const { bridge } of Object.values(NETS)) {
    ip('-n', SW, 'link', 'add', bridge, 'type', 'bridge');
    ip('-n', SW, 'link', 'set', bridge, 'up');
  }
  for (const [host, addrs] of Object.entries(HOSTS)) {
    addNetns(ns(host));
    for (const [netName, addr] of Object.entries(addrs)) {
      const inside = `eth-${netName}`;
      ip('link', 'add', inside, 'netns', ns(host), 'type', 'veth', 'peer', 'name', port(host, netName), 'netns', SW);
      ip('-n', SW, 'link', 'set', port(host, netName), 'master', NETS[netName].bridge);
      ip('-n', SW, 'link', 'set', port(host, netName), 'up');
      ip('-n', ns(host), 'addr', 'add', `${addr}/${NETS[netName].bits}`, 'dev', inside);
      ip('-n', ns(host), 'link', 'set', inside, 'up');
    }
  }
  const linkSet = (host, net, state) => ip('-n', SW, 'link', 'set', port(host, net), state);

  // --- PostgreSQL on its host ---------------------------------------------------------------
  const pgBin = (() => {
    const root = '/usr/lib/postgresql';
    const v = readdirSync(root).filter((d) => existsSync(join(root, d, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a))[0];
    if (!v) throw new Error('no PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql)');
    return join(root, v, 'bin');
  })();
  const pgDir = tempDir('pg');
  const pgUser = { uid: Number(sh('id', ['-u', 'postgres']).stdout), gid: Number(sh('id', ['-g', 'postgres']).stdout) };
  chownSync(pgDir, pgUser.uid, pgUser.gid);
  pgCtl = { data: join(pgDir, 'data'), log: join(pgDir, 'server.log') };
  const asPostgres = (args) => ['runuser', '-u', 'postgres', '--', ...args];
  sh('runuser', ['-u', 'postgres', '--', join(pgBin, 'initdb'), '-D', pgCtl.data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'], { cwd: pgDir });
  appendFileSync(join(pgCtl.data, 'pg_hba.conf'), `host all all 10.231.0.0/24 trust\n`);
  const pgStart = () =>
    sh('ip', ['netns', 'exec', ns('pg'), ...asPostgres([join(pgBin, 'pg_ctl'), '-D', pgCtl.data, '-l', pgCtl.log, '-w', '-t', '60', '-o', `-h ${HOSTS.pg.back} -p ${PG_PORT} -k ${pgDir} -c max_connections=300 -c fsync=off`, 'start'])], { cwd: pgDir });
  const pgStopFast = () => sh('runuser', ['-u', 'postgres', '--', join(pgBin, 'pg_ctl'), '-D', pgCtl.data, '-m', 'fast', '-w', 'stop'], { cwd: pgDir });
  const postmasterPid = () => Number(readFileSync(join(pgCtl.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  pgStart();
  // The orchestrator's own queries go through the Unix socket: no network traffic outside the namespaces.
  const admin = new pg.Pool({ host: pgDir, port: PG_PORT, user: SUPERUSER, database: 'postgres', max: 2 });
  admin.on('error', () => undefined);
  const storeUrl = (db) => `postgres://${SUPERUSER}@${HOSTS.pg.back}:${PG_PORT}/${db}`;

  // --- processes in namespaces ----------------------------------------------------------------
  /** A child in `host`'s namespace; `lines` reads its stdout, `stderr` keeps its tail. */
  const inHost = (host, argv, env = {}) => {
    const child = spawn('ip', ['netns', 'exec', ns(host), ...argv], { env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    children.add(child);
    child.once('exit', () => children.delete(child));
    const proc = { child, host, stderr: '', errors: {}, exited: new Promise((r) => child.once('exit', r)) };
    createInterface({ input: child.stderr }).on('line', (line) => {
      try {
        const { level, msg, err, time, ...rest } = JSON.parse(line);
        // The pool diagnostic (SVC_DEBUG_POOL, on with HOSTS_VERBOSE): shown during a burst, not kept.
        if (level === 'debug' && msg === 'pool') {
          if (burstAt !== undefined) step(`${host} +${((Date.parse(time) - burstAt) / 1000).toFixed(1)} s from the burst's start: ${Object.entries(rest).map(([k, v]) => `${k} ${v}`).join(', ')}`);
          return;
        }
        proc.stderr = (proc.stderr + line + '\n').slice(-6000);
        const key = `${msg}${err?.message ? `: ${err.message.slice(0, 120)}` : ''}`;
        proc.errors[key] = (proc.errors[key] ?? 0) + 1;
      } catch {
        // not a log line
        proc.stderr = (proc.stderr + line + '\n').slice(-6000);
      }
    });
    const lines = createInterface({ input: child.stdout });
    const queue = [];
    const waiting = [];
    lines.on('line', (l) => (waiting.length ? waiting.shift()(l) : queue.push(l)));
    proc.line = () =>
      new Promise((resolve, reject) => {
        if (queue.length) return resolve(queue.shift());
        const died = (code, sig) => reject(new Error(`${host}: ${argv.slice(0, 4).join(' ')} exited (${sig ?? code}): ${proc.stderr.slice(-1500)}`));
        child.once('exit', died);
        waiting.push((l) => {
          child.off('exit', died);
          resolve(l);
        });
      });
    proc.ask = async (cmd, args = {}) => {
      child.stdin.write(`${JSON.stringify({ cmd, ...args })}\n`);
      const answer = JSON.parse(await proc.line());
      if (answer.error) throw new Error(`${host} ${cmd}: ${answer.error}`);
      return answer.ok;
    };
    return proc;
  };
  const agent = async (host, ...args) => {
    const a = inHost(host, [process.execPath, SELF, '--agent', ...args]);
    await a.line();
    return a;
  };
  step('network and PostgreSQL up');
  const rx = await agent('rx', 'receiver', HOSTS.rx.egress, String(RX_PORT));
  const lg = await agent('lg', 'loadgen');
  // The worker host's egress proxy, for every run (it outlives a worker's kill, as a sidecar would).
  await agent('worker', 'forward', String(RX_PORT), HOSTS.rx.egress);

  /** `svc server start` on a host; resolves once it serves (api) or runs (worker). */
  const startSvc = async (host, role, dir, db) => {
    const args = role === 'worker' ? ['--role', 'worker'] : ['--role', 'api', '--host', HOSTS[host].front, '--port', String(API_PORT), '--rate-limit', '1000000'];
    const p = inHost(host, [process.execPath, BIN, 'server', 'start', '--store', storeUrl(db), ...args], { HOME: dir, SVC_DATA_DIR: dir, ...(process.env.HOSTS_VERBOSE ? { SVC_DEBUG_POOL: '1' } : {}) });
    p.role = role;
    p.dir = dir;
    // The banner on stderr says it serves (api: `listening on`) or runs (worker: `worker running`).
    const marker = role === 'worker' ? 'worker running' : 'listening on';
    const until = Date.now() + 60_000;
    while (!p.stderr.includes(marker)) {
      if (p.child.exitCode !== null || p.child.signalCode !== null || Date.now() > until) {
        p.child.kill('SIGKILL');
        throw new Error(`${host} (${role}) did not start: ${p.stderr.slice(-1500)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return p;
  };

  /** CPU seconds (user + system) so far of a process, its reaped children included. */
  const cpuOf = (pid) => {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return [11, 12, 13, 14].reduce((sum, i) => sum + Number(f[i]), 0) / 100;
    } catch {
      return 0;
    }
  };
  /** PostgreSQL's CPU seconds so far: the postmaster, its reaped backends and its live ones. */
  const pgCpu = () => {
    const pm = postmasterPid();
    const kids = sh('pgrep', ['-P', String(pm)], { allowFail: true }).stdout.split('\n').filter(Boolean).map(Number);
    return cpuOf(pm) + kids.reduce((sum, pid) => sum + cpuOf(pid), 0);
  };
  /** Each process's pid and CPU seconds so far (PostgreSQL: its postmaster's pid, the server's seconds). */
  const cpuNow = (procs) => ({
    ...Object.fromEntries(Object.entries(procs).map(([h, p]) => [h, { pid: p.child.pid, s: cpuOf(p.child.pid) }])),
    postgres: { pid: postmasterPid(), s: pgCpu() },
  });
  // A process restarted during the burst (a kill, PostgreSQL stopped) took its seconds with it: its
  // share is not measured (null), rather than the new process's seconds less the old one's.
  const cpuSpent = (before, after) =>
    Object.fromEntries(Object.keys(after).map((h) => [h, before[h]?.pid === after[h].pid ? Number((after[h].s - before[h].s).toFixed(2)) : null]));

  const q = async (db, text, values = []) => {
    const c = new pg.Client({ host: pgDir, port: PG_PORT, user: SUPERUSER, database: db });
    await c.connect();
    try {
      return (await c.query(text, values)).rows;
    } finally {
      await c.end();
    }
  };

  // --- faults ---------------------------------------------------------------------------------
  /** Each fault: `inject(team)` at its start, `heal(team)` at its end; `kill` runs may redeliver. */
  const FAULT = {
    none: { name: 'no fault: the baseline (CPU per send, per delivery)', ms: 0, inject: () => undefined, heal: () => undefined },
    a: { name: 'replica cut off from the database (link down)', ms: 20_000, inject: (t) => linkSet(t.target, 'back', 'down'), heal: (t) => linkSet(t.target, 'back', 'up') },
    b: { name: 'worker cut off from the receivers (link down)', ms: 20_000, inject: () => linkSet('worker', 'egress', 'down'), heal: () => linkSet('worker', 'egress', 'up') },
    c: { name: 'PostgreSQL stopped (pg_ctl -m fast), started again', ms: 10_000, inject: () => pgStopFast(), heal: () => pgStart() },
    d: {
      name: 'PostgreSQL SIGSTOPped (postmaster and backends), SIGCONT',
      ms: 10_000,
      inject: (t) => {
        const pm = postmasterPid();
        t.stopped = [pm, ...sh('pgrep', ['-P', String(pm)], { allowFail: true }).stdout.split('\n').filter(Boolean).map(Number)];
        for (const pid of t.stopped) process.kill(pid, 'SIGSTOP');
      },
      heal: (t) => {
        for (const pid of t.stopped) process.kill(pid, 'SIGCONT');
      },
    },
    e: {
      name: 'a replica and the worker kill -9ed, restarted at once',
      ms: 1_000,
      kill: true,
      inject: (t) => {
        for (const p of [t.procs[t.target], t.procs.worker]) p.child.kill('SIGKILL');
      },
      heal: async (t) => {
        await Promise.all([t.procs[t.target].exited, t.procs.worker.exited]);
        t.procs[t.target] = await startSvc(t.target, 'api', t.procs[t.target].dir, t.db);
        t.procs.worker = await startSvc('worker', 'worker', t.procs.worker.dir, t.db);
      },
    },
  };
  /** A seeded plan of three faults one after the other (mulberry32). */
  const mixedPlan = (seed) => {
    let s = seed >>> 0;
    const rand = () => {
      s = (s + 0x6d2b79f5) >>> 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    return Array.from({ length: 3 }, () => ({ kind: ALL[Math.floor(rand() * ALL.length)], target: replicaNames[Math.floor(rand() * REPLICAS)], ms: 5_000 + Math.floor(rand() * 11) * 1000, gapMs: 5_000 + Math.floor(rand() * 6) * 1000 }));
  };

  // --- one run --------------------------------------------------------------------------------
  let runNo = 0;
  async function run(label, plan) {
    const db = `hosts_${++runNo}`;
    await admin.query(`CREATE DATABASE ${db} TEMPLATE template0`);
    await rx.ask('reset');
    const procs = {};
    const t = { db, procs };
    try {
      // The first replica migrates and bootstraps; the others, and the worker, join with its keys.
      const dirs = Object.fromEntries([...replicaNames, 'worker'].map((h) => [h, tempDir(`${db}-${h}`)]));
      step(`database ${db}; starting ${replicaNames[0]}`);
      procs[replicaNames[0]] = await startSvc(replicaNames[0], 'api', dirs[replicaNames[0]], db);
      for (const h of [...replicaNames.slice(1), 'worker']) copyFileSync(join(dirs[replicaNames[0]], 'bootstrap.json'), join(dirs[h], 'bootstrap.json'));
      await Promise.all(replicaNames.slice(1).map(async (h) => (procs[h] = await startSvc(h, 'api', dirs[h], db))));
      step('replicas up; starting the worker');
      procs.worker = await startSvc('worker', 'worker', dirs.worker, db);
      step('worker up');
      const { liveKey, testKey } = JSON.parse(readFileSync(join(dirs[replicaNames[0]], 'bootstrap.json'), 'utf8'));
      const bases = replicaNames.map((h) => `http://${HOSTS[h].front}:${API_PORT}`);
      const { endpoints, subs } = await lg.ask('setup', { base: bases[0], liveKey, testKey, count: ACCOUNTS, hookBase: `http://127.0.0.1:${RX_PORT}` });

      step(`setup done: ${endpoints.length} endpoints`);
      const faultsMs = plan.reduce((s, f) => s + f.ms + (f.gapMs ?? 0), 0);
      const durationMs = WARM_MS + faultsMs + AFTER_MS;
      const loadBefore = loadavg();
      const cpuBefore = cpuNow(procs);
      burstAt = Date.now();
      const burst = lg.ask('burst', { bases, testKey, rate: RATE, durationMs, timeoutMs: CLIENT_TIMEOUT_MS, label: db });
      const windows = [];
      await sleep(WARM_MS);
      for (const f of plan) {
        const fault = FAULT[f.kind];
        const ft = Object.assign(t, { target: f.target });
        const start = Date.now();
        step(`inject ${f.kind}`);
        await fault.inject(ft);
        await sleep(f.ms);
        step(`heal ${f.kind}`);
        await fault.heal(ft);
        step(`healed ${f.kind}`);
        windows.push({ kind: f.kind, target: f.target, start, end: Date.now(), kill: Boolean(fault.kill) });
        if (f.gapMs) await sleep(f.gapMs);
      }
      const { sends, health } = await burst;
      burstAt = undefined;
      const loadAfter = loadavg();
      const cpuAfter = cpuNow(procs);
      const cpuSeconds = cpuSpent(cpuBefore, cpuAfter);
      const faultEnd = windows.at(-1).end;
      const faultStart = windows[0].start;
      const burstS = durationMs / 1000;

      // Settle: every (event, endpoint) pair received and no delivery still pending, or SETTLE_MS.
      const expected = async () => q(db, `SELECT e.id AS event_id, w.id AS endpoint_id FROM events e JOIN webhook_endpoints w ON w.account_id = e.account_id WHERE e.type = 'message.status'`);
      const pathOf = Object.fromEntries(endpoints.map((e) => [e.id, e.path]));
      let pairs;
      let got;
      let pendingDeliveries;
      const settleUntil = Date.now() + SETTLE_MS;
      for (;;) {
        pairs = await expected();
        got = await rx.ask('dump');
        // Still to come: a delivery not yet final, or failed with a retry scheduled (the 5-minute tick).
        pendingDeliveries = Number((await q(db, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending' OR (status = 'failed' AND next_attempt_at IS NOT NULL)`))[0].n);
        const missing = pairs.filter((p) => !got[pathOf[p.endpoint_id]]?.[p.event_id]);
        step(`settling: ${missing.length} of ${pairs.length} pairs missing, ${pendingDeliveries} deliveries pending`);
        if ((missing.length === 0 && pendingDeliveries === 0) || Date.now() > settleUntil) break;
        await sleep(2000);
      }
      const settledAfterMs = Date.now() - faultEnd;

      // --- checks -----------------------------------------------------------------------------
      const fails = [];
      const sec = (ms) => `${(ms / 1000).toFixed(1)} s`;
      const at = (ms) => `${ms >= faultStart ? '+' : ''}${sec(ms - faultStart)} from the fault's start`;
      const timeouts = sends.filter((s) => s.status === 'timeout');
      const longest = Math.max(0, ...sends.map((s) => s.t1 - s.t0));
      if (timeouts.length) {
        const byReplica = tally(timeouts, (s) => replicaNames[s.replica]);
        fails.push(`${timeouts.length} requests waited the whole client timeout (${CLIENT_TIMEOUT_MS / 1000} s) with no answer: ${JSON.stringify(byReplica)}; first sent ${at(timeouts[0].t0)}, last ${at(timeouts.at(-1).t0)}`);
      }
      const accepted = sends.filter((s) => s.status === 201);
      const stored = await q(db, `SELECT id, body FROM messages WHERE body LIKE $1`, [`${db} %`]);
      const storedIds = new Set(stored.map((m) => m.id));
      const lost = accepted.filter((s) => !storedIds.has(s.id));
      if (lost.length) fails.push(`${lost.length} sends answered 201 are not stored: ${lost.slice(0, 5).map((s) => s.id).join(', ')}`);
      const bodies = tally(stored, (m) => m.body);
      const twice = Object.entries(bodies).filter(([, n]) => n > 1);
      if (twice.length) fails.push(`${twice.length} sends stored more than once: ${twice.slice(0, 5).map(([b, n]) => `${b} ×${n}`).join(', ')}`);
      const missing = pairs.filter((p) => !got[pathOf[p.endpoint_id]]?.[p.event_id]);
      if (missing.length) {
        const rows = await q(db, `SELECT event_id, endpoint_id, status, attempt, next_attempt_at, error FROM webhook_deliveries WHERE (event_id, endpoint_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, [missing.map((m) => m.event_id), missing.map((m) => m.endpoint_id)]);
        fails.push(`${missing.length} (event, endpoint) pairs never delivered after ${sec(SETTLE_MS)}; their deliveries: ${JSON.stringify(tally(rows, (r) => `${r.status}, attempt ${r.attempt}, ${r.next_attempt_at ? 'retry to come' : 'none to come'}${r.error ? `, ${r.error.slice(0, 80)}` : ''}`))}; no row: ${missing.length - rows.length}`);
      }
      // An event received twice at one endpoint is allowed across a kill (the worker sent it and died
      // before recording it), or when the database records an attempt that failed before the one that
      // succeeded (no acknowledgement within 10 s, or the connection lost: retried, spec: Delivery,
      // at-least-once) — the receiver may have got the failed one late. Anything else is a double.
      const endpointOf = Object.fromEntries(endpoints.map((e) => [e.path, e.id]));
      const repeats = [];
      for (const [path, byId] of Object.entries(got)) {
        for (const [id, arrivals] of Object.entries(byId)) if (arrivals.length > 1) repeats.push({ path, id, arrivals });
      }
      const recorded = repeats.length
        ? await q(db, `SELECT event_id, endpoint_id, attempts FROM webhook_deliveries WHERE (event_id, endpoint_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, [repeats.map((r) => r.id), repeats.map((r) => endpointOf[r.path])])
        : [];
      const attemptsOf = new Map(recorded.map((r) => [`${r.event_id} ${r.endpoint_id}`, JSON.parse(r.attempts)]));
      const killRun = windows.some((w) => w.kill);
      const doubledBy = { acrossAKill: 0, afterAFailedAttempt: 0, unexplained: 0 };
      const doubledExamples = [];
      for (const r of repeats) {
        const attempts = attemptsOf.get(`${r.id} ${endpointOf[r.path]}`) ?? [];
        const failedFirst = attempts.some((a) => a.outcome === 'failed');
        const why = r.arrivals.length === 2 && failedFirst ? 'afterAFailedAttempt' : r.arrivals.length === 2 && killRun ? 'acrossAKill' : 'unexplained';
        doubledBy[why]++;
        if (why === 'unexplained' || doubledExamples.length < 3) {
          doubledExamples.push(`${why}: ${r.path} ${r.id} received attempts [${r.arrivals.map((a) => a.attempt).join(',')}] at ${r.arrivals.map((a) => at(a.at)).join(', ')}; recorded ${JSON.stringify(attempts.map((a) => ({ attempt: a.attempt, outcome: a.outcome, error: a.error?.slice(0, 60) ?? null, at: at(a.at) })))}`);
        }
      }
      const doubled = repeats.length;
      if (doubledBy.unexplained) fails.push(`${doubledBy.unexplained} events delivered more than once to an endpoint with neither a kill nor a failed attempt to explain it: ${doubledExamples.filter((e) => e.startsWith('unexplained')).slice(0, 5).join('; ')}`);
      const ledger = await q(db, `SELECT w.account_id, w.balance_cents, COALESCE((SELECT SUM(amount_cents) FROM ledger l WHERE l.account_id = w.account_id), 0)::bigint AS sum FROM wallets w`);
      const unbalanced = ledger.filter((r) => Number(r.sum) !== Number(r.balance_cents));
      if (unbalanced.length) fails.push(`ledger ≠ wallet: ${unbalanced.map((r) => `${r.account_id} ${r.sum} ≠ ${r.balance_cents}`).join(', ')}`);
      // Recovery: per replica, its first 201 and its first /healthz 200, each of a request sent after the fault's end.
      const recovery = replicaNames.map((h, r) => {
        const first201 = sends.filter((s) => s.replica === r && s.status === 201 && s.t0 >= faultEnd).map((s) => s.t1).sort((x, y) => x - y)[0];
        const firstReady = health.filter((p) => p.replica === r && p.status === 200 && p.t0 >= faultEnd).map((p) => p.t1).sort((x, y) => x - y)[0];
        return { replica: h, first201: first201 === undefined ? null : first201 - faultEnd, firstReady: firstReady === undefined ? null : firstReady - faultEnd };
      });
      const recoveredMs = recovery.some((x) => x.first201 === null || x.firstReady === null) ? null : Math.max(...recovery.flatMap((x) => [x.first201, x.firstReady]));
      if (recoveredMs === null || recoveredMs > RECOVERY_MS) fails.push(`not recovered within ${RECOVERY_MS / 1000} s of the fault's end: ${JSON.stringify(recovery)}`);
      const dead = Object.entries(procs).filter(([, p]) => p.child.exitCode !== null || p.child.signalCode !== null).map(([h, p]) => `${h} (${p.child.signalCode ?? p.child.exitCode}): ${p.stderr.slice(-400)}`);
      if (dead.length) fails.push(`processes gone at the end: ${dead.join('; ')}`);

      const result = {
        run: label,
        faults: windows.map((w) => ({ kind: w.kind, ...(['a', 'e'].includes(w.kind) ? { target: w.target } : {}), startS: Number(((w.start - faultStart) / 1000).toFixed(1)), lengthS: Number(((w.end - w.start) / 1000).toFixed(1)) })),
        requests: sends.length,
        created: accepted.length,
        unavailable: sends.filter((s) => s.status === 503).length,
        clientTimeouts: timeouts.length,
        otherErrors: tally(sends.filter((s) => ![201, 503, 'timeout'].includes(s.status)), (s) => String(s.status)),
        longestWaitMs: longest,
        stored: stored.length,
        storedOf201: accepted.length - lost.length,
        expectedDeliveries: pairs.length,
        delivered: pairs.length - missing.length,
        doubled,
        doubledBy,
        doubledExamples: doubledExamples.slice(0, 3),
        recoveredMs,
        recovery,
        // What readiness said while a fault lasted, per replica: a load balancer routes on it.
        healthDuring: Object.fromEntries(replicaNames.map((h, r) => [h, tally(health.filter((p) => p.replica === r && windows.some((w) => p.t0 >= w.start && p.t0 < w.end)), (p) => String(p.status))])),
        settledAfterFaultS: Number((settledAfterMs / 1000).toFixed(1)),
        burstS,
        // CPU seconds during the burst (a killed process's are lost with it; deliveries may go on after)
        cpuSeconds,
        cpuMsPer201: Object.fromEntries(Object.entries(cpuSeconds).map(([h, c]) => [h, accepted.length && c !== null ? Number(((c * 1000) / accepted.length).toFixed(2)) : null])),
        loadavg: { before: loadBefore.map((x) => Number(x.toFixed(2))), after: loadAfter.map((x) => Number(x.toFixed(2))) },
        errorsLogged: Object.fromEntries(Object.entries(procs).map(([h, p]) => [h, p.errors]).filter(([, e]) => Object.keys(e).length)),
        timeline: timelineOf(sends, faultStart, replicaNames),
        fails,
      };
      return result;
    } finally {
      await Promise.all(Object.values(procs).map(async (p) => {
        if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
        await Promise.race([p.exited, sleep(10_000)]);
        p.child.kill('SIGKILL');
      }));
      for (const h of [...replicaNames, 'worker']) {
        // the links back up whatever happened, for the next run
        linkSet(h, h === 'worker' ? 'egress' : 'back', 'up');
      }
      await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
    }
  }

  // --- the runs ---------------------------------------------------------------------------------
  console.log(`bench/hosts: ${REPLICAS} API replicas, a worker, PostgreSQL, receivers and a load generator each in a namespace (${tag}*); ${RATE} sends/s, client timeout ${CLIENT_TIMEOUT_MS / 1000} s; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const unknown = FAULTS.filter((f) => f !== 'mixed' && !FAULT[f]);
  if (unknown.length) throw new Error(`FAULTS: unknown ${unknown.join(', ')} (known: ${Object.keys(FAULT).join(', ')}, mixed)`);
  const results = [];
  try {
    for (const f of FAULTS) {
      const plan = f === 'mixed' ? mixedPlan(SEED).map((p) => ({ ...p, target: p.target })) : [{ kind: f, target: replicaNames[1] ?? replicaNames[0], ms: FAULT[f].ms }];
      const label = f === 'mixed' ? `mixed (seed ${SEED}: ${plan.map((p) => `${p.kind}${['a', 'e'].includes(p.kind) ? `@${p.target}` : ''} ${p.ms / 1000} s`).join(', ')})` : `${f}: ${FAULT[f].name}`;
      console.log(`\n${label}`);
      let r;
      try {
        r = await run(label, plan);
      } catch (err) {
        r = { run: label, fails: [`the run did not complete: ${err.stack ?? err}`] };
      }
      results.push(r);
      printRun(r);
    }
  } finally {
    await admin.end().catch(() => undefined);
    cleanup();
  }
  printTable(results);
  const failed = results.filter((r) => r.fails.length);
  console.log(JSON.stringify({ bench: 'hosts', node: process.version, replicas: REPLICAS, rate: RATE, clientTimeoutMs: CLIENT_TIMEOUT_MS, seed: SEED, results: results.map(({ timeline, ...r }) => r) }));
  process.exitCode = failed.length ? 1 : 0;
}

function tally(xs, key) {
  return xs.reduce((acc, x) => ((acc[key(x)] = (acc[key(x)] ?? 0) + 1), acc), {});
}

/** Per 5 s from the fault's start, per replica: answers by kind (2 = 201, 5 = 503, t = timeout, x = other). */
function timelineOf(sends, faultStart, names) {
  const SYMBOL = { 2: '201', 5: '503', t: 'timeout', x: 'error' };
  const rows = {};
  for (const s of sends) {
    const slot = Math.floor((s.t0 - faultStart) / 5000) * 5;
    const key = `${slot >= 0 ? '+' : ''}${slot}s`;
    rows[key] ??= Object.fromEntries(names.map((n) => [n, '']));
    rows[key][names[s.replica]] += s.status === 201 ? '2' : s.status === 503 ? '5' : s.status === 'timeout' ? 't' : 'x';
  }
  return Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, Object.fromEntries(Object.entries(v).map(([n, str]) => [n, Object.entries(tally([...str], (c) => c)).map(([c, n2]) => `${n2}×${SYMBOL[c]}`).join(' ')]))]));
}

function printRun(r) {
  if (r.timeline) {
    console.log('  sends per 5 s from the fault\'s start (timeout: the client gave up with no answer; error: any other failure):');
    for (const [slot, per] of Object.entries(r.timeline)) console.log(`    ${slot.padStart(5)}  ${Object.entries(per).map(([n, s]) => `${n}: ${s || '-'}`.padEnd(34)).join(' ')}`);
    console.log(`  /healthz while the fault lasted: ${JSON.stringify(r.healthDuring)}`);
    if (r.doubled) console.log(`  received twice: ${JSON.stringify(r.doubledBy)}, e.g. ${r.doubledExamples.join(' | ')}`);
    console.log(`  CPU seconds during the ${r.burstS} s burst: ${JSON.stringify(r.cpuSeconds)}; ms per 201: ${JSON.stringify(r.cpuMsPer201)}`);
    if (Object.keys(r.errorsLogged).length) console.log(`  errors the processes logged: ${JSON.stringify(r.errorsLogged)}`);
  }
  for (const f of r.fails) console.log(`  FAIL ${f}`);
  if (!r.fails.length) console.log('  every promise held');
}

function printTable(results) {
  const cols = ['fault', 'requests', '201', '503', 'timeouts', 'other errors', 'longest wait', 'stored', 'delivered', 'doubled', 'recovery', 'load avg', 'verdict'];
  const rows = results.map((r) => [
    r.run.split(':')[0].split(' (')[0],
    r.requests ?? '-',
    r.created ?? '-',
    r.unavailable ?? '-',
    r.clientTimeouts ?? '-',
    r.otherErrors ? Object.values(r.otherErrors).reduce((a, b) => a + b, 0) : '-',
    r.longestWaitMs !== undefined ? `${(r.longestWaitMs / 1000).toFixed(1)} s` : '-',
    r.stored !== undefined ? `${r.storedOf201}/${r.created} (${r.stored})` : '-',
    r.delivered !== undefined ? `${r.delivered}/${r.expectedDeliveries}` : '-',
    r.doubled ?? '-',
    r.recoveredMs === undefined ? '-' : r.recoveredMs === null ? 'never' : `${(r.recoveredMs / 1000).toFixed(1)} s`,
    r.loadavg ? `${r.loadavg.before[0]}→${r.loadavg.after[0]}` : '-',
    r.fails.length ? 'FAIL' : 'ok',
  ]);
  const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((row) => String(row[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n${line(cols)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  console.log('stored: 201s found in the database / 201s (every stored send of the run); delivered: (event, endpoint) pairs received / committed; recovery: the latest, over the replicas, of the first 201 and the first /healthz 200 of a request sent after the fault\'s end');
}
