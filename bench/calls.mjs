#!/usr/bin/env node
// bench/calls: inbound calls through the call engine, and the routing decision webhook's hop, against
// the built code (npm run build first). The call is the target's shape: an IVR of 12 keys whose key 1
// rings a ring set of 10 destinations in staged waves, the 10th answering. Three parts, each quoted
// against a floor measured in the same run (the machines are shared and noisy; only ratios travel):
//   engine    ENGINE_CALLS (default 2000) calls run to their end by the pure engine (runToEnd, in-memory
//             deps): calls per second. Floor: the same number of structured clones of each call's
//             final state once per step it took — what a runner that only copied the state would cost.
//   service   SERVICE_CALLS (default 300) sandbox calls over HTTP on a manual clock, then the clock
//             walked until every call ended: calls per second, placing to the end, with every step's
//             row, trace, events and webhook outbox in SQLite. Floor: as many sandbox inbound texts
//             (a write and an event each) on the same service.
//   decision  HOPS (default 500) routing decision requests, each signed and sent to a node:http
//             receiver on loopback by the service's client (endpoint lookup, URL safety, signing,
//             POST, reading the reply): p50/p99. Floor: the same POST sent with undici directly.
// Bounded: the process exits by itself after TIMEOUT_SECS (default 180).
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startService } from '../dist/server/main.js';
import { runToEnd, startCall } from '../dist/server/domain/voice/call-engine.js';
import { SimulatedTranscriber } from '../dist/server/world/transcriber.js';

const ENGINE_CALLS = Number(process.env.ENGINE_CALLS ?? 2000);
const SERVICE_CALLS = Number(process.env.SERVICE_CALLS ?? 300);
const HOPS = Number(process.env.HOPS ?? 500);
const TIMEOUT_SECS = Number(process.env.TIMEOUT_SECS ?? 180);

const hardStop = setTimeout(() => {
  console.error(`bench/calls: did not finish within ${TIMEOUT_SECS} s; giving up`);
  process.exit(2);
}, TIMEOUT_SECS * 1000);
hardStop.unref();

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 100) / 100;
};
const ratio = (a, b) => Math.round((a / b) * 100) / 100;
const CALLER = '+14155550100';

// ---- the route: 12 IVR keys; key 1 rings 10 destinations in 5 staged waves of 2 --------------------
const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '*', '#'];
const ringSet = Array.from({ length: 10 }, (_, i) => ({ destinationType: 'pstn', destination: `+1415555${String(1000 + i)}`, stage: Math.floor(i / 2), ringTimeoutSecs: 5 }));
const routeBody = {
  destinationType: 'pstn',
  destination: '+14155552000',
  ivr: {
    enabled: true,
    greeting: { text: 'Press 1 for the team, 0 for the operator' },
    keys: KEYS.map((digit, i) =>
      i === 0
        ? { digit, label: 'Team', action: { type: 'ring', ringMode: 'staged', destinations: ringSet } }
        : { digit, label: `Key ${digit}`, action: { type: 'voicemail' } },
    ),
  },
};
// The 10th destination (the last wave) answers after 2 s of ringing and talks for 30 s.
const scenario = (destinationId) => ({ answer: { destinationId, afterSecs: 2, durationSecs: 30 }, digits: '1', machine: false, hangupAfterSecs: null });

