#!/usr/bin/env node
// bench/messages: POST /v1/messages throughput and latency against the BUILT service (`npm run build`
// first). The service runs in a child process (bench/lib/service-child.mjs), so the load generator
// (autocannon, fixed concurrency) does not share its event loop. Three kinds of pass, each send with
// its own Idempotency-Key:
//   floor  the same load against a minimal Fastify route that validates the body and inserts one row
//          (bench/lib/service-child.mjs serveFloor), in its own child process (issue 13)
//   test   test sends (a number bought with the test key, no campaign needed, no money)
//   live   live sends (a live number on a mock campaign, a wallet funded for every send): each live
//          accept reserves its price in the accept transaction (contract §11)
// The passes are interleaved round by round (ROUNDS, default 3) so the noise of a shared machine
// falls on all of them alike; the ratios are of their totals. Each pass also reports the serving
// process's CPU time per request (from process.cpuUsage in the child), which does not depend on who
// wins the cores. It ends by checking that every 201 answered is stored, once: each id a 201 carried
// is looked up in the database, and the table holds exactly as many messages as 201s.
// Bounded: N requests per kind (default 5000) and a hard deadline; children and temp dirs removed.
//
//   node bench/messages.mjs     BENCH_MESSAGES=5000 BENCH_CONNECTIONS=50 BENCH_ROUNDS=3 BENCH_DEADLINE_S=240
import { fileURLToPath } from 'node:url';
import { hardDeadline, isFloorChild, isServeChild, serveChild, serveFloor, spawnServiceChild } from './lib/service-child.mjs';

