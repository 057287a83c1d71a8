#!/usr/bin/env node
// bench/webhooks: signed webhook delivery and the events feed's long-poll, against the BUILT code
// (npm run build first). The service runs in a child process (bench/lib/service-child.mjs, system
// clock); this process holds the receivers (node:http on loopback, one port each, verifying every
// signature) and the load generator. Each figure is quoted as a ratio to its floor, measured in the
// same run: a bare undici POST loop, in a child process of its own, to the same
// receiver(s), same body size, same concurrency as the worker's window, no signing, no database.
//   floor×1 / burst×1  N events (default 2000) to ONE endpoint, emitted in transactions of 100:
//                      deliveries per second, event createdAt → receipt (p50, p99)
//   floor×8 / burst×8  N8 events (default 1000) to 8 endpoints on 8 receivers: deliveries per second
//   paced              PACED events (default 200) at RATE per second (default 100): latency, no backlog
//   under load         DURATION seconds (default 20) of POST /v1/messages (test key, fresh
//                      Idempotency-Key each) from CONNECTIONS (default 50) autocannon connections,
//                      one endpoint subscribed to message.status: events accepted vs delivered during
//                      the load and after the drain, event → receipt lag p50/p99 under load
//   long-poll          POLLS times (default 50): GET /v1/events?wait=30 parked, one event emitted
// Bounded: a hard deadline (DEADLINE_S, default 150); the children and temp dirs are removed.
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { hardDeadline, isServeChild, serveChild, spawnServiceChild } from './lib/service-child.mjs';

const FLOOR_MODE = '--post-floor';
// The worker's defaults: the floor posts with the same concurrency.
const { DEFAULT_WEBHOOK_OPTIONS } = await import('../dist/server/webhooks/delivery-worker.js');
const WINDOW = DEFAULT_WEBHOOK_OPTIONS.window;
const CONCURRENCY = DEFAULT_WEBHOOK_OPTIONS.concurrency;

