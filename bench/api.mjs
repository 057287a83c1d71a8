#!/usr/bin/env node
// bench/api: requests per second and latency (p50, p99) of `GET /v1/keys` and of an idempotent
// POST (`POST /v1/keys` with a fresh Idempotency-Key per request, and the replay of one key), on
// loopback with autocannon. Bounded: DURATION seconds per case (default 5). Stops by itself.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { startService } from '../dist/server/main.js';

const duration = Number(process.env.DURATION ?? 5);
const connections = Number(process.env.CONNECTIONS ?? 10);
const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-api-'));
// The rate limit protects a real deployment; here it would measure the limiter, not the service.
const svc = await startService({ host: '127.0.0.1', port: 0, dataDir, clock: 'system', rateLimit: { ratePerSec: 1e9, burst: 1e9 } });
const auth = { authorization: `Bearer ${svc.bootstrap.liveKey}`, 'content-type': 'application/json' };

const run = (title, opts) =>
  new Promise((resolve, reject) => {
    autocannon({ connections, duration, headers: auth, ...opts, url: `${svc.baseUrl}${opts.path}` }, (err, r) => {
      if (err) return reject(err);
      const bad = r.non2xx + r.errors + r.timeouts;
      resolve({ case: title, requests: r.requests.total, rps: Math.round(r.requests.average), p50ms: r.latency.p50, p99ms: r.latency.p99, non2xxOrErrors: bad });
    });
  });

const results = [];
results.push(await run('GET /v1/keys', { path: '/v1/keys' }));
results.push(
  await run('POST /v1/keys (fresh Idempotency-Key)', {
    method: 'POST',
    path: '/v1/keys',
    body: JSON.stringify({ name: 'bench', mode: 'test' }),
    setupClient(client) {
      client.setHeaders({ ...auth, 'idempotency-key': randomUUID() });
      client.on('response', () => client.setHeaders({ ...auth, 'idempotency-key': randomUUID() }));
    },
  }),
);
results.push(
  await run('POST /v1/keys (replayed Idempotency-Key)', {
    method: 'POST',
    path: '/v1/keys',
    body: JSON.stringify({ name: 'bench-replay', mode: 'test' }),
    headers: { ...auth, 'idempotency-key': 'bench-replay-key' },
  }),
);
await svc.close();
rmSync(dataDir, { recursive: true, force: true });
console.table(results);
console.log(JSON.stringify({ bench: 'api', duration, connections, results }));
// A benchmark of error responses measures nothing: fail loudly.
if (results.some((r) => r.non2xxOrErrors > 0)) {
  console.error('some requests failed; the figures above are not valid');
  process.exit(1);
}
