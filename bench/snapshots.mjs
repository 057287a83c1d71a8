#!/usr/bin/env node
// bench/snapshots: time `svc server snapshot save` and `load` of a database holding
// BENCH_SNAPSHOT_MESSAGES messages (default 100 000), against the BUILT CLI and a real detached
// service. The messages are copies of one real message (a test send through the API) inserted with
// SQL while the service is stopped: the bench measures the copy, not 100k API calls. Reported per
// step: the CLI's own time (its "(N ms)" notice: the backup, or stop + copy + key check + start)
// and the wall time of the whole `svc` process. Removes its temp dir and stops its service.
//
//   node bench/snapshots.mjs     BENCH_SNAPSHOT_MESSAGES=100000 BENCH_ROUNDS=3
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin', 'svc.js');
const MESSAGES = Number(process.env.BENCH_SNAPSHOT_MESSAGES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'svc-bench-snapshots-'));
const env = { PATH: process.env.PATH, HOME: dir, SVC_CONFIG_DIR: join(dir, 'config'), SVC_DATA_DIR: join(dir, 'data'), NO_COLOR: '1' };

function svc(...args) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', timeout: 120_000 });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`svc ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const own = /\((?:[^()]*, )?(\d+) ms\)/.exec(r.stderr);
  return { stdout: r.stdout, stderr: r.stderr, wallMs, ownMs: own ? Number(own[1]) : NaN };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const baseUrl = svc('server', 'start', '--detach', '--port', '0', '--clock', 'manual').stdout.trim();
  const { testKey } = JSON.parse(readFileSync(join(env.SVC_DATA_DIR, 'bootstrap.json'), 'utf8'));
  const sent = await fetch(new URL('/v1/messages', baseUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ from: '+15005550006', to: '+14155550123', body: 'bench snapshot' }),
  });
  if (sent.status !== 201) throw new Error(`seed send: ${sent.status} ${await sent.text()}`);
  svc('server', 'stop');

  const db = new Database(join(env.SVC_DATA_DIR, 'svc.db'));
  const columns = db.prepare('PRAGMA table_info(messages)').all().map((c) => c.name).filter((c) => c !== 'seq' && c !== 'id');
  const seed = db.prepare('SELECT id FROM messages LIMIT 1').get().id;
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO messages (id, ${columns.join(', ')}) SELECT 'msg_bench_' || i, ${columns.join(', ')} FROM messages, n WHERE messages.id = ?`,
  ).run(MESSAGES - 1, seed);
  const count = db.prepare('SELECT COUNT(*) AS n FROM messages').get().n;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const dbBytes = statSync(join(env.SVC_DATA_DIR, 'svc.db')).size;

  svc('server', 'start', '--detach', '--port', '0', '--clock', 'manual');
  const saves = [];
  const loads = [];
  for (let round = 0; round < ROUNDS; round++) {
    saves.push(svc('server', 'snapshot', 'save', 'bench'));
    loads.push(svc('server', 'snapshot', 'load', 'bench'));
  }
  svc('server', 'stop');
  const stoppedSave = svc('server', 'snapshot', 'save', 'bench-stopped');
  const stoppedLoad = svc('server', 'snapshot', 'load', 'bench-stopped');

  const ms = (xs, k) => Math.round(median(xs.map((x) => x[k])));
  console.log(JSON.stringify({
    messages: count,
    databaseMB: +(dbBytes / 1e6).toFixed(1),
    rounds: ROUNDS,
    running: { saveMs: ms(saves, 'ownMs'), saveWallMs: ms(saves, 'wallMs'), loadMs: ms(loads, 'ownMs'), loadWallMs: ms(loads, 'wallMs') },
    stopped: { saveMs: stoppedSave.ownMs, loadMs: stoppedLoad.ownMs },
  }, null, 2));
} finally {
  try {
    spawnSync(process.execPath, [BIN, 'server', 'stop'], { env, timeout: 20_000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
