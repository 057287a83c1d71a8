#!/usr/bin/env node
// bench/messages: POST /v1/messages throughput and latency against the BUILT service (`npm run build`
// first). The service runs in a child process (bench/lib/service-child.mjs), so the load generator
// (autocannon, fixed concurrency) does not share its event loop. Two passes of N sends each, each send
// with its own Idempotency-Key: test sends (a number bought with the test key, no campaign needed, no
// money), then live sends (a live number on a mock campaign, a wallet funded for every send): each
// live accept reserves its price in the accept transaction (contract §11), so the ratio of the two
// passes is the cost of billing per send. First, the floor (issue 13): the same load against a minimal
// Fastify route that validates the body and inserts one row (bench/lib/service-child.mjs serveFloor),
// so the test pass is also quoted as a ratio to it. Bounded: N requests per pass (default 5000) and a hard
// deadline; the child and the temp dir are removed at the end.
//
//   node bench/messages.mjs            BENCH_MESSAGES=5000 BENCH_CONNECTIONS=16 BENCH_DEADLINE_S=180
import { fileURLToPath } from 'node:url';
import { isFloorChild, isServeChild, serveChild, serveFloor, spawnServiceChild } from './lib/service-child.mjs';

if (isServeChild()) {
  await serveChild((svc) => {
    const accountId = svc.bootstrap.accountId;
    const count = (test) => ({
      ...svc.db.prepare("SELECT COUNT(*) AS n, SUM(status = 'delivered') AS delivered FROM messages WHERE test = ?").get(test ? 1 : 0),
      balance: svc.deps.wallets.get(accountId)?.balanceCents ?? 0,
      ledgerSum: svc.deps.ledger.sum(accountId),
    });
    return { count: (which) => count(which === 'test') };
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
  const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
  const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 180) * 1000;

  const child = spawnServiceChild(fileURLToPath(import.meta.url), 'svc-bench-messages-');
  const cleanup = () => child.kill();
  const deadline = setTimeout(() => {
    console.error(`bench/messages: over the ${DEADLINE_MS / 1000}s deadline; stopping`);
    cleanup();
    process.exit(2);
  }, DEADLINE_MS);
  deadline.unref();

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

    /** One pass of N sends from `from` with `key`; each request its own Idempotency-Key. */
    const pass = async (label, key, from, target = { url: baseUrl, path: '/v1/messages' }) => {
      let i = 0;
      const started = process.hrtime.bigint();
      const result = await autocannon({
        url: target.url,
        connections: CONNECTIONS,
        amount: N,
        timeout: 10,
        requests: [
          {
            method: 'POST',
            path: target.path,
            headers: headersFor(key),
            setupRequest: (req) => {
              const n = i++;
              return {
                ...req,
                headers: { ...req.headers, 'idempotency-key': `bench-${label}-${n}` },
                body: JSON.stringify({ from, to: `+1415${String(2_000_000 + (n % 7_000_000)).padStart(7, '0')}`, body: `Bench message ${n}: your order has shipped.` }),
              };
            },
          },
        ],
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      return { label, ok: result['2xx'], seconds, perSec: result['2xx'] / seconds, result };
    };
    const report = (p, stored) => {
      console.log(`  ${p.label} sends/second  ${p.perSec.toFixed(0)}  (${p.ok} × 201 in ${p.seconds.toFixed(2)} s)`);
      console.log(`  ${p.label} latency      median ${p.result.latency.p50} ms, p99 ${p.result.latency.p99} ms (max ${p.result.latency.max} ms)`);
      console.log(`  ${p.label} non-2xx ${p.result.non2xx}, errors ${p.result.errors}, timeouts ${p.result.timeouts}; stored ${stored.n}, ${stored.delivered} delivered`);
    };

    // Floor (issue 13): the same load generator and bodies against a minimal Fastify route that
    // validates the body and inserts one row, in its own child process, started by this bench.
    const floorChild = spawnServiceChild(fileURLToPath(import.meta.url), 'svc-bench-floor-', '--floor');
    const floorUrl = (await floorChild.ready).baseUrl;
    const floor = await pass('floor', testKey, '+14155550100', { url: floorUrl, path: '/floor' });
    await floorChild.stop();

    // Test pass: the stubbed carrier finishes each message in its accept transaction.
    const testNumber = await buyOne(testKey);
    const test = await pass('test', testKey, testNumber.phoneNumber);
    const testStored = await child.ask('count test');

    // Live pass: a live number on a mock campaign (free), the wallet funded for every send's hold.
    const liveNumber = await buyOne(liveKey);
    const brand = await post(liveKey, '/v1/brands', { ...BRAND, mock: true });
    const campaign = await post(liveKey, '/v1/campaigns', { ...CAMPAIGN, brandId: brand.id });
    await post(liveKey, `/v1/numbers/${liveNumber.id}/assign`, { campaignId: campaign.id });
    const funded = await child.ask(`fund ${N * 10}`);
    const live = await pass('live', liveKey, liveNumber.phoneNumber);
    const liveStored = await child.ask('count live');

    console.log(`bench/messages: ${N} sends per pass, ${CONNECTIONS} connections, system clock`);
    console.log(`  floor sends/second ${floor.perSec.toFixed(0)}  (${floor.ok} × 201; p99 ${floor.result.latency.p99} ms): a minimal Fastify route, one validated body, one row`);
    report(test, testStored);
    console.log(`  test / floor throughput ${(test.perSec / floor.perSec).toFixed(2)}`);
    report(live, liveStored);
    console.log(`  live / test throughput ${(live.perSec / test.perSec).toFixed(2)}  (billing per live send: a hold in the accept transaction; ${((1 / live.perSec - 1 / test.perSec) * 1e6).toFixed(0)} µs more per send)`);
    console.log(`  wallet ${funded.balance} → ${liveStored.balance} cents held/charged; ledger sum ${liveStored.ledgerSum} (must equal the balance)`);
    const failed =
      floor.ok !== N ||
      test.ok !== N || test.result.non2xx || test.result.errors || testStored.n !== N || testStored.delivered !== N ||
      live.ok !== N || live.result.non2xx || live.result.errors || liveStored.n !== N || liveStored.ledgerSum !== liveStored.balance;
    await child.stop();
    clearTimeout(deadline);
    if (failed) {
      console.error('bench/messages: not every send succeeded, or the ledger does not sum to the balance');
      process.exit(1);
    }
  } catch (err) {
    console.error(err);
    cleanup();
    process.exit(1);
  }
}
