#!/usr/bin/env node
// bench/scale: the hot reads with 10k rows stored and with 1M, each quoted as a
// ratio to the same request at the smallest size (the target: within 1.5x). The built service runs
// in a child (bench/lib/service-child.mjs); messages, events and webhook deliveries are stored
// through the repositories in write transactions of 20k (the unit of work; setup, not
// measured). Over HTTP (keep-alive,
// pages of 100): the first page of GET /v1/messages and its last page (the cursor of the 101st
// oldest row), GET /v1/events?after=<a cursor 5 % from the oldest event>, the first and the last
// page of GET /v1/conversations (one conversation per 10 messages, so they grow with the table); in
// the child, the delivery worker's due scan (webhookDeliveries.due) over a table where all but 100
// deliveries are done. Each figure is the median of BENCH_REPS timings after a warm-up.
//
//   node bench/scale.mjs     BENCH_SIZES=10000,1000000  BENCH_REPS=40  BENCH_DEADLINE_S=1200
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { isServeChild, serveChild, spawnServiceChild } from './lib/service-child.mjs';

const here = fileURLToPath(import.meta.url);
const PAGE = 100;
const PENDING = 100; // deliveries still to send; every other one is done
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** In the service child: `fill N`, `cursors`, `due REPS`. */
async function scaleCommands(svc) {
  const { encodeCursor } = await import('../dist/server/storage/sqlite/pagination.js');
  const { encodeFeedCursor } = await import('../dist/server/domain/events/feed.js');
  const accountId = svc.bootstrap.accountId;
  const base = Date.now() - 100_000_000; // increasing createdAt, all in the past
  const future = Date.now() + 86_400_000; // pending deliveries wait here, out of the worker's way
  const endpointId = `we_${randomBytes(10).toString('hex')}`;
  await svc.deps.uow.write((tx) =>
    tx.webhookEndpoints.insert({
      id: endpointId, accountId, url: 'http://127.0.0.1:9/hook', events: ['*'], description: 'bench/scale', secret: randomBytes(24).toString('hex'),
      enabled: false, disabledAt: Date.now(), disabledReason: 'bench', consecutiveFailures: 0, failingSince: null, lastSuccessAt: null, mode: 'live', createdAt: base, updatedAt: base,
    }),
  );
  let stored = 0;
  const nth = (sql, offset) => svc.db.prepare(sql).get(offset);
  return {
    async fill(n) {
      const target = Number(n);
      const t0 = Date.now();
      // Setup only: a large page cache while filling (three tables with random-id unique indexes
      // took 9.5 min for 1M rows with the default 2 MB), back to the service's own before measuring.
      const cacheSize = svc.db.pragma('cache_size', { simple: true });
      svc.db.pragma('cache_size = -524288');
      while (stored < target) {
        const batch = Math.min(20_000, target - stored);
        await svc.deps.uow.write(async (tx) => {
          for (let k = 0; k < batch; k++, stored++) {
            const at = base + stored;
            const party = `+1${2_000_000_000 + Math.floor(stored / 10)}`;
            await tx.messages.insert({
              id: `msg_${randomBytes(10).toString('hex')}`, accountId, numberId: null, direction: stored % 3 ? 'outbound' : 'inbound',
              from: '+14155550100', to: party, counterparty: party, body: `bench message ${stored}: the quick brown fox jumps over the lazy dog`,
              status: 'delivered', segments: 1, channel: 'sms', media: null, reason: null, test: true, providerMessageId: null, createdAt: at, updatedAt: at,
            });
            const eventId = `evt_${randomBytes(10).toString('hex')}`;
            await tx.eventsRepo.insert({ id: eventId, accountId, type: 'message.delivered', createdAt: at, body: { id: eventId, type: 'message.delivered', createdAt: new Date(at).toISOString(), to: party, status: 'delivered' } });
            await tx.webhookDeliveries.insert({ id: `wd_${randomBytes(10).toString('hex')}`, endpointId, accountId, eventId, eventType: 'message.delivered', body: null, isTest: false, maxAttempts: 8, createdAt: at });
          }
          // Setup, not a hot path: all deliveries done but the newest PENDING, which wait in the future.
          // Raw SQL on the service's connection: inside this write it runs in the write's transaction
          // (the SQLite engine holds one connection), so it commits with the batch as before.
          svc.db.prepare("UPDATE webhook_deliveries SET status = 'succeeded', next_attempt_at = NULL WHERE next_attempt_at IS NOT NULL").run();
          svc.db
            .prepare('UPDATE webhook_deliveries SET next_attempt_at = ? WHERE seq IN (SELECT seq FROM webhook_deliveries ORDER BY seq DESC LIMIT ?)')
            .run(future, PENDING);
        });
      }
      svc.db.pragma(`cache_size = ${cacheSize}`);
      svc.db.pragma('wal_checkpoint(TRUNCATE)');
      return { stored, ms: Date.now() - t0 };
    },
    /** The cursors of the last page of messages and conversations, and a feed position 5 % from the oldest event. */
    cursors() {
      const m = nth('SELECT created_at, seq FROM messages ORDER BY created_at, seq LIMIT 1 OFFSET ?', PAGE);
      const e = nth('SELECT seq FROM events ORDER BY seq LIMIT 1 OFFSET ?', Math.floor(stored * 0.05));
      const c = nth('SELECT last_at, last_seq FROM conversations ORDER BY last_at, last_seq LIMIT 1 OFFSET ?', PAGE);
      return {
        messagesDeep: encodeCursor({ createdAt: m.created_at, seq: m.seq }),
        eventsOld: encodeFeedCursor(e.seq),
        conversationsDeep: encodeCursor({ createdAt: c.last_at, seq: c.last_seq }),
      };
    },
    async due(reps) {
      const times = [];
      let found = 0;
      for (let i = 0; i < Number(reps); i++) {
        // The scan alone is timed, inside a read (repositories are reached only in a transaction).
        await svc.deps.uow.read(async (tx) => {
          const t0 = process.hrtime.bigint();
          found = (await tx.webhookDeliveries.due(future + 1)).length;
          times.push(Number(process.hrtime.bigint() - t0) / 1e6);
        });
      }
      return { ms: median(times), found };
    },
  };
}

