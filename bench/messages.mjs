#!/usr/bin/env node
// bench/messages: POST /v1/messages throughput, latency and CPU per request against the BUILT
// service (`npm run build` first). Each service runs in a child process (bench/lib/service-child.mjs),
// so the load generator (autocannon, fixed concurrency, each send its own Idempotency-Key) does not
// share its event loop. The columns, each loaded for BENCH_DURATION_S seconds per round:
//   floor      a minimal Fastify route that validates the body and inserts one row
//              (bench/lib/service-child.mjs serveFloor), in its own child process
//   send       test sends (a number bought with the test key, no campaign needed, no money)
//   live       live sends (a live number on a mock campaign, a wallet funded for every send): each
//              live accept reserves its price in the accept transaction (contract §11)
//   base send  with BENCH_BASELINE=DIR: the same sends against another checkout's build (DIR holds
//   base live  a built dist/ and its node_modules), so a rewrite is compared with the code it
//              replaces on the same machine at the same load
// The phases are interleaved round by round (BENCH_ROUNDS, at least 2), every other round in the
// opposite order, so a load that rises or falls during the run falls on every column alike; each
// phase prints its figures with the 1-minute load average before and after it. The table gives each
// column's totals: req/s (201s over the phases' wall time), p50 (the middle round's; the upper of
// two), p99 (the worst round's), and the serving process's CPU time per 201 (user + system, from
// process.cpuUsage in the child: it does not depend on who wins the cores; the requests still in
// flight when a phase stops, at most one per connection, are counted in the CPU and not in the
// 201s), the spread of req/s and CPU over the rounds (two columns closer than that are not told
// apart), then each send column as a ratio to the floor and, with a baseline, to its baseline. Each
// target first gets BENCH_WARMUP_S of unmeasured sends (round 1 ran ~15% more CPU per request after
// a 1 s warm-up).
// It ends by checking every service: no error and no non-2xx, each 201's id stored exactly once,
// nothing stored beyond what was sent, every test send delivered, the ledger summing to the wallet.
// BENCH_PROFILE=1 then runs one more send phase against a fresh service under `node --cpu-prof` (on
// PostgreSQL, a fresh database on the same server)
// (and one against the baseline's) and prints its top self-time frames within that phase
// (bench/lib/cpuprofile-top.mjs); the profiled phase is not in the table.
// Bounded by a hard deadline; children and temp dirs removed.
// BENCH_STORE=postgres (`npm run bench:postgres`) measures the PostgreSQL engine instead: it
// starts its own throwaway PostgreSQL server (bench/lib/postgres-server.mjs: the test helper's
// settings but DURABLE, fsync and synchronous_commit ON, so every COMMIT waits for its WAL flush),
// a database per column, and the columns are
//   floor      the same route inserting one row with `pg` in a transaction (BEGIN, INSERT, COMMIT),
//              through a pool of the service's size (BENCH_POOL_SIZE, default 10)
//   send       test sends to one service on PostgreSQL (pool BENCH_POOL_SIZE)
//   send ×2    test sends to two replicas on one database, the connections split between them
//              (p50 is the two load generators' mean, p99 the worse of the two; CPU is both summed)
// with the same checks, and per send column the store's round trips per 201 and its write
// transactions run again after losing a race (retries).
//
//   node bench/messages.mjs   BENCH_DURATION_S=8 BENCH_CONNECTIONS=50 BENCH_ROUNDS=2 BENCH_WARMUP_S=3
//                             BENCH_KINDS=floor,test,live (floor,test skips the live column)
//                             BENCH_STORE=postgres BENCH_POOL_SIZE=10 BENCH_PG_BIN=/usr/lib/postgresql/15/bin
//                             BENCH_BASELINE=../other-checkout BENCH_PROFILE=1 BENCH_DEADLINE_S=…
//                             BENCH_PROFILE_TOP=40 (frames listed) BENCH_PROFILE_KEEP=DIR (keep the .cpuprofile)
import { mkdtempSync, readFileSync, readdirSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTop, topSelfFrames } from './lib/cpuprofile-top.mjs';
import { BRAND, CAMPAIGN } from './lib/registration.mjs';
import { hardDeadline, isFloorChild, isServeChild, serveChild, serveFloor, spawnServiceChild } from './lib/service-child.mjs';
import { startBenchPostgres } from './lib/postgres-server.mjs';

