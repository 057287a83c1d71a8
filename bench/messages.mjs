#!/usr/bin/env node
// bench/messages: POST /v1/messages throughput and latency against the BUILT service (`npm run build`
// first). The service runs in a child process (this file with `--serve`), on 127.0.0.1:0 with the
// system clock, a temp data dir and a rate limit high enough not to interfere, so the load generator
// (autocannon, fixed concurrency) does not share its event loop. Setup buys one number with the test
// key; every send is a test send (no campaign needed), each with its own Idempotency-Key. Bounded:
// N requests (default 5000) and a hard deadline; the child and the temp dir are removed at the end.
//
//   node bench/messages.mjs            BENCH_MESSAGES=5000 BENCH_CONNECTIONS=16 BENCH_DEADLINE_S=180
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

if (process.argv[2] === '--serve') {
  // Child: the service, reporting its address and keys on stdout, until its parent stops it.
  const { startService } = await import('../dist/server/main.js');
  const svc = await startService({
    host: '127.0.0.1',
    port: 0,
    dataDir: process.argv[3],
    clock: 'system',
    rateLimit: { ratePerSec: 1_000_000, burst: 1_000_000 },
  });
  const count = () => svc.db.prepare("SELECT COUNT(*) AS n, SUM(status = 'delivered') AS delivered FROM messages").get();
  process.stdout.write(`${JSON.stringify({ baseUrl: svc.baseUrl, testKey: svc.bootstrap.testKey })}\n`);
  createInterface({ input: process.stdin }).on('line', async (line) => {
    if (line === 'count') process.stdout.write(`${JSON.stringify(count())}\n`);
    if (line === 'stop') {
      await svc.close();
      process.exit(0);
    }
  });
} else {
  const { default: autocannon } = await import('autocannon');
  const { request } = await import('undici');
  const N = Number(process.env.BENCH_MESSAGES ?? 5000);
  const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
  const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 180) * 1000;

  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-messages-'));
  const child = spawn(process.execPath, [...(process.env.BENCH_CHILD_FLAGS ? process.env.BENCH_CHILD_FLAGS.split(' ') : []), fileURLToPath(import.meta.url), '--serve', dataDir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const nextLine = () => new Promise((resolve) => lines.once('line', (l) => resolve(JSON.parse(l))));
  const cleanup = () => {
    child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = setTimeout(() => {
    console.error(`bench/messages: over the ${DEADLINE_MS / 1000}s deadline; stopping`);
    cleanup();
    process.exit(2);
  }, DEADLINE_MS);
  deadline.unref();

  try {
    const { baseUrl, testKey } = await nextLine();
    const auth = { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' };
    const post = async (path, body) => {
      const res = await request(`${baseUrl}${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      const json = await res.body.json();
      if (res.statusCode >= 300) throw new Error(`${path} → ${res.statusCode} ${JSON.stringify(json)}`);
      return json;
    };
    const found = await post('/v1/numbers/search', { areaCode: '415', capabilities: ['sms'], limit: 1 });
    const number = await post('/v1/numbers/buy', { phoneNumber: found.data[0].phoneNumber });

    let i = 0;
    const started = process.hrtime.bigint();
    const result = await autocannon({
      url: baseUrl,
      connections: CONNECTIONS,
      amount: N,
      timeout: 10,
      requests: [
        {
          method: 'POST',
          path: '/v1/messages',
          headers: auth,
          setupRequest: (req) => {
            const n = i++;
            return {
              ...req,
              headers: { ...req.headers, 'idempotency-key': `bench-${n}` },
              body: JSON.stringify({ from: number.phoneNumber, to: `+1415${String(2_000_000 + (n % 7_000_000)).padStart(7, '0')}`, body: `Bench message ${n}: your order has shipped.` }),
            };
          },
        },
      ],
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    child.stdin.write('count\n');
    const stored = await nextLine();

    const ok = result['2xx'];
    console.log(`bench/messages: ${N} sends, ${CONNECTIONS} connections, test key (stubbed carrier), system clock`);
    console.log(`  sends/second     ${(ok / seconds).toFixed(0)}  (${ok} × 201 in ${seconds.toFixed(2)} s)`);
    console.log(`  latency median   ${result.latency.p50} ms`);
    console.log(`  latency p99      ${result.latency.p99} ms   (max ${result.latency.max} ms)`);
    console.log(`  non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`);
    console.log(`  stored ${stored.n} messages, ${stored.delivered} delivered`);
    const failed = ok !== N || result.non2xx || result.errors || stored.n !== N || stored.delivered !== N;
    child.stdin.write('stop\n');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
    clearTimeout(deadline);
    if (failed) {
      console.error('bench/messages: not every send succeeded');
      process.exit(1);
    }
  } catch (err) {
    console.error(err);
    cleanup();
    process.exit(1);
  }
}
