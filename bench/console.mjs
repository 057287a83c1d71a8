#!/usr/bin/env node
// bench/console, issue 27 "Fast: a page's HTML in under 100 ms on the local service with 1M messages
// stored". The built service in this process (a temp data directory, manual clock); BENCH_MESSAGES
// messages (one conversation per 10) and as many events stored through the repositories in write
// transactions of 20k (setup, not measured); then each console page fetched over HTTP with a session
// cookie, BENCH_REPS times after a warm-up; the median and the worst are printed per page.
//
//   npm run build && node bench/console.mjs     BENCH_MESSAGES=1000000  BENCH_REPS=30
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../dist/server/main.js';

const N = Number(process.env.BENCH_MESSAGES ?? 1_000_000);
const REPS = Number(process.env.BENCH_REPS ?? 30);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-console-'));
const svc = await startService({ host: '127.0.0.1', port: 0, dataDir, clock: 'manual' });
try {
  const accountId = svc.bootstrap.accountId;
  const base = Date.now() - 100_000_000;
  const t0 = Date.now();
  svc.db.pragma('cache_size = -524288');
  for (let stored = 0; stored < N; ) {
    const batch = Math.min(20_000, N - stored);
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
      }
    });
  }
  svc.db.pragma('cache_size = -2000');
  svc.db.pragma('wal_checkpoint(TRUNCATE)');
  console.log(`stored ${N} messages and ${N} events in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const key = svc.bootstrap.liveKey;
  const link = await (await fetch(`${svc.baseUrl}/v1/console/sessions`, { method: 'POST', headers: { authorization: `Bearer ${key}` } })).json();
  // The link's confirmation page, then its button (a POST from the console's own origin).
  const token = new URL(link.url).searchParams.get('token');
  const login = await fetch(`${svc.baseUrl}/console/login`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: svc.baseUrl, 'sec-fetch-site': 'same-origin' }, body: new URLSearchParams({ token }).toString() });
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const lastParty = `+1${2_000_000_000 + Math.floor((N - 1) / 10)}`;
  const conversations = await (await fetch(`${svc.baseUrl}/console/messages`, { headers: { cookie } })).text();
  const deep = /href="\?cursor=([^"]+)"/.exec(conversations)?.[1];
  const pages = {
    overview: '/console/',
    conversations: '/console/messages',
    'conversations, page 2': deep ? `/console/messages?cursor=${deep}` : '/console/messages',
    thread: `/console/messages/${encodeURIComponent(lastParty)}`,
    events: '/console/events',
    'events, message.*': '/console/events?types=message.*',
    billing: '/console/billing',
    keys: '/console/keys',
  };
  for (const [name, path] of Object.entries(pages)) {
    const times = [];
    for (let i = 0; i < REPS + 3; i++) {
      const s = process.hrtime.bigint();
      const res = await fetch(`${svc.baseUrl}${path}`, { headers: { cookie } });
      await res.text();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
      if (i >= 3) times.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
    console.log(`${name.padEnd(24)} median ${median(times).toFixed(1)} ms   worst ${Math.max(...times).toFixed(1)} ms`);
  }
} finally {
  await svc.close();
  rmSync(dataDir, { recursive: true, force: true });
}