if (isServeChild() && process.env.BENCH_SERVE_STORE) {
  // On PostgreSQL: the same counts through the store's pool, and the store's counters.
  await serveChild((svc) => {
    const { pool, counters } = svc.deps.store;
    const one = async (text, values) => (await pool.query(text, values)).rows[0];
    return {
      count: async (which) => one("SELECT COUNT(*)::int AS n, (COUNT(*) FILTER (WHERE status = 'delivered'))::int AS delivered FROM messages WHERE test = $1", [which === 'test']),
      stored: async (json) => {
        const ids = [...new Set(JSON.parse(json))];
        return { distinct: ids.length, stored: (await one('SELECT COUNT(*)::int AS n FROM messages WHERE id = ANY($1)', [ids])).n };
      },
      pgstats: () => ({ ...counters }),
    };
  });
} else if (isServeChild()) {
  await serveChild((svc) => {
    const accountId = svc.bootstrap.accountId;
    // Each repository read awaited: a baseline build and this one may differ in being synchronous.
    const count = async (test) => ({
      ...svc.db.prepare("SELECT COUNT(*) AS n, SUM(status = 'delivered') AS delivered FROM messages WHERE test = ?").get(test ? 1 : 0),
      ...(typeof svc.deps.uow.read === 'function'
        ? await svc.deps.uow.read(async (r) => ({ balance: (await r.wallets.get(accountId))?.balanceCents ?? 0, ledgerSum: await r.ledger.sum(accountId) }))
        : { balance: svc.deps.wallets.get(accountId)?.balanceCents ?? 0, ledgerSum: svc.deps.ledger.sum(accountId) }),
    });
    // How many of these ids (a JSON array) are stored messages, each counted once.
    const storedIds = (json) => {
      const ids = [...new Set(JSON.parse(json))];
      const find = svc.db.prepare('SELECT 1 FROM messages WHERE id = ?');
      return { distinct: ids.length, stored: ids.filter((id) => find.get(id)).length };
    };
    return { count: (which) => count(which === 'test'), stored: storedIds };
  });
} else if (isFloorChild()) {
  await serveFloor();
} else {
  const { default: autocannon } = await import('autocannon');
  const { request } = await import('undici');
  const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
  const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
  const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 3);
  // BENCH_STORE=postgres measures the PostgreSQL engine against a PostgreSQL floor.
  const PG = process.env.BENCH_STORE === 'postgres';
  const LIVE = (process.env.BENCH_KINDS ?? (PG ? 'floor,test' : 'floor,test,live')).split(',').includes('live');
  const BASELINE = process.env.BENCH_BASELINE ? resolvePath(process.env.BENCH_BASELINE) : undefined;
  const PROFILE = process.env.BENCH_PROFILE === '1';
  // How many frames the profile's table lists; BENCH_PROFILE_KEEP=DIR also writes the profile there.
  const PROFILE_TOP = Number(process.env.BENCH_PROFILE_TOP ?? 15);
  const here = fileURLToPath(import.meta.url);

  if (!(ROUNDS >= 2) || !(DURATION_S > 0) || !(CONNECTIONS >= 1)) {
    console.error('bench/messages: BENCH_ROUNDS must be at least 2 (the columns are interleaved), BENCH_DURATION_S and BENCH_CONNECTIONS positive');
    process.exit(2);
  }
  if (PG && (LIVE || BASELINE)) {
    console.error('bench/messages: BENCH_STORE=postgres measures floor, send and send ×2 only (no live column, no baseline)');
    process.exit(2);
  }
  if (BASELINE && !existsSync(join(BASELINE, 'dist/server/main.js'))) {
    console.error(`bench/messages: BENCH_BASELINE=${BASELINE} has no built dist/server/main.js (run npm run build there)`);
    process.exit(2);
  }

  // The columns, in a round's order; the baseline's beside the ones they are compared with.
  const columns = [
    { name: 'floor', build: 'floor' },
    { name: 'send', build: 'own', key: 'test' },
    ...(PG ? [{ name: 'send ×2', build: 'pair', key: 'test' }] : []),
    ...(BASELINE ? [{ name: 'base send', build: 'base', key: 'test', versus: 'send' }] : []),
    ...(LIVE ? [{ name: 'live', build: 'own', key: 'live' }] : []),
    ...(LIVE && BASELINE ? [{ name: 'base live', build: 'base', key: 'live', versus: 'live' }] : []),
  ];
  const phasesAtMost = (columns.length * ROUNDS + (PROFILE ? (BASELINE ? 2 : 1) : 0)) * (DURATION_S + WARMUP_S + 5);
  const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? phasesAtMost + 120) * 1000;

  const children = [];
  const spawnChild = (prefix, mode, options) => {
    const child = spawnServiceChild(here, prefix, mode, options);
    children.push(child);
    return child;
  };
  const cleanup = () => children.forEach((c) => c.kill());
  const disarm = hardDeadline('bench/messages', DEADLINE_MS, cleanup);
  const load1 = () => loadavg()[0];
  const headersFor = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

  /**
   * A service ready to send: its child (this checkout's build, or `root`'s), a test number, and with
   * `live` a live number on a mock campaign (free) with the wallet funded for every live send's hold.
   * Setup is not measured.
   */
  const startService = async (prefix, { root, flags, live, env }) => {
    const child = spawnChild(prefix, '--serve', { root, flags, env });
    const { baseUrl, testKey, liveKey } = await child.ready;
    const post = async (key, path, body) => {
      const res = await request(`${baseUrl}${path}`, { method: 'POST', headers: headersFor(key), body: JSON.stringify(body) });
      const json = await res.body.json();
      if (res.statusCode >= 300) throw new Error(`${path} → ${res.statusCode} ${JSON.stringify(json)}`);
      return json;
    };
    const buyOne = async (key) => {
      const found = await post(key, '/v1/numbers/search', { areaCode: '415', capabilities: ['sms'], limit: 5 });
      return post(key, '/v1/numbers/buy', { phoneNumber: found.data[key === testKey ? 0 : 1].phoneNumber });
    };
    const service = { child, baseUrl, path: '/v1/messages', sent: {}, keys: { test: testKey, live: liveKey }, from: { test: (await buyOne(testKey)).phoneNumber } };
    if (live) {
      const liveNumber = await buyOne(liveKey);
      const brand = await post(liveKey, '/v1/brands', { ...BRAND, mock: true });
      const campaign = await post(liveKey, '/v1/campaigns', { ...CAMPAIGN, brandId: brand.id });
      await post(liveKey, `/v1/numbers/${liveNumber.id}/assign`, { campaignId: campaign.id });
      service.from.live = liveNumber.phoneNumber;
      // Far more than a live column can send at any rate this machine reaches (a hold per send).
      service.funded = await child.ask('fund 100000000');
    }
    return service;
  };

  /**
   * Two replicas on one database (`store`): the first bootstraps it and buys the number,
   * the second joins; a phase splits its connections between them.
   */
  const startPair = async (store) => {
    const first = await startService('svc-bench-replica-a-', { env: { BENCH_SERVE_STORE: store } });
    const second = spawnChild('svc-bench-replica-b-', '--serve', { env: { BENCH_SERVE_STORE: store } });
    const { baseUrl } = await second.ready;
    return { ...first, children: [first.child, second], baseUrls: [first.baseUrl, baseUrl] };
  };

  /** The floor's child, as a target like a service's (any key: the floor checks none); on PostgreSQL with `store`. */
  const startFloor = async (store) => {
    const child = spawnChild('svc-bench-floor-', '--floor', store ? { env: { BENCH_FLOOR_STORE: store } } : {});
    const { baseUrl } = await child.ready;
    return { child, baseUrl, path: '/floor', sent: {}, keys: { test: 'floor' }, from: { test: '+14155550100' } };
  };

  /** One phase: `seconds` of sends with the column's key against its target, each its own Idempotency-Key. */
  let sent = 0;
  const phase = async (target, key, seconds) => {
    const ids = [];
    let issued = 0;
    const load = [load1()];
    // Every phase's sends, warm-up included, for the check that each 201 is stored once.
    const record = (target.sent[key] ??= { ok: 0, issued: 0, ids: [] });
    // A pair of replicas: the connections split between them, their CPU and counters summed.
    const servers = target.children ?? [target.child];
    const urls = target.baseUrls ?? [target.baseUrl];
    const askAll = async (line) => await Promise.all(servers.map((c) => c.ask(line)));
    const cpu0 = await askAll('cpu');
    const stats0 = PG && target.path !== '/floor' ? await askAll('pgstats') : undefined;
    const started = process.hrtime.bigint();
    const results = await Promise.all(urls.map((url) => autocannon({
      url,
      connections: Math.max(1, Math.round(CONNECTIONS / urls.length)),
      duration: seconds,
      timeout: 10,
      requests: [
        {
          method: 'POST',
          path: target.path,
          headers: headersFor(target.keys[key]),
          setupRequest: (req) => {
            const n = sent++;
            issued++;
            return {
              ...req,
              headers: { ...req.headers, 'idempotency-key': `bench-${n}` },
              body: JSON.stringify({ from: target.from[key], to: `+1415${String(2_000_000 + (n % 7_000_000)).padStart(7, '0')}`, body: `Bench message ${n}: your order has shipped.` }),
            };
          },
          onResponse: (status, body) => {
            if (status === 201) ids.push(JSON.parse(body).id);
          },
        },
      ],
    })));
    const wall = Number(process.hrtime.bigint() - started) / 1e9;
    const cpuMicros = (await askAll('cpu')).reduce((a, c, i) => a + c - cpu0[i], 0);
    const stats = stats0 && (await askAll('pgstats')).reduce((a, c, i) => Object.fromEntries(Object.keys(c).map((k) => [k, (a[k] ?? 0) + c[k] - stats0[i][k]])), {});
    load.push(load1());
    const sum = (f) => results.reduce((a, r) => a + f(r), 0);
    const ok = sum((r) => r['2xx']);
    record.ok += ok;
    record.issued += issued;
    for (const id of ids) record.ids.push(id);
    // Two load generators' percentiles: p50 their mean, p99 the worse of the two (never better than the truth).
    const p50 = Math.round(sum((r) => r.latency.p50) / results.length);
    const p99 = Math.max(...results.map((r) => r.latency.p99));
    return { ok, non2xx: sum((r) => r.non2xx), errors: sum((r) => r.errors + r.timeouts), wall, cpuMicros, p50, p99, load, stats };
  };
  const totals = (phases) => {
    const sum = (k) => phases.reduce((a, r) => a + r[k], 0);
    const ok = sum('ok');
    const loads = phases.flatMap((r) => r.load);
    const stats = phases[0].stats && Object.fromEntries(Object.keys(phases[0].stats).map((k) => [k, phases.reduce((a, r) => a + r.stats[k], 0)]));
    return {
      ok, stats, non2xx: sum('non2xx'), errors: sum('errors'), perSec: ok / sum('wall'),
      cpuPerRequestUs: sum('cpuMicros') / Math.max(1, ok),
      p50: phases.map((r) => r.p50).sort((a, b) => a - b)[Math.floor(phases.length / 2)],
      p99: Math.max(...phases.map((r) => r.p99)),
      load: [Math.min(...loads), Math.max(...loads)],
      // The spread over rounds: how far apart two columns must be before it means anything.
      perSecRange: [Math.min(...phases.map((r) => r.ok / r.wall)), Math.max(...phases.map((r) => r.ok / r.wall))],
      cpuRange: [Math.min(...phases.map((r) => r.cpuMicros / Math.max(1, r.ok))), Math.max(...phases.map((r) => r.cpuMicros / Math.max(1, r.ok)))],
    };
  };
  const loadText = ([a, b]) => `${a.toFixed(2)}→${b.toFixed(2)}`;
  const phaseLine = (label, p) =>
    `  ${label.padEnd(22)} ${(p.ok / p.wall).toFixed(0).padStart(6)} req/s  p50 ${String(p.p50).padStart(3)} ms  p99 ${String(p.p99).padStart(4)} ms  ${(p.cpuMicros / Math.max(1, p.ok)).toFixed(0).padStart(5)} µs CPU/req  load ${loadText(p.load)}` +
    (p.stats ? `  ${statsText(p.stats, p.ok)}` : '') +
    (p.non2xx || p.errors ? `  (non-2xx ${p.non2xx}, errors ${p.errors})` : '');
  // PostgreSQL's costs per 201 (the store's counters: a round trip is a wait for the server, which
  // statements sent together share; a retry is a write transaction run again after losing a race to
  // a concurrent one). A build from before the statements were counted apart shows none.
  const perOk = (n, ok) => (n / Math.max(1, ok)).toFixed(1);
  const statsText = (st, ok) =>
    `${perOk(st.roundTrips, ok)} round trips/201, ${st.statements === undefined ? '' : `${perOk(st.statements, ok)} statements/201, `}${st.socketWrites === undefined ? '' : `${perOk(st.socketWrites, ok)} socket writes/201, `}${st.numberings === undefined ? '' : `${perOk(st.numberings, ok)} numberings/201, `}${perOk(st.attempts + st.reads, ok)} transactions/201, ${retriesOf(st)} retries${st.groups === undefined ? '' : `, ${st.groups} groups (${st.groupsUndone} undone)`}`;
  // A build with group commit counts its retries (several writes share a transaction); before, a
  // retry was a transaction beyond one per write.
  const retriesOf = (st) => st.retries ?? st.attempts - st.writes;

  /**
   * Checks one service after its phases (`byKey`: the measured totals of its columns): no error or
   * non-2xx, every 201's id stored exactly once, no more stored than sent (a send in flight when a
   * phase stopped may be stored unanswered), every test send delivered (a test send is written at
   * the state its course ends in), and the ledger summing to the wallet. Returns the problems found.
   */
  const checkService = async (name, service, byKey) => {
    const problems = [];
    const stored = {};
    for (const [key, measured] of Object.entries(byKey)) {
      const t = service.sent[key];
      const counted = await service.child.ask(`count ${key}`);
      const ids = await service.child.ask(`stored ${JSON.stringify(t.ids)}`);
      stored[key] = `${counted.n} ${key} stored (${ids.stored}/${ids.distinct} of ${t.ok} answered ids, ${t.issued} sent)`;
      if (measured.non2xx || measured.errors) problems.push(`${name} ${key}: non-2xx ${measured.non2xx}, errors ${measured.errors}`);
      if (ids.distinct !== t.ok || ids.stored !== t.ok) problems.push(`${name} ${key}: ${t.ok} × 201 but ${ids.distinct} distinct ids, ${ids.stored} stored`);
      if (counted.n < t.ok || counted.n > t.issued) problems.push(`${name} ${key}: ${counted.n} stored, outside [${t.ok} answered, ${t.issued} sent]`);
      if (key === 'test' && counted.delivered !== counted.n) problems.push(`${name} test: ${counted.delivered} of ${counted.n} delivered`);
      if (key === 'live' && counted.ledgerSum !== counted.balance) problems.push(`${name}: ledger sum ${counted.ledgerSum} ≠ balance ${counted.balance}`);
      if (key === 'live') stored.wallet = `wallet ${service.funded.balance} → ${counted.balance} cents, ledger sum ${counted.ledgerSum}`;
    }
    console.log(`  ${name}: ${Object.values(stored).join('; ')}`);
    return problems;
  };

  /** One send phase against a fresh service under --cpu-prof; its top self-time frames within the phase. */
  const profileSends = async (label, root, env) => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-prof-'));
    try {
      const service = await startService('svc-bench-prof-', { root, flags: ['--cpu-prof', `--cpu-prof-dir=${dir}`], env });
      if (WARMUP_S > 0) await phase(service, 'test', WARMUP_S);
      const from = await service.child.ask('now');
      const measured = await phase(service, 'test', DURATION_S);
      const to = await service.child.ask('now');
      await service.child.stop(); // the profile is written as the child exits
      const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
      if (process.env.BENCH_PROFILE_KEEP) {
        const kept = join(resolvePath(process.env.BENCH_PROFILE_KEEP), `${label.replace(/\W+/g, '-')}.cpuprofile`);
        writeFileSync(kept, JSON.stringify({ ...profile, phaseFromUs: from, phaseToUs: to }));
        console.log(`  ${label}: profile kept in ${kept} (phaseFromUs/phaseToUs bound the phase)`);
      }
      const top = topSelfFrames(profile, { limit: PROFILE_TOP, fromUs: from, toUs: to });
      console.log(`\n${phaseLine(`${label} under --cpu-prof`, measured)}`);
      console.log(formatTop(top, `  ${label}: top ${PROFILE_TOP} self-time frames within the phase`));
      const areas = topSelfFrames(profile, { limit: 12, fromUs: from, toUs: to, by: 'area' });
      console.log(formatTop(areas, `  ${label}: self time by area (a SQLite statement counts where it is called)`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  try {
    // One durable server, a database per column (the floor's, one replica's, the pair's).
    const pgServer = PG ? await startBenchPostgres() : undefined;
    if (pgServer) children.push({ kill: () => void pgServer.stop() });
    const targets = PG
      ? {
          floor: await startFloor(await pgServer.createDatabase('floor')),
          own: await startService('svc-bench-messages-', { env: { BENCH_SERVE_STORE: await pgServer.createDatabase('send') } }),
          pair: await startPair(await pgServer.createDatabase('pair')),
        }
      : { floor: await startFloor(), own: await startService('svc-bench-messages-', { live: LIVE }) };
    if (BASELINE) targets.base = await startService('svc-bench-baseline-', { root: BASELINE, live: LIVE });
    const loadAtStart = load1();
    // Warm-up, not measured: each target's first requests (JIT, caches) would fall on round 1 alone.
    if (WARMUP_S > 0) for (const column of columns) await phase(targets[column.build], column.key ?? 'test', WARMUP_S);

    console.log(
      `bench/messages: ${ROUNDS} interleaved rounds × ${DURATION_S} s per column, ${CONNECTIONS} connections on loopback, system clock; ` +
        `load average (1 min) ${loadAtStart.toFixed(2)} at start${BASELINE ? `; baseline ${BASELINE}` : ''}` +
        (pgServer ? `; PostgreSQL on loopback, durable (${pgServer.settings}), pool ${process.env.BENCH_POOL_SIZE ?? 10} per process` : ''),
    );
    const phases = new Map(columns.map((c) => [c.name, []]));
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? columns : [...columns].reverse();
      for (const column of order) {
        const p = await phase(targets[column.build], column.key ?? 'test', DURATION_S);
        phases.get(column.name).push(p);
        console.log(phaseLine(`round ${r + 1}/${ROUNDS} ${column.name}`, p));
      }
    }
    const t = new Map(columns.map((c) => [c.name, totals(phases.get(c.name))]));

    // The table: one column per pass, its totals, then its ratios to the floor and to its baseline.
    const cell = (v) => String(v).padStart(12);
    const row = (label, f) => console.log(`  ${label.padEnd(22)}${columns.map((c) => cell(f(t.get(c.name), c))).join('')}`);
    const floor = t.get('floor');
    const ratio = (a, b) => `×${(a / b).toFixed(2)}`;
    const sendOnly = (f) => (p, c) => (c.name === 'floor' ? '' : f(p, c));
    console.log('');
    row('', (_, c) => c.name);
    row('req/s', (p) => p.perSec.toFixed(0));
    row('p50 ms', (p) => p.p50);
    row('p99 ms', (p) => p.p99);
    row('CPU µs/request', (p) => p.cpuPerRequestUs.toFixed(0));
    row('req/s by round', (p) => p.perSecRange.map((v) => v.toFixed(0)).join('–'));
    row('CPU µs by round', (p) => p.cpuRange.map((v) => v.toFixed(0)).join('–'));
    row('201s', (p) => p.ok);
    if (PG) {
      row('round trips/201', sendOnly((p) => perOk(p.stats.roundTrips, p.ok)));
      row('statements/201', sendOnly((p) => (p.stats.statements === undefined ? '-' : perOk(p.stats.statements, p.ok))));
      row('socket writes/201', sendOnly((p) => (p.stats.socketWrites === undefined ? '-' : perOk(p.stats.socketWrites, p.ok))));
      row('writes per transaction', sendOnly((p) => (p.stats.writes / Math.max(1, p.stats.attempts)).toFixed(1)));
      row('retries', sendOnly((p) => retriesOf(p.stats)));
    }
    row('req/s ÷ floor', sendOnly((p) => ratio(p.perSec, floor.perSec)));
    row('p99 ÷ floor', sendOnly((p) => ratio(p.p99, floor.p99)));
    row('CPU/request ÷ floor', sendOnly((p) => ratio(p.cpuPerRequestUs, floor.cpuPerRequestUs)));
    if (BASELINE) {
      // This build over the baseline's: above 1 for req/s (or below for p99, CPU) is this build faster.
      const vsBase = (f) => (p, c) => {
        const base = columns.find((b) => b.versus === c.name);
        return base ? f(p, t.get(base.name)) : '';
      };
      row('req/s ÷ base', vsBase((p, b) => ratio(p.perSec, b.perSec)));
      row('p99 ÷ base', vsBase((p, b) => ratio(p.p99, b.p99)));
      row('CPU/request ÷ base', vsBase((p, b) => ratio(p.cpuPerRequestUs, b.cpuPerRequestUs)));
    }
    row('load 1m (min→max)', (p) => loadText(p.load));
    console.log('');

    await targets.floor.child.stop();
    const problems = [];
    if (floor.non2xx || floor.errors) problems.push(`floor: non-2xx ${floor.non2xx}, errors ${floor.errors}`);
    for (const build of BASELINE ? ['own', 'base'] : PG ? ['own', 'pair'] : ['own']) {
      const byKey = Object.fromEntries(columns.filter((c) => c.build === build).map((c) => [c.key, t.get(c.name)]));
      problems.push(...(await checkService({ own: 'this build', base: 'baseline', pair: 'two replicas' }[build], targets[build], byKey)));
      for (const child of targets[build].children ?? [targets[build].child]) await child.stop();
    }
    if (PROFILE) {
      // On PostgreSQL, the send on a database of its own on the same server.
      await profileSends('send', undefined, pgServer ? { BENCH_SERVE_STORE: await pgServer.createDatabase('profile') } : undefined);
      if (BASELINE) await profileSends('base send', BASELINE);
    }
    await pgServer?.stop();
    disarm();
    if (problems.length) {
      console.error(`bench/messages: ${problems.join('; ')}`);
      process.exit(1);
    }
  } catch (err) {
    console.error(err);
    cleanup();
    process.exit(1);
  }
}