if (isServeChild()) {
  await serveChild((svc) => {
    const accountId = svc.bootstrap.accountId;
    const count = (test) => ({
      ...svc.db.prepare("SELECT COUNT(*) AS n, SUM(status = 'delivered') AS delivered FROM messages WHERE test = ?").get(test ? 1 : 0),
      balance: svc.deps.wallets.get(accountId)?.balanceCents ?? 0,
      ledgerSum: svc.deps.ledger.sum(accountId),
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
  // A mock brand and its campaign (approved at once, free): what a live number needs to send.
  const BRAND = {
    legalName: 'Bench Shop LLC', displayName: 'Bench Shop', entityType: 'PRIVATE_PROFIT', ein: '12-3456789', website: 'https://benchshop.example',
    email: 'ops@benchshop.example', phone: '+14155550100', street: '1 Bay St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US',
  };
  const CAMPAIGN = {
    name: 'Order updates',
    useCase: 'ACCOUNT_NOTIFICATION',
    description: 'Bench Shop sends order and shipping updates to customers who asked for them at checkout on our website.',
    optInDetails:
      'Customers opt in at checkout on https://benchshop.example by checking an unchecked box: "I agree to receive order update texts from Bench Shop. Consent is not a condition of purchase. Message frequency varies. Msg & data rates may apply. Reply STOP to opt out, HELP for help."',
    sampleMessages: [
      'Bench Shop: your order 1234 has shipped and arrives Friday. Reply STOP to opt out.',
      'Bench Shop: your order 1235 is delayed a day. Reply HELP for help, STOP to opt out.',
    ],
    optinKeywords: 'START',
    optinMessage: 'Bench Shop: you are subscribed to order updates. Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to cancel.',
    optoutKeywords: 'STOP',
    optoutMessage: 'Bench Shop: you are unsubscribed and will receive no more messages.',
    helpKeywords: 'HELP',
    helpMessage: 'Bench Shop: for help call +14155550100 or email ops@benchshop.example. Reply STOP to cancel.',
    privacyPolicyLink: 'https://benchshop.example/privacy',
    termsAndConditionsLink: 'https://benchshop.example/terms',
    websiteUrl: 'https://benchshop.example',
    embeddedLink: false,
    embeddedPhone: false,
    subscriberOptin: true,
    subscriberOptout: true,
    subscriberHelp: true,
  };
  const { request } = await import('undici');
  const N = Number(process.env.BENCH_MESSAGES ?? 5000);
  const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
  // BENCH_KINDS=floor,test skips the live pass (e.g. to profile the test send alone).
  const KINDS = new Set((process.env.BENCH_KINDS ?? 'floor,test,live').split(','));
  const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 240) * 1000;

  const child = spawnServiceChild(fileURLToPath(import.meta.url), 'svc-bench-messages-');
  const cleanup = () => child.kill();
  const disarm = hardDeadline('bench/messages', DEADLINE_MS, cleanup);

  try {
    const { baseUrl, testKey, liveKey } = await child.ready;
    const headersFor = (key) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
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

    /** One round of `amount` sends from `from` with `key` against `target`; each request its own Idempotency-Key. */
    let sent = 0;
    const round = async (key, from, amount, target) => {
      const ids = [];
      const cpu0 = await target.child.ask('cpu');
      const started = process.hrtime.bigint();
      const result = await autocannon({
        url: target.url,
        connections: CONNECTIONS,
        amount,
        timeout: 10,
        requests: [
          {
            method: 'POST',
            path: target.path,
            headers: headersFor(key),
            setupRequest: (req) => {
              const n = sent++;
              return {
                ...req,
                headers: { ...req.headers, 'idempotency-key': `bench-${n}` },
                body: JSON.stringify({ from, to: `+1415${String(2_000_000 + (n % 7_000_000)).padStart(7, '0')}`, body: `Bench message ${n}: your order has shipped.` }),
              };
            },
            onResponse: (status, body) => {
              if (status === 201) ids.push(JSON.parse(body).id);
            },
          },
        ],
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpuMicros = (await target.child.ask('cpu')) - cpu0;
      return { ok: result['2xx'], non2xx: result.non2xx, errors: result.errors + result.timeouts, seconds, cpuMicros, p50: result.latency.p50, p99: result.latency.p99, ids };
    };
    const totals = (rounds) => {
      const sum = (k) => rounds.reduce((a, r) => a + r[k], 0);
      const ok = sum('ok');
      return {
        ok, non2xx: sum('non2xx'), errors: sum('errors'), seconds: sum('seconds'), perSec: ok / sum('seconds'),
        cpuPerRequestUs: sum('cpuMicros') / Math.max(1, ok),
        p50: rounds.map((r) => r.p50).sort((a, b) => a - b)[Math.floor(rounds.length / 2)],
        p99: Math.max(...rounds.map((r) => r.p99)),
        ids: rounds.flatMap((r) => r.ids),
      };
    };

    // Setup (not measured): a test number; a live number on a mock campaign (free), the wallet
    // funded for every live send's hold.
    const testNumber = await buyOne(testKey);
    const liveNumber = await buyOne(liveKey);
    const brand = await post(liveKey, '/v1/brands', { ...BRAND, mock: true });
    const campaign = await post(liveKey, `/v1/campaigns`, { ...CAMPAIGN, brandId: brand.id });
    await post(liveKey, `/v1/numbers/${liveNumber.id}/assign`, { campaignId: campaign.id });
    const funded = await child.ask(`fund ${N * 10}`);

    const floorChild = spawnServiceChild(fileURLToPath(import.meta.url), 'svc-bench-floor-', '--floor');
    const floorTarget = { child: floorChild, url: (await floorChild.ready).baseUrl, path: '/floor' };
    const serviceTarget = { child, url: baseUrl, path: '/v1/messages' };
    const perRound = Math.ceil(N / ROUNDS);
    const rounds = { floor: [], test: [], live: [] };
    for (let r = 0; r < ROUNDS; r++) {
      rounds.floor.push(await round(testKey, '+14155550100', perRound, floorTarget));
      rounds.test.push(await round(testKey, testNumber.phoneNumber, perRound, serviceTarget));
      if (KINDS.has('live')) rounds.live.push(await round(liveKey, liveNumber.phoneNumber, perRound, serviceTarget));
    }
    await floorChild.stop();
    const floor = totals(rounds.floor);
    const test = totals(rounds.test);
    const live = KINDS.has('live') ? totals(rounds.live) : undefined;
    const testStored = await child.ask('count test');
    const liveStored = await child.ask('count live');
    const testIds = await child.ask(`stored ${JSON.stringify(test.ids)}`);
    const liveIds = live ? await child.ask(`stored ${JSON.stringify(live.ids)}`) : undefined;

    const line = (label, p, extra = '') =>
      console.log(
        `  ${label.padEnd(5)} ${p.perSec.toFixed(0).padStart(6)}/s  ${p.cpuPerRequestUs.toFixed(0).padStart(5)} µs CPU/request  p50 ${p.p50} ms  p99 ${p.p99} ms  (${p.ok} × 201, non-2xx ${p.non2xx}, errors ${p.errors})${extra}`,
      );
    console.log(`bench/messages: ${perRound * ROUNDS} sends per kind in ${ROUNDS} interleaved rounds, ${CONNECTIONS} connections, system clock`);
    line('floor', floor, '  a minimal Fastify route: one validated body, one row');
    line('test', test, `  ×${(test.perSec / floor.perSec).toFixed(2)} the floor's rate, ×${(test.cpuPerRequestUs / floor.cpuPerRequestUs).toFixed(1)} its CPU per request`);
    if (live) line('live', live, `  ×${(live.perSec / test.perSec).toFixed(2)} the test rate (a hold per send; ${((1 / live.perSec - 1 / test.perSec) * 1e6).toFixed(0)} µs more per send)`);
    console.log(`  stored: test ${testStored.n} (${testStored.delivered} delivered; every 201's id stored once: ${testIds.stored}/${testIds.distinct} of ${test.ok}), live ${liveStored.n}${live ? ` (${liveIds.stored}/${liveIds.distinct} of ${live.ok})` : ''}`);
    console.log(`  wallet ${funded.balance} → ${liveStored.balance} cents held/charged; ledger sum ${liveStored.ledgerSum} (must equal the balance)`);
    const everyAnswerStoredOnce = (p, stored, ids) => p.ok === stored.n && ids.distinct === p.ok && ids.stored === p.ok;
    const failed =
      floor.ok !== perRound * ROUNDS || floor.non2xx || floor.errors ||
      test.ok !== perRound * ROUNDS || test.non2xx || test.errors || !everyAnswerStoredOnce(test, testStored, testIds) || testStored.delivered !== test.ok ||
      (live && (live.ok !== perRound * ROUNDS || live.non2xx || live.errors || !everyAnswerStoredOnce(live, liveStored, liveIds))) || liveStored.ledgerSum !== liveStored.balance;
    await child.stop();
    disarm();
    if (failed) {
      console.error('bench/messages: not every send succeeded, a 201 is not stored exactly once, or the ledger does not sum to the balance');
      process.exit(1);
    }
  } catch (err) {
    console.error(err);
    cleanup();
    process.exit(1);
  }
}