if (isServeChild()) {
  await serveChild((svc) => {
    const ready = scaleCommands(svc);
    return Object.fromEntries(['fill', 'cursors', 'due'].map((name) => [name, async (arg) => (await ready)[name](arg)]));
  });
} else {
  const sizes = (process.env.BENCH_SIZES ?? '10000,1000000').split(',').map(Number);
  const reps = Number(process.env.BENCH_REPS ?? 40);
  const service = spawnServiceChild(here, 'svc-bench-scale-');
  const deadline = setTimeout(() => {
    console.error('bench/scale: deadline reached, stopping');
    service.kill();
    process.exit(2);
  }, Number(process.env.BENCH_DEADLINE_S ?? 1200) * 1000);
  const svc = await service.ready;
  const headers = { authorization: `Bearer ${svc.liveKey}` };

  async function timeGet(path, expectRows) {
    const once = async () => {
      const t0 = process.hrtime.bigint();
      const res = await fetch(`${svc.baseUrl}${path}`, { headers });
      const page = await res.json();
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (res.status !== 200 || page.data.length !== expectRows) throw new Error(`GET ${path}: ${res.status}, ${page.data?.length} rows`);
      return ms;
    };
    for (let i = 0; i < 5; i++) await once();
    const times = [];
    for (let i = 0; i < reps; i++) times.push(await once());
    return median(times);
  }

  const bySize = [];
  try {
    for (const n of sizes) {
      const fill = await service.ask(`fill ${n}`);
      const c = await service.ask('cursors');
      const due = await service.ask(`due ${reps}`);
      if (due.found !== PENDING) throw new Error(`due scan found ${due.found} deliveries, expected ${PENDING}`);
      const figures = {
        'GET /v1/messages (first page)': await timeGet(`/v1/messages?limit=${PAGE}`, PAGE),
        'GET /v1/messages (last page)': await timeGet(`/v1/messages?limit=${PAGE}&cursor=${c.messagesDeep}`, PAGE),
        'GET /v1/events?after=<old cursor>': await timeGet(`/v1/events?limit=${PAGE}&after=${c.eventsOld}`, PAGE),
        'GET /v1/conversations (first page)': await timeGet(`/v1/conversations?limit=${PAGE}`, PAGE),
        'GET /v1/conversations (last page)': await timeGet(`/v1/conversations?limit=${PAGE}&cursor=${c.conversationsDeep}`, PAGE),
        'delivery due scan (100 due)': due.ms,
      };
      bySize.push({ n, fillMs: fill.ms, figures });
      console.error(JSON.stringify(bySize[bySize.length - 1]));
    }
  } finally {
    clearTimeout(deadline);
    await service.stop();
  }
  const first = bySize[0];
  const last = bySize[bySize.length - 1];
  const table = Object.keys(first.figures).map((request) => ({
    request,
    [`ms at ${first.n}`]: +first.figures[request].toFixed(3),
    [`ms at ${last.n}`]: +last.figures[request].toFixed(3),
    ratio: +(last.figures[request] / first.figures[request]).toFixed(2),
  }));
  console.table(table);
  console.log(JSON.stringify({ bench: 'scale', sizes, reps, table, worstRatio: Math.max(...table.map((r) => r.ratio)) }));
}
