#!/usr/bin/env node
// bench/emails: POST /v1/emails throughput with 10 recipients each, and the time from a send to its
// last `email.delivered`, against the BUILT service (`npm run build` first). The service runs in a
// child process (this file with `--serve`) on 127.0.0.1:0 with the system clock, so the simulated
// mail server delivers on real time (MAIL_SIMULATOR_TIMINGS: delivered 1 s after the handover), and
// the load generator (autocannon) does not share its event loop. Setup verifies a sending domain the
// way a user does (add, publish its records in the sandbox DNS, verify). Every figure is quoted
// against a floor measured in the same run (shared, noisy machines: only ratios travel):
//   burst     EMAILS (default 2000) live sends of 10 recipients each, CONNECTIONS (16) at a time, a
//             fresh Idempotency-Key each: emails/s and recipients/s, p50/p99. Floor: as many test
//             SMS sends (one message row and its events) at the same concurrency on the same service.
//             Then the drain: from the end of the burst to the last of its recipients delivered.
//   paced     PACED (default 100) sends one after another, each followed on the events feed (held
//             reads, `wait`): send → last `email.delivered` of its 10 recipients, p50/p99, and the
//             same minus the simulator's designed delay (what the service itself adds).
// Bounded: a hard deadline (BENCH_DEADLINE_S, default 300); the child and the temp dir are removed.
import { fileURLToPath } from 'node:url';
import { hardDeadline, isServeChild, serveChild, spawnServiceChild } from './lib/service-child.mjs';