// ---- the service, and the route as it stores it -------------------------------------------------------------------------------------------
const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-calls-'));
const svc = await startService({
  host: '127.0.0.1',
  port: 0,
  dataDir,
  clock: 'manual',
  rateLimit: { ratePerSec: 1e9, burst: 1e9 },
  // Loopback only: the decision client may connect to 127.0.0.1 and nowhere else.
  webhooks: { destinationGuard: (address) => address === '127.0.0.1' || address === '::1' },
});
const auth = { authorization: `Bearer ${svc.bootstrap.liveKey}`, 'content-type': 'application/json' };
async function api(method, path, body) {
  const res = await request(`${svc.baseUrl}${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
  return text ? JSON.parse(text) : null;
}
const search = await api('POST', '/v1/numbers/search', { areaCode: '415', limit: 100 });
const pick = search.data.find((n) => n.capabilities.voice && n.capabilities.sms);
const number = await api('POST', '/v1/numbers/buy', { phoneNumber: pick.phoneNumber });
await api('PUT', `/v1/numbers/${number.id}/route`, routeBody);
const saved = (await api('GET', `/v1/numbers/${number.id}/route`)).route;
const tenth = saved.ivr.keys[0].action.destinations[9].id;
const apiScenario = scenario(tenth);
// The engine runs the route exactly as the service stored it.
const engineRoute = saved;
const engineScenario = scenario(tenth);



// ---- engine ------------------------------------------------------------------------------------------
const engineDeps = {
  blocklist: { find: async () => null },
  devices: { find: async () => null },
  decisions: { decide: async () => ({ kind: 'failure', reason: 'not_sent', detail: 'bench', latencyMs: 0 }) },
  transcriber: new SimulatedTranscriber(),
  newId: (p) => `${p}_bench`,
};
const T0 = Date.UTC(2026, 0, 1);
async function runEngine(n) {
  let steps = 0;
  let last;
  for (let i = 0; i < n; i++) {
    const state = startCall({ callId: `call_${i}`, accountId: 'acct', numberId: 'num', from: CALLER, to: '+14155550111', startedAt: T0, route: engineRoute, scenario: engineScenario });
    const r = await runToEnd(engineDeps, state);
    steps += r.state.trace.length;
    last = r;
  }
  return { steps, last };
}
// Warm up, check the shape (the 10th destination answered after the IVR), then measure.
const warm = await runEngine(50);
if (warm.last.state.status !== 'completed' || warm.last.state.answeredBy !== ringSet[9].destination) {
  throw new Error(`engine: the bench call did not end as designed: ${warm.last.state.status}, answered by ${warm.last.state.answeredBy}`);
}
const dialed = warm.last.state.trace.filter((t) => t.step === 'leg.dialed').length;
let t = performance.now();
const eng = await runEngine(ENGINE_CALLS);
const engineMs = performance.now() - t;
const perCallSteps = eng.steps / ENGINE_CALLS;
t = performance.now();
for (let i = 0; i < ENGINE_CALLS; i++) for (let s = 0; s < perCallSteps; s++) structuredClone(eng.last.state);
const cloneFloorMs = performance.now() - t;
const engine = {
  calls: ENGINE_CALLS,
  legsDialedPerCall: dialed,
  traceEntriesPerCall: Math.round(perCallSteps),
  callsPerSec: Math.round(ENGINE_CALLS / (engineMs / 1000)),
  floorCallsPerSec: Math.round(ENGINE_CALLS / (cloneFloorMs / 1000)),
  ratioToFloor: ratio(engineMs, cloneFloorMs),
};

// ---- service ---------------------------------------------------------------------------------------------
async function inParallel(n, concurrency, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < n) await fn(next++);
  }));
}
// Floor: sandbox inbound texts, a write and an event each, on the same service and connections.
t = performance.now();
await inParallel(SERVICE_CALLS, 8, (i) => api('POST', '/v1/sandbox/inbound-messages', { from: CALLER, to: number.phoneNumber, body: `floor ${i}` }));
const textsMs = performance.now() - t;

t = performance.now();
const ids = [];
await inParallel(SERVICE_CALLS, 8, async () => ids.push((await api('POST', '/v1/sandbox/calls', { from: CALLER, to: number.phoneNumber, scenario: apiScenario })).id));
const placedMs = performance.now() - t;
// Walk the clock past every call's end (IVR prompt, 4 waves of 5 s, 2 s ringing, 30 s talk).
await svc.deps.scheduler.advance(0);
await svc.deps.scheduler.advance(120);
const serviceMs = performance.now() - t;
// Repositories are reached only inside a transaction; one read counts them all.
const ended = await svc.deps.uow.read(async (tx) => {
  let n = 0;
  for (const id of ids) if ((await tx.calls.getById(id))?.status === 'completed') n++;
  return n;
});
if (ended !== SERVICE_CALLS) throw new Error(`service: ${ended} of ${SERVICE_CALLS} calls completed`);
const service = {
  calls: SERVICE_CALLS,
  placedPerSec: Math.round(SERVICE_CALLS / (placedMs / 1000)),
  callsToEndPerSec: Math.round(SERVICE_CALLS / (serviceMs / 1000)),
  floorTextsPerSec: Math.round(SERVICE_CALLS / (textsMs / 1000)),
  ratioToFloor: ratio(serviceMs, textsMs),
};

// ---- decision hop ----------------------------------------------------------------------------------------
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"action":"continue"}'));
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const rxOrigin = `http://127.0.0.1:${receiver.address().port}`;
await api('POST', '/v1/webhooks', { url: `${rxOrigin}/events`, events: ['message.status'] });
const target = { url: `${rxOrigin}/decide`, timeoutMs: 5000 };
const body = { numberId: number.id, callId: 'call_bench', from: CALLER, to: number.phoneNumber, startedAt: new Date(T0).toISOString() };
const hop = [];
const floor = [];
for (let i = 0; i < 50; i++) await svc.deps.decisions.decide(svc.bootstrap.accountId, body, target); // warm-up
for (let i = 0; i < HOPS; i++) {
  // Alternate, so both see the same moments of a noisy machine.
  const reply = await svc.deps.decisions.decide(svc.bootstrap.accountId, body, target);
  if (reply.kind !== 'response' || reply.status !== 200) throw new Error(`decision hop: ${JSON.stringify(reply)}`);
  hop.push(reply.latencyMs);
  const s = performance.now();
  const res = await request(target.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.body.text();
  floor.push(performance.now() - s);
}
const decision = {
  hops: HOPS,
  p50ms: pct(hop, 50),
  p99ms: pct(hop, 99),
  floorP50ms: pct(floor, 50),
  floorP99ms: pct(floor, 99),
  p99RatioToFloor: ratio(pct(hop, 99), pct(floor, 99)),
};

await svc.close();
receiver.close();
rmSync(dataDir, { recursive: true, force: true });
console.log(JSON.stringify({ engine, service, decision }, null, 2));
process.exit(0);
