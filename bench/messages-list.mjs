#!/usr/bin/env node
// bench/messages (list half), streaming lists: `svc messages list --all -o ndjson` and
// `svc events list --all -o ndjson` as real child processes against the built service (in a child
// of its own, bench/lib/service-child.mjs): rows per second and peak memory (max RSS, GNU time) as
// the tables grow. The floor, measured in the same run just before each CLI pass: the service's own
// page reads with no CLI — the API alone, page after page over HTTP (keep-alive, the same page size,
// each page parsed to follow its cursor). Rows are stored through the repositories in write
// transactions of 20k (the unit of work; setup, not measured). Memory must stay flat
// (within 1.2x) from the smallest size to the largest: --all streams page by page.
//
//   node bench/messages-list.mjs     BENCH_SIZES=10000,100000 (add 1000000 for the 1M figure: minutes)  BENCH_LISTS=messages,events
//   BENCH_DEADLINE_S=600 (hard stop: the run is killed and its temp dirs removed)
//   BENCH_CLI_FLAGS / BENCH_CHILD_FLAGS: node flags for the svc processes / the service (e.g. --cpu-prof)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { isServeChild, serveChild, spawnServiceChild } from './lib/service-child.mjs';

const here = fileURLToPath(import.meta.url);
const root = join(dirname(here), '..');
const PAGE = 100; // the API's largest page, which `--all` asks for

/** In the service child: `store messages N` / `store events N` fill the table up to N rows. */
function storeCommands(svc) {
  const accountId = svc.bootstrap.accountId;
  const stored = { messages: 0, events: 0 };
  const base = Date.now() - 10_000_000; // distinct, increasing createdAt, all in the past
  const one = {
    messages(tx, i) {
      const at = base + i;
      const party = `+1415555${String(i % 10000).padStart(4, '0')}`;
      return tx.messages.insert({
        id: `msg_${randomBytes(10).toString('hex')}`, accountId, numberId: null, direction: i % 3 ? 'outbound' : 'inbound',
        from: '+14155550100', to: party, counterparty: party, body: `bench message ${i}: the quick brown fox jumps over the lazy dog`,
        status: 'delivered', segments: 1, channel: 'sms', media: null, reason: null, test: true, providerMessageId: null, createdAt: at, updatedAt: at,
      });
    },
    events(tx, i) {
      const at = base + i;
      const id = `evt_${randomBytes(10).toString('hex')}`;
      const party = `+1415555${String(i % 10000).padStart(4, '0')}`;
      const body = { id, type: 'message.delivered', createdAt: new Date(at).toISOString(), messageId: `msg_${randomBytes(10).toString('hex')}`, from: '+14155550100', to: party, status: 'delivered', test: true };
      return tx.eventsRepo.insert({ id, accountId, type: 'message.delivered', createdAt: at, body });
    },
  };
  return {
    async store(arg) {
      const [kind, n] = arg.split(' ');
      const target = Number(n);
      const t0 = Date.now();
      // Setup only: a large page cache while filling (random-id unique indexes), then the service's own.
      const cacheSize = svc.db.pragma('cache_size', { simple: true });
      svc.db.pragma('cache_size = -524288');
      while (stored[kind] < target) {
        const batch = Math.min(20_000, target - stored[kind]);
        await svc.deps.uow.write(async (tx) => {
          for (let k = 0; k < batch; k++) await one[kind](tx, stored[kind]++);
        });
      }
      svc.db.pragma(`cache_size = ${cacheSize}`);
      svc.db.pragma('wal_checkpoint(TRUNCATE)');
      return { kind, stored: stored[kind], ms: Date.now() - t0 };
    },
  };
}