if (isServeChild()) {
  await serveChild((svc) => {
    const accountId = svc.bootstrap.accountId;
    let n = 0;
    // An event is emitted inside a write transaction (the unit of work), as a domain
    // function would; its webhook deliveries are written in the same transaction.
    const emitOne = (tx, type) =>
      type === 'message.received'
        ? tx.events.emit(accountId, type, { messageId: `msg_bench_${n++}`, from: '+14155550100', to: '+14155550199', body: 'hi' })
        : tx.events.emit(accountId, type, { messageId: `msg_bench_${n++}`, status: 'delivered', reason: null });
    return {
      // `count type`: emitted as fast as the store takes them, 100 per transaction, yielding between
      // transactions so the worker runs while the burst is still being written.
      emit: async (arg) => {
        const [count, type] = arg.split(' ');
        const started = performance.now();
        for (let i = 0; i < Number(count); i += 100) {
          await svc.deps.uow.write(async (tx) => {
            for (let j = i; j < Math.min(Number(count), i + 100); j++) await emitOne(tx, type);
          });
          await new Promise((r) => setImmediate(r));
        }
        return { ms: performance.now() - started };
      },
      // `count rate type`: one event per transaction, paced.
      paced: async (arg) => {
        const [count, rate, type] = arg.split(' ');
        for (let i = 0; i < Number(count); i++) {
          await svc.deps.uow.write((tx) => emitOne(tx, type));
          await new Promise((r) => setTimeout(r, 1000 / Number(rate)));
        }
        return { ok: true };
      },
      one: async (type) => {
        const e = await svc.deps.uow.write((tx) => emitOne(tx, type));
        return { id: e.id, createdAt: e.createdAt };
      },
      // The service's CPU time in µs (user + system): per delivery, a figure that does not depend
      // on who wins the machine's cores.
      cpu: () => {
        const u = process.cpuUsage();
        return { us: u.user + u.system };
      },
      counts: (type) => ({
        events: svc.db.prepare('SELECT COUNT(*) AS n FROM events WHERE type = ?').get(type).n,
        ...svc.db.prepare("SELECT COUNT(*) AS deliveries, SUM(status = 'succeeded') AS succeeded, SUM(next_attempt_at IS NOT NULL) AS due FROM webhook_deliveries WHERE event_type = ?").get(type),
      }),
    };
  });
} else if (process.argv[2] === FLOOR_MODE) {
  // The floor: `run <urls comma-separated> <total> <per-url concurrency> <body bytes>` → { ms, ok }.
  const { Pool } = await import('undici');
  createInterface({ input: process.stdin }).on('line', async (line) => {
    if (line === 'stop') process.exit(0);
    const [, urls, total, perUrl, bytes] = line.split(' ');
    const targets = urls.split(',');
    const body = JSON.stringify({ pad: 'x'.repeat(Math.max(0, Number(bytes) - 10)) });
    const pools = targets.map((u) => new Pool(new URL(u).origin, { connections: Number(perUrl), pipelining: 1 }));
    let left = Number(total);
    let ok = 0;
    const started = performance.now();
    const loop = async (pool, path) => {
      while (left > 0) {
        left--;
        const res = await pool.request({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body });
        await res.body.dump();
        if (res.statusCode < 300) ok++;
      }
    };
    await Promise.all(targets.flatMap((u, i) => Array.from({ length: Number(perUrl) }, () => loop(pools[i], new URL(u).pathname))));
    const ms = performance.now() - started;
    await Promise.all(pools.map((p) => p.close()));
    process.stdout.write(`${JSON.stringify({ ms, ok })}\n`);
  });
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
} else {
  const { verifyWebhookSignature } = await import('../dist/webhooks/verify.js');
  const { default: autocannon } = await import('autocannon');
  const N = Number(process.env.N ?? 2000);
  const N8 = Number(process.env.N8 ?? 1000);
  const PACED = Number(process.env.PACED ?? 200);
  const RATE = Number(process.env.RATE ?? 100);
  const DURATION = Number(process.env.DURATION ?? 20);
  const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
  const POLLS = Number(process.env.POLLS ?? 50);
  const DEADLINE_MS = Number(process.env.DEADLINE_S ?? 150) * 1000;
  const PHASE_MS = 30_000;

  const me = fileURLToPath(import.meta.url);
  const child = spawnServiceChild(me, 'svc-bench-webhooks-');
  let floorChild;
  const receivers = [];
  const cleanup = () => {
    child.kill();
    floorChild?.kill();
    for (const r of receivers) r.server.close();
  };
  const disarm = hardDeadline('bench/webhooks', DEADLINE_MS, cleanup);

  const pct = (values, p) => {
    if (values.length === 0) return null;
    const sorted = Float64Array.from(values).sort();
    return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 10) / 10;
  };
  const summary = (values) => ({ count: values.length, p50ms: pct(values, 50), p99ms: pct(values, 99), maxms: pct(values, 100) });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  // ---- receivers: every signed delivery verified; /floor posts counted only ----
  const secrets = new Map(); // `${port}${path}` → secret
  const receipts = []; // { at, latencyMs, type, id }
  let badSignatures = 0;
  let floorReceived = 0;
  let sampleBytes = 0;
  const startReceiver = () =>
    new Promise((resolve) => {
      const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          if (req.url === '/floor') {
            floorReceived++;
            res.writeHead(204).end();
            return;
          }
          const at = Date.now();
          const raw = Buffer.concat(chunks);
          const secret = secrets.get(`${server.address().port}${req.url}`);
          if (!secret || !verifyWebhookSignature(raw, req.headers['x-service-signature'], secret)) badSignatures++;
          const body = JSON.parse(raw.toString('utf8'));
          sampleBytes = raw.length;
          receipts.push({ at, latencyMs: at - Date.parse(body.createdAt), type: body.type, id: body.id });
          res.writeHead(204).end();
        });
      });
      server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` }));
    });
  const waitFor = async (pred, label) => {
    const deadline = Date.now() + PHASE_MS;
    while (!pred()) {
      if (Date.now() > deadline) throw new Error(`${label}: not done within ${PHASE_MS / 1000} s (${receipts.length} receipts)`);
      await sleep(5);
    }
  };

  try {
    for (let i = 0; i < 8; i++) receivers.push(await startReceiver());
    const { baseUrl, liveKey, testKey } = await child.ready;
    const headersFor = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
    const post = async (key, path, body) => {
      const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: headersFor(key), body: JSON.stringify(body) });
      const json = await res.json();
      if (res.status >= 300) throw new Error(`${path} → ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const endpoint = async (rx, path, events) => {
      const ep = await post(liveKey, '/v1/webhooks', { url: `${rx.url}${path}`, events });
      secrets.set(`${new URL(rx.url).port}${path}`, ep.secret);
    };
    // message.status → one endpoint (receiver 0); message.received → 8 endpoints (receivers 0..7).
    await endpoint(receivers[0], '/one', ['message.status']);
    for (const rx of receivers) await endpoint(rx, '/eight', ['message.received']);
    const ofType = (type) => receipts.filter((r) => r.type === type);

    // Warm-up (connections, JIT) and the body size the floor sends.
    await child.ask('emit 100 message.status');
    await waitFor(() => ofType('message.status').length >= 100, 'warm-up');
    receipts.length = 0;

    floorChild = spawnServiceChild(me, 'svc-bench-webhooks-floor-', FLOOR_MODE);
    await floorChild.ready;
    const floor = async (targets, total, perUrl) => {
      const before = floorReceived;
      const r = await floorChild.ask(`run ${targets.map((t) => `${t.url}/floor`).join(',')} ${total} ${perUrl} ${sampleBytes}`);
      if (r.ok !== total || floorReceived - before !== total) throw new Error(`floor: ${r.ok} of ${total}`);
      return { posts: total, perSec: Math.round(total / (r.ms / 1000)) };
    };
    const burst = async (type, events, endpoints) => {
      receipts.length = 0;
      const cpuBefore = (await child.ask('cpu')).us;
      const started = Date.now();
      const emitted = await child.ask(`emit ${events} ${type}`);
      const written = Date.now();
      const beforeWritten = receipts.length;
      await waitFor(() => receipts.length >= events * endpoints, `burst of ${type}`);
      const last = Math.max(...receipts.map((r) => r.at));
      const cpuUs = (await child.ask('cpu')).us - cpuBefore;
      const wallMs = last - started;
      return {
        events,
        endpoints,
        deliveries: receipts.length,
        eventsEmittedPerSec: Math.round(events / (emitted.ms / 1000)),
        wallMs,
        perSec: Math.round(receipts.length / (wallMs / 1000)),
        // Writing the events included (their outbox writes the deliveries).
        serviceCpuUsPerDelivery: Math.round(cpuUs / receipts.length),
        // The backlog left once every event is written, drained with the process to itself (the
        // events are written in the service's process, so they compete with the worker until then).
        backlogAtWritten: receipts.length - beforeWritten,
        drainPerSec: last > written ? Math.round((receipts.length - beforeWritten) / ((last - written) / 1000)) : null,
        latency: summary(receipts.map((r) => r.latencyMs)),
      };
    };

    const floor1 = await floor([receivers[0]], N, WINDOW);
    const burst1 = await burst('message.status', N, 1);
    const floor8 = await floor(receivers, N8 * 8, CONCURRENCY / 8);
    const burst8 = await burst('message.received', N8, 8);
    await floorChild.stop();
    floorChild = undefined;

    receipts.length = 0;
    await child.ask(`paced ${PACED} ${RATE} message.status`);
    await waitFor(() => receipts.length >= PACED, 'paced');
    const paced = { events: PACED, ratePerSec: RATE, latency: summary(receipts.map((r) => r.latencyMs)) };

    // ---- under load: test sends for DURATION s, one endpoint on message.status ----
    receipts.length = 0;
    const found = await post(testKey, '/v1/numbers/search', { areaCode: '415', capabilities: ['sms'], limit: 1 });
    const from = (await post(testKey, '/v1/numbers/buy', { phoneNumber: found.data[0].phoneNumber })).phoneNumber;
    const atStart = await child.ask('counts message.status');
    let i = 0;
    const loadStart = Date.now();
    const load = await autocannon({
      url: baseUrl,
      connections: CONNECTIONS,
      duration: DURATION,
      timeout: 10,
      requests: [
        {
          method: 'POST',
          path: '/v1/messages',
          headers: headersFor(testKey),
          setupRequest: (req) => {
            const n = i++;
            return {
              ...req,
              headers: { ...req.headers, 'idempotency-key': `bench-webhooks-${n}` },
              body: JSON.stringify({ from, to: `+1415${String(2_000_000 + (n % 7_000_000)).padStart(7, '0')}`, body: `Bench message ${n}` }),
            };
          },
        },
      ],
    });
    const loadEnd = Date.now();
    const duringLoad = receipts.filter((r) => r.at <= loadEnd);
    const atEnd = await child.ask('counts message.status');
    const accepted = atEnd.events - atStart.events;
    const drainStart = Date.now();
    await waitFor(() => receipts.length >= accepted, 'drain after load');
    const drainMs = Date.now() - drainStart;
    const underLoad = {
      seconds: (loadEnd - loadStart) / 1000,
      sendsPerSec: Math.round(load['2xx'] / ((loadEnd - loadStart) / 1000)),
      eventsAccepted: accepted,
      deliveredDuringLoad: duringLoad.length,
      deliveredAfterDrain: receipts.length,
      drainMs,
      lagDuringLoad: summary(duringLoad.map((r) => r.latencyMs)),
      lagAll: summary(receipts.map((r) => r.latencyMs)),
    };

    // ---- long-poll ----
    const pollLatencies = [];
    let cursor = (await (await fetch(`${baseUrl}/v1/events?after=now`, { headers: headersFor(liveKey) })).json()).cursor;
    for (let p = 0; p < POLLS; p++) {
      const polling = fetch(`${baseUrl}/v1/events?after=${cursor}&wait=30&types=message.received`, { headers: headersFor(liveKey), signal: AbortSignal.timeout(PHASE_MS) });
      await sleep(25); // let the request reach the service and park before the event is emitted
      const e = await child.ask('one message.received');
      const res = await polling;
      const arrived = Date.now();
      const page = await res.json();
      if (page.data.length !== 1 || page.data[0].eventId !== e.id) throw new Error(`long-poll ${p}: unexpected page ${JSON.stringify(page).slice(0, 200)}`);
      pollLatencies.push(arrived - e.createdAt);
      cursor = page.cursor;
    }
    const longPoll = { polls: POLLS, latency: summary(pollLatencies) };
    const final = await child.ask('counts message.status');

    await child.stop();
    for (const r of receivers) r.server.close();
    disarm();

    const ratio = (a, b) => (a / b).toFixed(2);
    console.log(`bench/webhooks: window ${WINDOW} per endpoint, ${CONCURRENCY} across endpoints; body ${sampleBytes} bytes; system clock`);
    console.log(`  floor×1   ${floor1.perSec}/s  bare undici POSTs to one receiver, ${WINDOW} at once`);
    console.log(`  burst×1   ${burst1.perSec}/s  ${burst1.deliveries} signed deliveries in ${burst1.wallMs} ms (events written at ${burst1.eventsEmittedPerSec}/s); createdAt→receipt p50 ${burst1.latency.p50ms} ms, p99 ${burst1.latency.p99ms} ms; service CPU ${burst1.serviceCpuUsPerDelivery} µs per delivery`);
    console.log(`  burst×1 / floor×1  ${ratio(burst1.perSec, floor1.perSec)}   backlog drain after the last event was written: ${burst1.drainPerSec}/s (${burst1.backlogAtWritten} left), / floor×1 ${ratio(burst1.drainPerSec, floor1.perSec)}`);
    console.log(`  floor×8   ${floor8.perSec}/s  bare undici POSTs to 8 receivers, ${CONCURRENCY / 8} at once each`);
    console.log(`  burst×8   ${burst8.perSec}/s  ${burst8.deliveries} signed deliveries in ${burst8.wallMs} ms; createdAt→receipt p50 ${burst8.latency.p50ms} ms, p99 ${burst8.latency.p99ms} ms; service CPU ${burst8.serviceCpuUsPerDelivery} µs per delivery`);
    console.log(`  burst×8 / floor×8  ${ratio(burst8.perSec, floor8.perSec)}   backlog drain after the last event was written: ${burst8.drainPerSec}/s (${burst8.backlogAtWritten} left), / floor×8 ${ratio(burst8.drainPerSec, floor8.perSec)}`);
    console.log(`  paced     ${PACED} events at ${RATE}/s: createdAt→receipt p50 ${paced.latency.p50ms} ms, p99 ${paced.latency.p99ms} ms`);
    console.log(
      `  under load  ${CONNECTIONS} connections × ${underLoad.seconds.toFixed(1)} s of test sends (${underLoad.sendsPerSec}/s): ${underLoad.eventsAccepted} message.status accepted, ` +
        `${underLoad.deliveredDuringLoad} delivered during the load (${ratio(underLoad.deliveredDuringLoad, underLoad.eventsAccepted)}), ${underLoad.deliveredAfterDrain} after a ${underLoad.drainMs} ms drain; ` +
        `lag during load p50 ${underLoad.lagDuringLoad.p50ms} ms, p99 ${underLoad.lagDuringLoad.p99ms} ms (all: p50 ${underLoad.lagAll.p50ms}, p99 ${underLoad.lagAll.p99ms})`,
    );
    console.log(`  long-poll ${POLLS} polls: createdAt→response p50 ${longPoll.latency.p50ms} ms, p99 ${longPoll.latency.p99ms} ms`);
    console.log(JSON.stringify({ bench: 'webhooks', node: process.version, floor1, burst1, floor8, burst8, paced, underLoad, longPoll, badSignatures, final }));
    if (badSignatures > 0 || final.succeeded !== final.deliveries) {
      console.error(`bench/webhooks: ${badSignatures} bad signatures, ${final.deliveries - final.succeeded} deliveries not succeeded; the figures are not valid`);
      process.exit(1);
    }
  } catch (err) {
    console.error(err);
    cleanup();
    process.exit(1);
  }
}
