#!/usr/bin/env node
// bench/webhooks: signed webhook delivery and the events feed's long-poll, against the built code
// (npm run build first). Starts the local service (system clock) on 127.0.0.1:0 in a temp dir and a
// node:http receiver on loopback that verifies every signature, then measures:
//   burst     N events (default 2000) emitted as fast as the store takes them, to ENDPOINTS receivers
//             (default 1): deliveries per second, and event createdAt → receipt latency (p50, p99)
//   paced     PACED events (default 200) at RATE per second (default 100): latency without a backlog
//   long-poll POLLS times (default 50): GET /v1/events?wait=30 parked, one event emitted; latency from
//             the event's creation to the response arriving (p50, p99)
// Bounded: every phase has a deadline (TIMEOUT_SECS, default 60) and the process exits by itself.
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../dist/server/main.js';
import { inTransaction } from '../dist/server/storage/database.js';
import { verifyWebhookSignature } from '../dist/webhooks/verify.js';

const N = Number(process.env.N ?? 2000);
const ENDPOINTS = Number(process.env.ENDPOINTS ?? 1);
const PACED = Number(process.env.PACED ?? 200);
const RATE = Number(process.env.RATE ?? 100);
const POLLS = Number(process.env.POLLS ?? 50);
const TIMEOUT_SECS = Number(process.env.TIMEOUT_SECS ?? 60);

const hardStop = setTimeout(() => {
  console.error(`bench/webhooks: did not finish within ${TIMEOUT_SECS * 3} s; giving up`);
  process.exit(2);
}, TIMEOUT_SECS * 3 * 1000);
hardStop.unref();

const pct = (values, p) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 10) / 10;
};
const summary = (values) => ({ count: values.length, p50ms: pct(values, 50), p99ms: pct(values, 99), maxms: pct(values, 100) });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- receivers ----
const secrets = new Map(); // path → secret
const receipts = new Map(); // eventId → [{ at, latencyMs }]
let badSignatures = 0;
let received = 0;
const receiver = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    const raw = Buffer.concat(chunks);
    const secret = secrets.get(req.url);
    if (!secret || !verifyWebhookSignature(raw, req.headers['x-service-signature'], secret)) badSignatures++;
    const body = JSON.parse(raw.toString('utf8'));
    received++;
    const list = receipts.get(body.id) ?? [];
    list.push({ at, latencyMs: at - Date.parse(body.createdAt) });
    receipts.set(body.id, list);
    res.writeHead(204).end();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const rxPort = receiver.address().port;

// ---- service ----
const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-webhooks-'));
const svc = await startService({ host: '127.0.0.1', port: 0, dataDir, clock: 'system', rateLimit: { ratePerSec: 1e9, burst: 1e9 } });
const auth = { authorization: `Bearer ${svc.bootstrap.liveKey}`, 'content-type': 'application/json' };
const accountId = svc.bootstrap.accountId;

for (let i = 0; i < ENDPOINTS; i++) {
  const path = `/hook/${i}`;
  const res = await fetch(`${svc.baseUrl}/v1/webhooks`, { method: 'POST', headers: auth, body: JSON.stringify({ url: `http://127.0.0.1:${rxPort}${path}`, events: ['message.*'] }) });
  if (res.status !== 201) throw new Error(`create endpoint: ${res.status} ${await res.text()}`);
  secrets.set(path, (await res.json()).secret);
}

const emitOne = (i) =>
  inTransaction(svc.deps.db, () => svc.deps.events.emit(accountId, 'message.status', { messageId: `msg_bench_${i}`, status: 'delivered', reason: null }));

async function waitForReceipts(total, label) {
  const deadline = Date.now() + TIMEOUT_SECS * 1000;
  while (received < total) {
    if (Date.now() > deadline) throw new Error(`${label}: ${received} of ${total} deliveries within ${TIMEOUT_SECS} s`);
    await sleep(5);
  }
}

// ---- burst ----
const burstStart = Date.now();
const burstIds = [];
for (let i = 0; i < N; i++) {
  burstIds.push(emitOne(i).id);
  // Yield now and then so deliveries run while events are still being emitted.
  if (i % 50 === 49) await new Promise((r) => setImmediate(r));
}
const emitDoneMs = Date.now() - burstStart;
await waitForReceipts(N * ENDPOINTS, 'burst');
const burstLast = Math.max(...burstIds.flatMap((id) => receipts.get(id).map((r) => r.at)));
const burstLatencies = burstIds.flatMap((id) => receipts.get(id).map((r) => r.latencyMs));
const burst = {
  events: N,
  endpoints: ENDPOINTS,
  deliveries: N * ENDPOINTS,
  emitMs: emitDoneMs,
  eventsEmittedPerSec: Math.round(N / (emitDoneMs / 1000)),
  wallMs: burstLast - burstStart,
  deliveriesPerSec: Math.round((N * ENDPOINTS) / ((burstLast - burstStart) / 1000)),
  latency: summary(burstLatencies),
};

// ---- paced ----
const pacedIds = [];
const before = received;
for (let i = 0; i < PACED; i++) {
  pacedIds.push(emitOne(N + i).id);
  await sleep(1000 / RATE);
}
await waitForReceipts(before + PACED * ENDPOINTS, 'paced');
const paced = { events: PACED, ratePerSec: RATE, latency: summary(pacedIds.flatMap((id) => receipts.get(id).map((r) => r.latencyMs))) };

// ---- long-poll ----
const pollLatencies = [];
let cursor = (await (await fetch(`${svc.baseUrl}/v1/events?after=now`, { headers: auth })).json()).cursor;
for (let i = 0; i < POLLS; i++) {
  const polling = fetch(`${svc.baseUrl}/v1/events?after=${cursor}&wait=30&types=message.received`, { headers: auth, signal: AbortSignal.timeout(TIMEOUT_SECS * 1000) });
  // Let the request reach the server and park before the event is emitted.
  await sleep(25);
  const e = inTransaction(svc.deps.db, () => svc.deps.events.emit(accountId, 'message.received', { messageId: `msg_poll_${i}`, from: '+14155550100', to: '+14155550199', body: 'hi' }));
  const res = await polling;
  const arrived = Date.now();
  const page = await res.json();
  if (page.data.length !== 1 || page.data[0].eventId !== e.id) throw new Error(`long-poll ${i}: unexpected page ${JSON.stringify(page).slice(0, 200)}`);
  pollLatencies.push(arrived - e.createdAt);
  cursor = page.cursor;
}
const longPoll = { polls: POLLS, latency: summary(pollLatencies) };

await svc.close();
await new Promise((r) => receiver.close(r));
rmSync(dataDir, { recursive: true, force: true });

const duplicates = [...receipts.values()].filter((l) => l.length > ENDPOINTS).length;
const report = { bench: 'webhooks', node: process.version, burst, paced, longPoll, badSignatures, duplicates };
console.log('burst     ', `${burst.deliveries} deliveries in ${burst.wallMs} ms = ${burst.deliveriesPerSec}/s;`, 'createdAt→receipt', burst.latency);
console.log('paced     ', `${PACED} events at ${RATE}/s;`, 'createdAt→receipt', paced.latency);
console.log('long-poll ', `${POLLS} polls;`, 'createdAt→response', longPoll.latency);
console.log(JSON.stringify(report));
if (badSignatures > 0) {
  console.error(`${badSignatures} deliveries failed signature verification; the figures are not valid`);
  process.exit(1);
}