if (isServeChild()) {
  await serveChild((svc) => ({
    count: () =>
      svc.db.prepare("SELECT COUNT(*) AS recipients, COALESCE(SUM(status = 'delivered'), 0) AS delivered, MAX(delivered_at) AS lastDeliveredAt FROM email_recipients").get(),
  }));
} else {
  const { default: autocannon } = await import('autocannon');
  const { request } = await import('undici');
  const { MAIL_SIMULATOR_TIMINGS } = await import('../dist/api/values/email.js');
  const EMAILS = Number(process.env.EMAILS ?? 2000);
  const PACED = Number(process.env.PACED ?? 100);
  const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
  const RECIPIENTS = 10;
  const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 300) * 1000;

  const child = spawnServiceChild(fileURLToPath(import.meta.url), 'svc-bench-emails-');
  const count = () => child.ask('count');
  const cleanup = () => child.kill();
  const disarm = hardDeadline('bench/emails', DEADLINE_MS, cleanup);

  const pct = (values, p) => {
    const sorted = [...values].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
  };
  const ratio = (a, b) => Math.round((a / b) * 100) / 100;
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  try {
    const { baseUrl, liveKey, testKey } = await child.ready;
    // contract §11: live email is charged (1 cent per started block of 10 recipients); a wallet deep enough for every send.
    await child.ask(`fund ${(EMAILS + PACED) * 100}`);
    const live = { authorization: `Bearer ${liveKey}`, 'content-type': 'application/json' };
    const test = { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' };
    const call = async (method, path, body, headers = live) => {
      const { 'content-type': _json, ...bare } = headers;
      const res = await request(`${baseUrl}${path}`, { method, headers: body === undefined ? bare : headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.body.text();
      if (res.statusCode >= 300) throw new Error(`${method} ${path} → ${res.statusCode} ${text}`);
      return text ? JSON.parse(text) : null;
    };

    // A verified sending domain, as a user gets one (contract §8, §9).
    const domain = await call('POST', '/v1/domains', { domain: 'bench-mail.example.com' });
    const byName = new Map();
    for (const r of domain.records) byName.set(r.name, [...(byName.get(r.name) ?? []), { type: r.type, value: r.value }]);
    for (const [name, records] of byName) await call('PUT', `/v1/sandbox/dns/${encodeURIComponent(name)}`, { records });
    const verified = await call('POST', `/v1/domains/${domain.id}/verify`);
    if (verified.status !== 'verified') throw new Error(`domain not verified: ${JSON.stringify(verified)}`);
    const from = 'Bench <bench@bench-mail.example.com>';
    const recipientsOf = (n) => Array.from({ length: RECIPIENTS }, (_, k) => `user${n}-${k}@example.com`);
    const emailBody = (n) => JSON.stringify({ from, to: recipientsOf(n), subject: `Bench ${n}`, text: `Your receipt number ${n}.`, tags: ['bench'] });

    const burst = async (path, headers, bodyOf, amount) => {
      let i = 0;
      const started = process.hrtime.bigint();
      const result = await autocannon({
        url: baseUrl,
        connections: CONNECTIONS,
        amount,
        timeout: 20,
        requests: [{ method: 'POST', path, headers, setupRequest: (req) => { const n = i++; return { ...req, headers: { ...req.headers, 'idempotency-key': `${path}-${n}` }, body: bodyOf(n) }; } }],
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (result['2xx'] !== amount || result.non2xx || result.errors) throw new Error(`${path}: ${result['2xx']} of ${amount} × 2xx, ${result.non2xx} non-2xx, ${result.errors} errors`);
      return { perSec: amount / seconds, seconds, p50: result.latency.p50, p99: result.latency.p99 };
    };

    // Floor: test SMS sends on the same service, same concurrency and count.
    const found = await call('POST', '/v1/numbers/search', { areaCode: '415', capabilities: ['sms'], limit: 1 }, test);
    const number = await call('POST', '/v1/numbers/buy', { phoneNumber: found.data[0].phoneNumber }, test);
    const floor = await burst('/v1/messages', test, (n) => JSON.stringify({ from: number.phoneNumber, to: `+1415${String(2_000_000 + n).padStart(7, '0')}`, body: `Floor ${n}` }), EMAILS);

    // The burst of emails, then the drain of its deliveries.
    const sends = await burst('/v1/emails', live, emailBody, EMAILS);
    const burstEnded = Date.now();
    let stored = await count();
    while (stored.delivered < EMAILS * RECIPIENTS) {
      if (Date.now() - burstEnded > DEADLINE_MS) throw new Error(`only ${stored.delivered} of ${EMAILS * RECIPIENTS} delivered`);
      await sleep(100);
      stored = await count();
    }
    const drainMs = stored.lastDeliveredAt - burstEnded;

    // Paced: one send at a time, its 10 deliveries followed on the events feed.
    const head = await call('GET', '/v1/events?after=now&limit=1');
    let cursor = head.cursor;
    const total = [];
    const added = [];
    const designedMs = MAIL_SIMULATOR_TIMINGS.deliverAfterSecs * 1000;
    for (let n = 0; n < PACED; n++) {
      const t0 = performance.now();
      const email = await call('POST', '/v1/emails', JSON.parse(emailBody(EMAILS + n)));
      let seen = 0;
      while (seen < RECIPIENTS) {
        const page = await call('GET', `/v1/events?after=${encodeURIComponent(cursor)}&types=email.delivered&wait=10&limit=100`);
        cursor = page.cursor;
        seen += page.data.filter((e) => e.emailId === email.id).length;
      }
      const ms = performance.now() - t0;
      total.push(ms);
      added.push(ms - designedMs);
    }

    console.log(JSON.stringify({
      burst: {
        emails: EMAILS,
        recipientsEach: RECIPIENTS,
        connections: CONNECTIONS,
        emailsPerSec: Math.round(sends.perSec),
        recipientsPerSec: Math.round(sends.perSec * RECIPIENTS),
        p50ms: sends.p50,
        p99ms: sends.p99,
        floorSmsSendsPerSec: Math.round(floor.perSec),
        floorP99ms: floor.p99,
        ratioToFloor: ratio(sends.perSec, floor.perSec),
        drainAfterBurstMs: drainMs,
        delivered: stored.delivered,
      },
      paced: {
        emails: PACED,
        designedDelayMs: designedMs,
        sendToLastDeliveredP50ms: pct(total, 50),
        sendToLastDeliveredP99ms: pct(total, 99),
        addedByServiceP50ms: pct(added, 50),
        addedByServiceP99ms: pct(added, 99),
      },
    }, null, 2));
    await child.stop();
    disarm();
  } catch (err) {
    console.error(err);
    cleanup();
    process.exit(1);
  }
}