if (isServeChild()) {
  await serveChild(storeCommands);
} else {
  const TIME = '/usr/bin/time';
  if (!existsSync(TIME)) throw new Error('bench/messages-list needs GNU time (/usr/bin/time, Debian package "time") for max RSS');
  const sizes = (process.env.BENCH_SIZES ?? '10000,100000').split(',').map(Number);
  const lists = (process.env.BENCH_LISTS ?? 'messages,events').split(',');
  const cliFlags = process.env.BENCH_CLI_FLAGS ? process.env.BENCH_CLI_FLAGS.split(' ') : [];
  const deadline = setTimeout(() => {
    console.error('bench/messages-list: deadline reached, stopping');
    service.kill();
    rmSync(cfgDir, { recursive: true, force: true });
    process.exit(2);
  }, Number(process.env.BENCH_DEADLINE_S ?? 600) * 1000);
  const cfgDir = mkdtempSync(join(tmpdir(), 'svc-bench-list-cfg-'));
  const service = spawnServiceChild(here, 'svc-bench-list-');
  const svc = await service.ready;

  /** The floor: the API alone, page after page, each page parsed to follow its cursor. */
  async function apiPages(kind) {
    const headers = { authorization: `Bearer ${svc.liveKey}` };
    let rows = 0;
    let cursor;
    const t0 = process.hrtime.bigint();
    for (;;) {
      const q = kind === 'messages' ? `limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}` : `limit=${PAGE}&order=desc${cursor ? `&before=${cursor}` : ''}`;
      const res = await fetch(`${svc.baseUrl}/v1/${kind}?${q}`, { headers });
      if (res.status !== 200) throw new Error(`GET /v1/${kind}: ${res.status} ${await res.text()}`);
      const page = await res.json();
      rows += page.data.length;
      if (!page.hasMore) break;
      cursor = kind === 'messages' ? page.nextCursor : page.cursor;
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    return { rows, rowsPerSec: Math.round(rows / seconds) };
  }

  /** `svc <kind> list --all -o ndjson` in a child process, under GNU time for its max RSS. */
  function cliList(kind) {
    return new Promise((resolve, reject) => {
      const env = { ...process.env, SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.liveKey, SVC_CONFIG_DIR: cfgDir, NO_COLOR: '1' };
      const t0 = process.hrtime.bigint();
      const child = spawn(TIME, ['-f', 'maxrss_kb=%M', process.execPath, ...cliFlags, join(root, 'bin/svc.js'), kind, 'list', '--all', '-o', 'ndjson'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let lines = 0;
      let err = '';
      child.stdout.on('data', (d) => {
        for (let i = 0; i < d.length; i++) if (d[i] === 10) lines++;
      });
      child.stderr.on('data', (d) => (err += d));
      child.on('exit', (code) => {
        const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
        const m = /maxrss_kb=(\d+)/.exec(err);
        if (code !== 0 || !m) return reject(new Error(`svc ${kind} list exited ${code}: ${err}`));
        resolve({ rows: lines, seconds: +seconds.toFixed(2), rowsPerSec: Math.round(lines / seconds), maxRssMiB: +(Number(m[1]) / 1024).toFixed(1) });
      });
    });
  }

  const results = [];
  try {
    for (const n of sizes) {
      for (const kind of lists) {
        const fill = await service.ask(`store ${kind} ${n}`);
        const floor = await apiPages(kind);
        if (floor.rows !== n) throw new Error(`API listed ${floor.rows} ${kind}, stored ${n}`);
        const cli = await cliList(kind);
        if (cli.rows !== n) throw new Error(`svc listed ${cli.rows} ${kind}, stored ${n}`);
        results.push({ list: kind, stored: n, fillMs: fill.ms, floorRowsPerSec: floor.rowsPerSec, cliRowsPerSec: cli.rowsPerSec, ratio: +(cli.rowsPerSec / floor.rowsPerSec).toFixed(2), cliSeconds: cli.seconds, maxRssMiB: cli.maxRssMiB });
        console.error(JSON.stringify(results[results.length - 1]));
      }
    }
  } finally {
    clearTimeout(deadline);
    await service.stop();
    rmSync(cfgDir, { recursive: true, force: true });
  }
  console.table(results);
  const memoryGrowth = Object.fromEntries(
    lists.map((kind) => {
      const rs = results.filter((r) => r.list === kind);
      return [kind, rs.length > 1 ? +(rs[rs.length - 1].maxRssMiB / rs[0].maxRssMiB).toFixed(2) : null];
    }),
  );
  console.log(JSON.stringify({ bench: 'messages-list', pageSize: PAGE, results, memoryGrowth }));
}
