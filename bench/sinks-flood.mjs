#!/usr/bin/env node
// bench/sinks-flood: a sink flooded with requests stays bounded, against the BUILT service (`npm run
// build` first) in a child process on 127.0.0.1:0 (the flood runs here, on another event loop).
//   REQUESTS (default 3 × the sink's kept requests) POSTs of BODY_KB (default 512) to one sink's
//   `/sinks/{id}`, CONCURRENCY (default 16) at a time, unsigned (a sink keeps those too, marked).
//   Printed: the child's resident memory before, its peak (sampled every 100 ms) and after; the
//   requests kept (GET /v1/sandbox/sinks/{id}/requests, paged to its end) against SINK_LIMITS; the
//   data directory's size; the slowest `GET /healthz` probed meanwhile; and the load average.
// Bounded: a hard deadline (BENCH_DEADLINE_S, default 300); the child and its data dir are removed.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { hardDeadline, isServeChild, serveChild, spawnServiceChild } from './lib/service-child.mjs';

if (isServeChild()) {
  await serveChild((svc) => ({
    // The child's resident set and heap, in MB, as the kernel and V8 see them now.
    memory: () => {
      const m = process.memoryUsage();
      return { rssMb: m.rss / 1e6, heapMb: m.heapUsed / 1e6 };
    },
    dataDir: () => svc.dataDir ?? process.argv[3],
  }));
} else {
  const { request } = await import('undici');
  const { SINK_LIMITS } = await import('../dist/api/values/sinks.js');
  const REQUESTS = Number(process.env.REQUESTS ?? 3 * SINK_LIMITS.keptRequests);
  const BODY_KB = Number(process.env.BODY_KB ?? 512);
  const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
  const child = spawnServiceChild(fileURLToPath(import.meta.url), 'svc-bench-sinks-');
  const disarm = hardDeadline('bench/sinks-flood', Number(process.env.BENCH_DEADLINE_S ?? 300) * 1000, () => child.kill());
  const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const dirBytes = (dir) => readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? dirBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size), 0);

  try {
    const { baseUrl, testKey } = await child.ready;
    const auth = { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' };
    const api = async (method, path, body) => {
      const res = await request(`${baseUrl}${path}`, { method, headers: auth, ...(body ? { body: JSON.stringify(body) } : {}) });
      return { status: res.statusCode, body: await res.body.json() };
    };
    const sink = (await api('POST', '/v1/sandbox/sinks', {})).body;
    const sinkPath = new URL(sink.url).pathname;
    const loadAtStart = load();
    const before = await child.ask('memory');

    let flooding = true;
    let peakRss = before.rssMb;
    let slowestHealthz = 0;
    const sampler = (async () => {
      while (flooding) {
        peakRss = Math.max(peakRss, (await child.ask('memory')).rssMb);
        await sleep(100);
      }
    })();
    const prober = (async () => {
      while (flooding) {
        const t = performance.now();
        const res = await request(`${baseUrl}/healthz`);
        await res.body.text();
        slowestHealthz = Math.max(slowestHealthz, performance.now() - t);
        await sleep(50);
      }
    })();

    const body = JSON.stringify({ id: 'evt_flood', type: 'message.status', pad: 'x'.repeat(BODY_KB * 1024 - 64) });
    const statuses = new Map();
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < REQUESTS) {
          next++;
          const res = await request(`${baseUrl}${sinkPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          await res.body.text();
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        }
      }),
    );
    const floodSecs = (performance.now() - started) / 1000;
    flooding = false;
    await Promise.all([sampler, prober]);
    const after = await child.ask('memory');

    let kept = 0;
    let largestKeptBody = 0;
    for (let cursor; ; ) {
      const page = (await api('GET', `/v1/sandbox/sinks/${sink.id}/requests?limit=100${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`)).body;
      kept += page.data.length;
      for (const r of page.data) largestKeptBody = Math.max(largestKeptBody, Buffer.byteLength(r.body));
      if (!page.hasMore) break;
      cursor = page.cursor;
    }
    const dataMb = dirBytes(await child.ask('dataDir')) / 1e6;

    console.log(`bench/sinks-flood: ${REQUESTS} × ${BODY_KB} KB to one sink, ${CONCURRENCY} at a time (load ${loadAtStart} → ${load()})`);
    console.table([
      {
        'sent (MB)': Math.round((REQUESTS * BODY_KB) / 1024),
        answers: [...statuses].map(([s, n]) => `${n}×${s}`).join(' '),
        'flood (s)': floodSecs.toFixed(1),
        'rss before (MB)': before.rssMb.toFixed(0),
        'rss peak (MB)': peakRss.toFixed(0),
        'rss after (MB)': after.rssMb.toFixed(0),
        kept: `${kept} (cap ${SINK_LIMITS.keptRequests})`,
        'largest kept body (KB)': (largestKeptBody / 1024).toFixed(0),
        'data dir (MB)': dataMb.toFixed(0),
        'slowest /healthz (ms)': Math.round(slowestHealthz),
      },
    ]);
    await child.stop();
    disarm();
  } catch (err) {
    child.kill();
    throw err;
  }
}
