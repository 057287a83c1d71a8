#!/usr/bin/env node
// bench/hostile-bodies: what a hostile local client costs every other client, against the BUILT
// service (`npm run build` first) in a child process on 127.0.0.1:0 (the load runs here, on another
// event loop). Prints the load average beside the figures: the machine is shared, read them with it.
//   unknown   POST /v1/messages with 250,000 unknown fields (2.8 MB), one, then FOUR at once: the time
//             to each answer, and the slowest `GET /healthz` probed every 20 ms from another connection
//             meanwhile (how long the event loop was held).
//   wave      WAVE (default 256) sockets from 127.0.0.1 send `POST /v1/messages` headers declaring
//             32 MB, then 100 bytes a second: how long `/healthz` (a new connection every 250 ms) is
//             refused, and how long until the service has closed every socket of the wave. Bounded at 75 s.
// BENCH_ROOT=<dir with a built dist/> runs another checkout's build (e.g. the one before a change).
// Bounded: a hard deadline (BENCH_DEADLINE_S, default 180); the child and the temp dir are removed.
import { connect } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { hardDeadline, isServeChild, serveChild, spawnServiceChild } from './lib/service-child.mjs';

if (isServeChild()) {
  await serveChild(() => ({}));
} else {
  const { request } = await import('undici');
  const WAVE = Number(process.env.WAVE ?? 256);
  const FOUR = Number(process.env.FOUR ?? 4);
  const DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S ?? 180) * 1000;
  const child = spawnServiceChild(fileURLToPath(import.meta.url), 'svc-bench-hostile-', '--serve', { root: process.env.BENCH_ROOT });
  const disarm = hardDeadline('bench/hostile-bodies', DEADLINE_MS, () => child.kill());
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

  try {
    const { baseUrl, liveKey } = await child.ready;
    const { port } = new URL(baseUrl);
    const health = async () => {
      const t = performance.now();
      try {
        const res = await request(`${baseUrl}/healthz`, { reset: true });
        await res.body.text();
        return { status: res.statusCode, ms: performance.now() - t };
      } catch {
        return { status: 0, ms: performance.now() - t };
      }
    };

    // --- unknown: 250,000 unknown fields ---
    const fields = {};
    for (let i = 0; i < 250_000; i++) fields[`k${i}`] = 1;
    const big = JSON.stringify(fields);
    const send = async () => {
      const t = performance.now();
      const res = await request(`${baseUrl}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${liveKey}`, 'content-type': 'application/json' }, body: big });
      const body = await res.body.json();
      return { status: res.statusCode, ms: performance.now() - t, firstDetail: body.error?.details?.[0]?.path?.join('.') };
    };
    const unknownCase = async (n) => {
      let probing = true;
      let worst = 0;
      const probe = (async () => {
        while (probing) {
          worst = Math.max(worst, (await health()).ms);
          await sleep(20);
        }
      })();
      const answers = await Promise.all(Array.from({ length: n }, send));
      probing = false;
      await probe;
      return { case: `${n} × 250,000 unknown fields (${(big.length / 1e6).toFixed(1)} MB)`, statuses: answers.map((a) => a.status).join(','), firstDetail: answers[0].firstDetail, slowestAnswerMs: Math.round(Math.max(...answers.map((a) => a.ms))), slowestHealthzMs: Math.round(worst), load: load() };
    };
    const results = [];
    await send(); // warm-up
    results.push(await unknownCase(1));
    results.push(await unknownCase(FOUR));

    // --- wave: sockets trickling a declared 32 MB body ---
    const started = performance.now();
    const closedAt = [];
    const firstAnswer = [];
    const sockets = [];
    for (let i = 0; i < WAVE; i++) {
      const s = connect({ host: '127.0.0.1', port: Number(port) });
      s.setEncoding('latin1');
      s.on('error', () => {});
      s.once('data', (d) => firstAnswer.push(d.split(' ')[1]));
      s.on('close', () => closedAt.push(performance.now() - started));
      s.once('connect', () => s.write(`POST /v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${liveKey}\r\nContent-Type: application/json\r\nContent-Length: 33554432\r\n\r\n`));
      sockets.push(s);
    }
    const drip = setInterval(() => {
      for (const s of sockets) if (s.writable) s.write('x'.repeat(25));
    }, 250);
    // Every socket answered (400 for its declared size, or refused at a cap): the wave is in place.
    while (firstAnswer.length < WAVE && performance.now() - started < 15_000) await sleep(50);
    const inPlace = performance.now() - started;
    const answered = Object.entries(firstAnswer.reduce((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {})).map(([k, v]) => `${v}×${k}`).join(' ');
    let servedAt;
    while (performance.now() - started < 75_000) {
      if ((await health()).status === 200) {
        servedAt = performance.now() - started;
        break;
      }
      await sleep(250);
    }
    while (closedAt.length < WAVE && performance.now() - started < 75_000) await sleep(250);
    clearInterval(drip);
    for (const s of sockets) s.destroy();
    results.push({
      case: `${WAVE} sockets trickling a declared 32 MB body`,
      statuses: `wave answered ${answered} in ${(inPlace / 1000).toFixed(1)} s`,
      firstDetail: '',
      slowestAnswerMs: servedAt === undefined ? 'not served in 75 s' : Math.round(servedAt - inPlace),
      slowestHealthzMs: `wave closed by the service after ${closedAt.length === WAVE ? (Math.max(...closedAt) / 1000).toFixed(1) : `> 75 (${closedAt.length}/${WAVE})`} s`,
      load: load(),
    });
    console.table(results);
    console.log('(wave row: slowestAnswerMs = how long /healthz was refused once the wave was in place)');
    console.log(JSON.stringify({ bench: 'hostile-bodies', root: process.env.BENCH_ROOT ?? 'this checkout', results }));
    await child.stop();
  } catch (err) {
    child.kill();
    throw err;
  } finally {
    disarm();
  }
}
