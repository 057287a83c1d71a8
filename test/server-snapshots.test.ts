import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, existsSync, copyFileSync, mkdirSync, statSync, readdirSync, symlinkSync, cpSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { openSync, readSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { assertBuilt, BIN_PATH, runSvcProcess } from './helpers/cli.js';
import { startService as startInProcess } from '../src/testing/index.js';
import { makeSnapshotOlder, snapshotIntegrity, snapshotMessageBodies, tamperSnapshot, type SnapshotTamper } from './helpers/inspect.js';
import { openTerminal, shellEnvFor } from './helpers/terminal.js';

// Snapshots and reset of a real local service process, driven by the real CLI.

interface Bootstrap {
  accountId: string;
  liveKey: string;
  testKey: string;
}

const dirs: string[] = [];
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const bootstrapOf = (dir: string): Bootstrap => readJson(join(dir, 'bootstrap.json'));
const pidOf = (dir: string): number | undefined => (existsSync(join(dir, 'server.json')) ? readJson(join(dir, 'server.json')).pid : undefined);

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-snapshots-'));
  dirs.push(dir);
  return dir;
}

const svc = (dir: string, args: string[]) => runSvcProcess(args, { env: { SVC_DATA_DIR: dir }, timeoutMs: 40_000 });

async function startService(dir: string): Promise<string> {
  const started = await svc(dir, ['server', 'start', '--detach', '--port', '0', '--clock', 'manual']);
  expect(started.code, started.stderr).toBe(0);
  return started.stdout.trim();
}

/** The service's address now: load and reset restart it (same port). */
const baseUrlOf = (dir: string): string => readJson(join(dir, 'server.json')).baseUrl;

async function call(dir: string, method: string, path: string, body?: unknown, key = bootstrapOf(dir).liveKey, headers: Record<string, string> = {}) {
  const res = await fetch(new URL(path, baseUrlOf(dir)), {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, serviceTime: res.headers.get('service-time') };
}

const send = (dir: string, text: string) => call(dir, 'POST', '/v1/messages', { from: '+15005550006', to: '+14155550123', body: text }, bootstrapOf(dir).testKey);
const messageBodies = async (dir: string): Promise<string[]> => {
  const res = await call(dir, 'GET', '/v1/messages?limit=100', undefined, bootstrapOf(dir).testKey);
  expect(res.status).toBe(200);
  return res.body.data.map((m: { body: string }) => m.body).sort();
};
const deliveriesOf = async (dir: string, endpointId: string) => {
  const res = await call(dir, 'GET', `/v1/webhooks/${endpointId}/deliveries`);
  expect(res.status).toBe(200);
  return res.body.data as Array<{ id: string; status: string; attempt: number; nextAttemptAt: string | null; attempts: Array<{ attempt: number; at: string }> }>;
};
const advance = (dir: string, seconds: number) => call(dir, 'POST', '/v1/sandbox/clock/advance', { seconds });

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const got = await fn();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterEach(async () => {
  for (const dir of dirs.splice(0)) {
    const pid = pidOf(dir);
    if (pid) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('svc server snapshot', () => {
  beforeAll(() => assertBuilt());

  it('save → change → load gives back the messages, the clock and a pending delivery still due', async () => {
    const dir = newDataDir();
    await startService(dir);
    // A webhook whose receiver is down (port 9 refuses): its delivery fails and waits for a retry tick.
    const endpoint = await call(dir, 'POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hook' });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    expect((await send(dir, 'before the snapshot')).status).toBe(201);
    const pending = await waitFor('a failed first attempt', async () => {
      const list = await deliveriesOf(dir, endpoint.body.id);
      return list.length > 0 && list.every((d) => d.status === 'failed' && d.nextAttemptAt) ? list : undefined;
    });
    expect(pending.length).toBeGreaterThan(0);
    const savedMessages = await messageBodies(dir);
    expect(savedMessages).toEqual(['before the snapshot']);
    const savedTime = (await call(dir, 'GET', '/v1/sandbox/clock')).serviceTime;
    expect(savedTime).toBeTruthy();

    const saved = await svc(dir, ['server', 'snapshot', 'save', 'before']);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout.trim()).toBe(join(dir, 'snapshots', 'before.db'));

    // The change: another message, an hour later (the retry ran), another webhook.
    expect((await send(dir, 'after the snapshot')).status).toBe(201);
    expect((await advance(dir, 3600)).status).toBe(200);
    expect((await call(dir, 'POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/other' })).status).toBe(201);
    const changed = await deliveriesOf(dir, endpoint.body.id);
    expect(changed.some((d) => d.attempt > 1)).toBe(true);
    const pidBefore = pidOf(dir);

    const loaded = await svc(dir, ['server', 'snapshot', 'load', 'before']);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stderr).toContain('started the local service again');
    expect(pidOf(dir)).not.toBe(pidBefore);

    // The profile's keys (bootstrap.json) work unchanged; the state is the saved one.
    expect(await messageBodies(dir)).toEqual(savedMessages);
    expect((await call(dir, 'GET', '/v1/sandbox/clock')).serviceTime).toBe(savedTime);
    const webhooks = await call(dir, 'GET', '/v1/webhooks');
    expect(webhooks.body.data.map((w: { id: string }) => w.id)).toEqual([endpoint.body.id]);
    expect(await deliveriesOf(dir, endpoint.body.id)).toEqual(pending);
    // Still due: the next tick retries it at the time the snapshot had planned.
    expect((await advance(dir, 600)).status).toBe(200);
    const retried = await waitFor('the retry after load', async () => {
      const list = await deliveriesOf(dir, endpoint.body.id);
      return list.every((d) => d.attempt >= 2) ? list : undefined;
    });
    expect(retried.length).toBe(pending.length);
    for (const d of retried) {
      const planned = pending.find((p) => p.id === d.id)!.nextAttemptAt;
      expect(d.attempts.find((t) => t.attempt === 2)!.at).toBe(planned);
    }
  }, 120_000);

  it('loads a snapshot of another data directory (another machine): this directory\'s keys keep working', async () => {
    const a = newDataDir();
    await startService(a);
    expect((await send(a, 'from machine A')).status).toBe(201);
    expect((await svc(a, ['server', 'snapshot', 'save', 'shared'])).code).toBe(0);
    expect((await svc(a, ['server', 'stop'])).code).toBe(0);

    const b = newDataDir();
    await startService(b);
    expect((await svc(b, ['server', 'stop'])).code).toBe(0);
    const keysOfB = bootstrapOf(b);
    // A team commits the file; another checkout loads it while its service is stopped.
    mkdirSync(join(b, 'snapshots'));
    copyFileSync(join(a, 'snapshots', 'shared.db'), join(b, 'snapshots', 'shared.db'));
    const loaded = await svc(b, ['server', 'snapshot', 'load', 'shared']);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stderr).not.toContain('started');
    await startService(b);
    const after = bootstrapOf(b);
    expect(after.liveKey).toBe(keysOfB.liveKey);
    expect(after.testKey).toBe(keysOfB.testKey);
    expect(after.accountId).toBe(bootstrapOf(a).accountId); // the snapshot's agency account
    expect(await messageBodies(b)).toEqual(['from machine A']);
    expect((await call(b, 'GET', '/v1/keys')).status).toBe(200);
  }, 120_000);

  it('saves a consistent copy while the service is busy writing', async () => {
    const dir = newDataDir();
    await startService(dir);
    let stop = false;
    let accepted = 0;
    const writer = (async () => {
      while (!stop) if ((await send(dir, `busy ${accepted}`)).status === 201) accepted++;
    })();
    await waitFor('some writes', async () => (accepted >= 20 ? true : undefined));
    const saved = await svc(dir, ['server', 'snapshot', 'save', 'busy']);
    const atSave = accepted;
    stop = true;
    await writer;
    expect(saved.code, saved.stderr).toBe(0);
    const snapshot = snapshotIntegrity(join(dir, 'snapshots', 'busy.db'));
    expect(snapshot.integrity).toBe('ok');
    const inSnapshot = snapshot.messages;
    expect(inSnapshot).toBeGreaterThanOrEqual(20);
    expect(inSnapshot).toBeLessThanOrEqual(atSave + 1);
    // Every message's conversation row is there: one transaction's writes, all or none.
    expect(snapshot.orphanMessages).toBe(0);
  }, 60_000);

  it('saves to and loads from a path of your own (a snapshot committed next to the tests)', async () => {
    const seeded = newDataDir();
    await startService(seeded);
    expect((await send(seeded, 'seeded for CI')).status).toBe(201);
    const committed = join(newDataDir(), 'test', 'seed.db');
    const saved = await svc(seeded, ['server', 'snapshot', 'save', committed]);
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout.trim()).toBe(committed);
    expect(existsSync(committed)).toBe(true);
    // Not in the data directory's own list: it is the user's file.
    expect((await svc(seeded, ['server', 'snapshot', 'list', '-o', 'json'])).stdout.trim()).toBe('[]');

    const ci = newDataDir();
    await startService(ci);
    expect(await messageBodies(ci)).toEqual([]);
    const loaded = await svc(ci, ['server', 'snapshot', 'load', committed]);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(await messageBodies(ci)).toEqual(['seeded for CI']);

    const notDb = await svc(ci, ['server', 'snapshot', 'load', './test/seed.sqlite']);
    expect(notDb.code).toBe(2);
    expect(notDb.stderr).toContain('a snapshot path ends in .db');
    const missing = await svc(ci, ['server', 'snapshot', 'load', join(ci, 'nope', 'seed.db')]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain(`no snapshot file ${join(ci, 'nope', 'seed.db')}`);
  }, 120_000);

  it('refuses a snapshot of another schema version, naming both, and changes nothing', async () => {
    const dir = newDataDir();
    await startService(dir);
    expect((await svc(dir, ['server', 'snapshot', 'save', 'old'])).code).toBe(0);
    // An older svc's snapshot: its newest migration is not this code's.
    const file = join(dir, 'snapshots', 'old.db');
    const latest = makeSnapshotOlder(file);
    expect((await send(dir, 'kept')).status).toBe(201);
    const pid = pidOf(dir);

    const refused = await svc(dir, ['server', 'snapshot', 'load', 'old']);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(`schema version ${latest - 1}`);
    expect(refused.stderr).toContain(`schema version ${latest}`);
    expect(refused.stderr).toContain('nothing was changed');
    expect(pidOf(dir)).toBe(pid);
    expect(await messageBodies(dir)).toEqual(['kept']);
  }, 60_000);

  it('lists snapshots with size, time and schema version; removes one; refuses bad and unknown names', async () => {
    const dir = newDataDir();
    await startService(dir);
    expect((await svc(dir, ['server', 'snapshot', 'save', 'one'])).code).toBe(0);
    expect((await svc(dir, ['server', 'stop'])).code).toBe(0);
    // Saved from a stopped service too: the CLI copies the file itself.
    expect((await svc(dir, ['server', 'snapshot', 'save', 'two'])).code).toBe(0);

    const listed = await svc(dir, ['server', 'snapshot', 'list', '-o', 'json']);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = JSON.parse(listed.stdout) as Array<{ name: string; bytes: number; savedAt: string; schemaVersion: number }>;
    expect(rows.length).toBe(2);
    expect(rows.map((r) => r.name)).toEqual(['one', 'two']);
    for (const r of rows) {
      expect(r.bytes).toBe(statSync(join(dir, 'snapshots', `${r.name}.db`)).size);
      expect(r.bytes).toBeGreaterThan(0);
      expect(Number.isNaN(Date.parse(r.savedAt))).toBe(false);
      expect(r.schemaVersion).toBeGreaterThan(0);
    }

    expect((await svc(dir, ['server', 'snapshot', 'remove', 'one'])).code).toBe(0);
    expect(existsSync(join(dir, 'snapshots', 'one.db'))).toBe(false);
    const again = JSON.parse((await svc(dir, ['server', 'snapshot', 'list', '-o', 'json'])).stdout) as Array<{ name: string }>;
    expect(again.map((r) => r.name)).toEqual(['two']);

    const unknown = await svc(dir, ['server', 'snapshot', 'remove', 'one']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toContain('no snapshot "one"');
    const bad = await svc(dir, ['server', 'snapshot', 'save', '../escape']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('../escape: a snapshot path ends in .db');
    expect(bad.stderr).not.toContain('<name>');
    expect(existsSync(join(dir, 'escape.db'))).toBe(false);
  }, 60_000);
});

describe('snapshots that cannot be loaded, and other bad input', () => {
  beforeAll(() => assertBuilt());

  it('refuses a damaged snapshot and a file that is no svc database (exit 2), the running service and its data untouched', async () => {
    const dir = newDataDir();
    await startService(dir);
    // Fewer sends than the service's rate-limit burst (200), each long enough to fill many pages.
    for (let i = 0; i < 150; i++) expect((await send(dir, `padding ${i} ${'x'.repeat(400)}`)).status).toBe(201);
    expect((await svc(dir, ['server', 'snapshot', 'save', 'good'])).code).toBe(0);
    // Damaged the way a bad merge or a partial download damages a file: its header intact, pages overwritten.
    const damaged = join(dir, 'snapshots', 'damaged.db');
    copyFileSync(join(dir, 'snapshots', 'good.db'), damaged);
    const size = statSync(damaged).size;
    expect(size).toBeGreaterThan(40_000);
    // Every third page from the third on gets its b-tree page header overwritten: structural damage
    // SQLite's check finds whatever the page holds (cell content alone might read as plain data).
    const fd = openSync(damaged, 'r+');
    const pageSizeBytes = Buffer.alloc(2);
    readSync(fd, pageSizeBytes, 0, 2, 16);
    const pageSize = pageSizeBytes.readUInt16BE(0) || 65_536;
    for (let at = 2 * pageSize; at < size; at += 3 * pageSize) writeSync(fd, Buffer.alloc(64, 0xde), 0, 64, at);
    closeSync(fd);
    const header = Buffer.alloc(16);
    const check = openSync(damaged, 'r');
    readSync(check, header, 0, 16, 0);
    closeSync(check);
    expect(header.toString('latin1')).toBe('SQLite format 3\0');
    writeFileSync(join(dir, 'snapshots', 'notes.db'), 'not a database at all\n');
    const pid = pidOf(dir);
    const before = await messageBodies(dir);
    expect(before.length).toBe(100); // one page of the 150

    const refused = await svc(dir, ['server', 'snapshot', 'load', 'damaged']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('snapshot "damaged" is damaged or not a database');
    expect(refused.stderr).toContain('nothing was changed');
    const garbage = await svc(dir, ['server', 'snapshot', 'load', 'notes']);
    expect(garbage.code, garbage.stderr).toBe(2);
    expect(garbage.stderr).toContain('nothing was changed');
    expect(garbage.stderr).not.toContain('load it with the svc version that saved it');
    expect(pidOf(dir)).toBe(pid);
    expect(await messageBodies(dir)).toEqual(before);
  }, 90_000);

  it('refuses to save onto the live database, to reset a directory with no data; loads into a new directory', async () => {
    const dir = newDataDir();
    await startService(dir);
    expect((await send(dir, 'carried')).status).toBe(201);
    const onto = await svc(dir, ['server', 'snapshot', 'save', join(dir, 'svc.db')]);
    expect(onto.code).toBe(2);
    expect(onto.stderr).toContain("is the local service's own data");
    const seed = join(newDataDir(), 'seed.db');
    expect((await svc(dir, ['server', 'snapshot', 'save', seed])).code).toBe(0);

    const nowhere = join(newDataDir(), 'never-started');
    const reset = await svc(nowhere, ['server', 'reset']);
    expect(reset.code).toBe(4);
    expect(reset.stderr).toContain('does not exist: nothing to reset');
    expect(existsSync(nowhere)).toBe(false);

    const fresh = join(newDataDir(), 'ci-data');
    const loaded = await svc(fresh, ['server', 'snapshot', 'load', seed]);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(snapshotMessageBodies(join(fresh, 'svc.db'))).toEqual(['carried']);
  }, 60_000);

  it('Ctrl-C during a load finishes it and starts the service again before ending (exit 130)', async () => {
    const dir = newDataDir();
    await startService(dir);
    expect((await svc(dir, ['server', 'snapshot', 'save', 'before'])).code).toBe(0);
    expect((await send(dir, 'after the snapshot')).status).toBe(201);
    const child = spawn(process.execPath, [BIN_PATH, 'server', 'snapshot', 'load', 'before'], { env: { PATH: process.env.PATH, HOME: dir, SVC_DATA_DIR: dir, SVC_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let presses = 0;
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      // Interrupted once the service is down, the worst moment to stop, and pressed again.
      if (presses === 0 && stderr.includes('stopped the local service')) {
        presses++;
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGINT'), 50);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toContain('stopped the local service');
    expect(code, stderr).toBe(130);
    expect(stderr).toContain('started the local service again');
    expect(stderr).toContain('interrupted: the change was completed');
    expect(pidOf(dir)).toBeDefined();
    expect(await messageBodies(dir)).toEqual([]);
  }, 60_000);
});

describe('media and other services on the data directory', () => {
  beforeAll(() => assertBuilt());

  it("carries the media files a snapshot's rows name (a voicemail greeting), none half-written", async () => {
    const dir = newDataDir();
    await startService(dir);
    const { testKey } = bootstrapOf(dir);
    const found = await call(dir, 'POST', '/v1/numbers/search', { areaCode: '415', limit: 1 }, testKey);
    const number = await call(dir, 'POST', '/v1/numbers/buy', { phoneNumber: found.body.data[0].phoneNumber }, testKey);
    expect(number.status).toBe(201);
    const upload = async (bytes: Buffer) => {
      const res = await fetch(new URL(`/v1/numbers/${number.body.id}/voicemail-greeting`, baseUrlOf(dir)), {
        method: 'PUT',
        headers: { authorization: `Bearer ${testKey}`, 'content-type': 'audio/mpeg' },
        body: new Uint8Array(bytes),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { greetingAudioUrl: string }).greetingAudioUrl;
    };
    const first = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(64, 1)]);
    const firstUrl = await upload(first);
    expect((await svc(dir, ['server', 'snapshot', 'save', 'greeting'])).code).toBe(0);
    const media = join(dir, 'snapshots', 'greeting.media');
    expect(readdirSync(media)).toEqual([firstUrl.split('/').pop()]);
    expect(readdirSync(join(dir, 'snapshots')).filter((f) => f.includes('.tmp'))).toEqual([]);
    // A new greeting deletes the first file; loading the snapshot brings it back, served again.
    const secondUrl = await upload(Buffer.concat([Buffer.from('ID3'), Buffer.alloc(64, 2)]));
    expect(secondUrl).not.toBe(firstUrl);
    expect((await fetch(new URL(new URL(firstUrl).pathname, baseUrlOf(dir)))).status).toBe(404);
    expect((await svc(dir, ['server', 'snapshot', 'load', 'greeting'])).code).toBe(0);
    const served = await fetch(new URL(new URL(firstUrl).pathname, baseUrlOf(dir)));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(first)).toBe(true);
  }, 120_000);

  it('reset and load refuse a directory a service without server.json is using (started from code); a second service on it is refused', async () => {
    const dir = newDataDir();
    // Started from code by svc/testing, as an app's test suite does: it writes no server.json.
    const running = await startInProcess({ dataDir: dir, clock: 'manual' });
    try {
      expect(existsSync(join(dir, 'server.json'))).toBe(false);
      const sent = await fetch(new URL('/v1/messages', running.baseUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${running.testKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from: '+15005550006', to: '+14155550123', body: 'kept' }),
      });
      expect(sent.status).toBe(201);
      expect((await svc(dir, ['server', 'snapshot', 'save', 'live'])).code).toBe(0);
      for (const args of [['server', 'reset'], ['server', 'snapshot', 'load', 'live']]) {
        const refused = await svc(dir, args);
        expect(refused.code, refused.stderr).toBe(5);
        expect(refused.stderr).toContain('left no server.json');
        expect(refused.stderr).toContain('nothing was changed');
      }
      const stillThere = await fetch(new URL('/v1/messages?limit=10', running.baseUrl), { headers: { authorization: `Bearer ${running.testKey}` } });
      const bodies = ((await stillThere.json()) as { data: Array<{ body: string }> }).data.map((m) => m.body);
      expect(bodies).toEqual(['kept']);
      await expect(startInProcess({ dataDir: dir, clock: 'manual' })).rejects.toThrow(`another svc service is running on ${dir}`);
      const second = await svc(dir, ['server', 'start', '--port', '0']);
      expect(second.code).toBe(5);
      expect(second.stderr).toContain(`another svc service is running on ${dir} but left no server.json`);
      const detached = await svc(dir, ['server', 'start', '--detach', '--port', '0']);
      expect(detached.code).toBe(5);
      expect(detached.stderr).toContain('left no server.json');
    } finally {
      await running.close();
    }
    // Closed, it lets go: reset goes through.
    const reset = await svc(dir, ['server', 'reset']);
    expect(reset.code, reset.stderr).toBe(0);
  }, 120_000);
});

/** What a refused load must leave as it was: the database's bytes and the media folder's listing. */
function dataState(dir: string): string {
  const media = join(dir, 'media');
  const files = existsSync(media) ? readdirSync(media).sort() : [];
  return `${createHash('sha256').update(readFileSync(join(dir, 'svc.db'))).digest('hex')} ${files.join(',')}`;
}

/** Buys a number and uploads a greeting for it: the one kind of public media. Answers the greeting's URL. */
async function uploadGreeting(dir: string): Promise<string> {
  const { testKey } = bootstrapOf(dir);
  const found = await call(dir, 'POST', '/v1/numbers/search', { areaCode: '415', limit: 1 }, testKey);
  const number = await call(dir, 'POST', '/v1/numbers/buy', { phoneNumber: found.body.data[0].phoneNumber }, testKey);
  expect(number.status).toBe(201);
  const res = await fetch(new URL(`/v1/numbers/${number.body.id}/voicemail-greeting`, baseUrlOf(dir)), {
    method: 'PUT',
    headers: { authorization: `Bearer ${testKey}`, 'content-type': 'audio/wav' },
    body: new Uint8Array(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVE'), Buffer.alloc(32, 1)])),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { greetingAudioUrl: string }).greetingAudioUrl;
}

describe('snapshots from someone else', () => {
  beforeAll(() => assertBuilt());

  it('refuses a snapshot whose media folder holds links or anything but regular files (exit 2), naming the entry; nothing changes', async () => {
    const dir = newDataDir();
    await startService(dir);
    const greeting = (await uploadGreeting(dir)).split('/').pop()!;
    expect((await svc(dir, ['server', 'snapshot', 'save', 'good'])).code).toBe(0);
    expect((await svc(dir, ['server', 'stop'])).code).toBe(0);
    const snapshots = join(dir, 'snapshots');
    const before = dataState(dir);
    // Each crafted snapshot is the good database with a media folder an attacker made.
    const crafted: Array<[string, (media: string) => void, string]> = [
      ['bootstrap', (m) => symlinkSync(join(dir, 'bootstrap.json'), join(m, greeting)), 'a symbolic link'],
      ['passwd', (m) => symlinkSync('/etc/passwd', join(m, 'greeting_passwd.wav')), 'a symbolic link'],
      ['environ', (m) => symlinkSync('/proc/self/environ', join(m, 'greeting_environ.wav')), 'a symbolic link'],
      ['fifo', (m) => execFileSync('mkfifo', [join(m, 'greeting_fifo.wav')]), 'a FIFO'],
      ['folder', (m) => mkdirSync(join(m, 'greeting_dir.wav')), 'a directory'],
    ];
    for (const [name, plant, kind] of crafted) {
      copyFileSync(join(snapshots, 'good.db'), join(snapshots, `${name}.db`));
      cpSync(join(snapshots, 'good.media'), join(snapshots, `${name}.media`), { recursive: true });
      if (name === 'bootstrap') rmSync(join(snapshots, `${name}.media`, greeting));
      plant(join(snapshots, `${name}.media`));
      const refused = await svc(dir, ['server', 'snapshot', 'load', name]);
      expect(refused.code, `${name}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr).toContain(`snapshot "${name}" has ${name}.media/`);
      expect(refused.stderr).toContain(kind);
      expect(refused.stderr).toContain('nothing was changed');
      expect(dataState(dir)).toBe(before);
    }
    // The media folder itself a link to somewhere else.
    copyFileSync(join(snapshots, 'good.db'), join(snapshots, 'linked.db'));
    symlinkSync(join(snapshots, 'good.media'), join(snapshots, 'linked.media'));
    const linked = await svc(dir, ['server', 'snapshot', 'load', 'linked']);
    expect(linked.code, linked.stderr).toBe(2);
    expect(linked.stderr).toContain('media folder linked.media that is a symbolic link');
    expect(dataState(dir)).toBe(before);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);

    // The good one still loads, and its greeting is served; a file no row names is not, even in the folder.
    expect((await svc(dir, ['server', 'snapshot', 'load', 'good'])).code).toBe(0);
    copyFileSync(join(dir, 'bootstrap.json'), join(dir, 'media', 'greeting_unrecorded.wav'));
    await startService(dir);
    expect((await fetch(new URL(`/media/${greeting}`, baseUrlOf(dir)))).status).toBe(200);
    expect((await fetch(new URL('/media/greeting_unrecorded.wav', baseUrlOf(dir)))).status).toBe(404);
  }, 180_000);

  it('refuses a snapshot with a trigger, a view or a schema not exactly ours (exit 2), naming it; no trigger fires, nothing changes', async () => {
    const dir = newDataDir();
    await startService(dir);
    expect((await send(dir, 'kept')).status).toBe(201);
    // Saved from another data directory: loading it inserts this directory's bootstrap keys, the
    // write a trigger on api_keys would have run on.
    const other = newDataDir();
    await startService(other);
    expect((await svc(other, ['server', 'snapshot', 'save', 'good'])).code).toBe(0);
    expect((await svc(other, ['server', 'stop'])).code).toBe(0);
    expect((await call(dir, 'POST', '/v1/webhooks', { url: 'https://victim.example/hook' })).status).toBe(201);
    expect((await svc(dir, ['server', 'stop'])).code).toBe(0);
    const before = dataState(dir);
    const crafted: Array<[SnapshotTamper, string]> = [
      ['trigger', 'trigger "planted" on api_keys'],
      ['view', 'view "planted_view"'],
      ['dropped', 'table "sandbox_dns" is missing'],
      ['column', 'table "messages": extra column planted'],
      ['index', 'index "planted_index" on messages'],
      ['check', 'table "wallets": a column type, default or constraint'],
    ];
    for (const [name, named] of crafted) {
      const file = join(other, 'snapshots', `${name}.db`);
      copyFileSync(join(other, 'snapshots', 'good.db'), file);
      tamperSnapshot(file, name);
      const refused = await svc(dir, ['server', 'snapshot', 'load', file]);
      expect(refused.code, `${name}: ${refused.stderr}`).toBe(2);
      expect(refused.stderr).toContain('is not an svc snapshot: its schema is not');
      expect(refused.stderr).toContain(named);
      expect(refused.stderr).toContain('nothing was changed');
      expect(dataState(dir)).toBe(before);
    }
    await startService(dir);
    expect(await messageBodies(dir)).toEqual(['kept']);
    const hooks = await call(dir, 'GET', '/v1/webhooks');
    expect(hooks.body.data.map((w: { url: string }) => w.url)).toEqual(['https://victim.example/hook']);
  }, 180_000);

  it("revokes the keys a snapshot brings and disables its endpoints to other hosts, unless --trust-snapshot; this directory's own keys survive", async () => {
    // The attacker's data: a key of a sub-account, webhooks to their host, to localhost, and to a host the victim also uses.
    const attacker = newDataDir();
    await startService(attacker);
    const child = await call(attacker, 'POST', '/v1/subaccounts', { name: 'planted' });
    expect(child.status).toBe(201);
    const plantedKey = await call(attacker, 'POST', '/v1/keys', { name: 'planted', mode: 'live' }, bootstrapOf(attacker).liveKey, { 'Service-Subaccount': child.body.id });
    expect(plantedKey.status).toBe(201);
    for (const url of ['https://attacker.example/hook', 'http://127.0.0.1:9/hook', 'https://shared.example/hook']) {
      expect((await call(attacker, 'POST', '/v1/webhooks', { url })).status).toBe(201);
    }
    const file = join(newDataDir(), 'gift.db');
    expect((await svc(attacker, ['server', 'snapshot', 'save', file])).code).toBe(0);
    const attackerKeys = bootstrapOf(attacker);
    expect((await svc(attacker, ['server', 'stop'])).code).toBe(0);

    const victim = newDataDir();
    await startService(victim);
    expect((await call(victim, 'POST', '/v1/webhooks', { url: 'https://shared.example/hook' })).status).toBe(201);
    const loaded = await svc(victim, ['server', 'snapshot', 'load', file]);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stderr).toContain('revoked 3 API keys this data directory did not have');
    expect(loaded.stderr).toContain('disabled 1 webhook endpoint to hosts it did not send to');
    for (const key of [attackerKeys.liveKey, attackerKeys.testKey, plantedKey.body.key]) {
      expect((await call(victim, 'GET', '/v1/keys', undefined, key)).status).toBe(401);
    }
    expect((await call(victim, 'GET', '/v1/keys')).status).toBe(200);
    const hooks = (await call(victim, 'GET', '/v1/webhooks')).body.data as Array<{ url: string; enabled: boolean; disabledReason: string | null }>;
    const byUrl = Object.fromEntries(hooks.map((h) => [h.url, h]));
    expect(byUrl['https://attacker.example/hook']).toMatchObject({ enabled: false, disabledReason: 'untrusted_snapshot' });
    expect(byUrl['http://127.0.0.1:9/hook']).toMatchObject({ enabled: true });
    expect(byUrl['https://shared.example/hook']).toMatchObject({ enabled: true });

    // A snapshot this directory saved loads back with its keys: they are keys it has.
    const ownKey = await call(victim, 'POST', '/v1/keys', { name: 'mine', mode: 'test' }, bootstrapOf(victim).testKey);
    expect(ownKey.status).toBe(201);
    expect((await svc(victim, ['server', 'snapshot', 'save', 'own'])).code).toBe(0);
    const own = await svc(victim, ['server', 'snapshot', 'load', 'own']);
    expect(own.code, own.stderr).toBe(0);
    expect(own.stderr).not.toContain('revoked');
    expect((await call(victim, 'GET', '/v1/keys', undefined, ownKey.body.key)).status).toBe(200);

    // Told to trust the file: its keys and endpoints stay as they are.
    const trusted = await svc(victim, ['server', 'snapshot', 'load', file, '--trust-snapshot']);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect((await call(victim, 'GET', '/v1/keys', undefined, plantedKey.body.key)).status).toBe(200);
    const trustedHooks = (await call(victim, 'GET', '/v1/webhooks')).body.data as Array<{ enabled: boolean }>;
    expect(trustedHooks.every((h) => h.enabled)).toBe(true);
  }, 240_000);
});

describe('svc server reset', () => {
  beforeAll(() => assertBuilt());

  it('empties the data but keeps the bootstrap keys; --keep-keys keeps every account and key', async () => {
    const dir = newDataDir();
    await startService(dir);
    const keys = bootstrapOf(dir);
    const child = await call(dir, 'POST', '/v1/subaccounts', { name: 'child' });
    expect(child.status).toBe(201);
    const childKey = await call(dir, 'POST', '/v1/keys', { name: 'child key', mode: 'live' }, keys.liveKey, { 'Service-Subaccount': child.body.id });
    expect(childKey.status, JSON.stringify(childKey.body)).toBe(201);
    expect((await send(dir, 'goes away')).status).toBe(201);
    expect((await advance(dir, 86_400)).status).toBe(200);
    const advancedTime = Date.parse((await call(dir, 'GET', '/v1/sandbox/clock')).body.now);

    const kept = await svc(dir, ['server', 'reset', '--keep-keys']);
    expect(kept.code, kept.stderr).toBe(0);
    expect(await messageBodies(dir)).toEqual([]);
    expect((await call(dir, 'GET', '/v1/messages', undefined, childKey.body.key)).status).toBe(200);
    expect(Date.parse((await call(dir, 'GET', '/v1/sandbox/clock')).body.now)).toBeLessThan(advancedTime);

    const reset = await svc(dir, ['server', 'reset']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(bootstrapOf(dir)).toEqual(keys);
    expect((await call(dir, 'GET', '/v1/messages', undefined, childKey.body.key)).status).toBe(401);
    expect((await call(dir, 'GET', '/v1/keys')).status).toBe(200);
    expect((await call(dir, 'GET', '/v1/subaccounts')).body.data).toEqual([]);
    expect(await messageBodies(dir)).toEqual([]);
  }, 120_000);

  it('a sub-account made after a clock advance is never listed as created in the future once reset restarts the clock', async () => {
    const dir = newDataDir();
    await startService(dir);
    expect((await advance(dir, 3600)).status).toBe(200);
    const child = await call(dir, 'POST', '/v1/subaccounts', { name: 'made-later' });
    expect(child.status).toBe(201);
    expect((await svc(dir, ['server', 'reset', '--keep-keys'])).code).toBe(0);
    // The clock restarted from the system clock: the kept sub-account's createdAt is ahead of it.
    const now = Date.parse((await call(dir, 'GET', '/v1/sandbox/clock')).body.now);
    expect(Date.parse(child.body.createdAt) - now).toBeGreaterThan(50 * 60_000);

    const tmp = newDataDir();
    const service = { dataDir: dir, baseUrl: baseUrlOf(dir), bootstrap: bootstrapOf(dir) };
    const env = { ...shellEnvFor(service, tmp, BIN_PATH), SVC_API_KEY: bootstrapOf(dir).liveKey, PS1: 'READY$ ' };
    const t = openTerminal(['bash', '--norc', '--noprofile'], { env });
    try {
      await t.until((screen) => /READY\$ $/.test(screen), 10_000, 'a shell prompt');
      t.type('svc subaccounts list; echo "status:$?"');
      t.press('Enter');
      const screen = await t.until((text) => /status:\d/.test(text), 15_000, 'the list');
      expect(screen).toContain('status:0');
      const row = screen.split('\n').find((line) => line.includes(child.body.id));
      expect(row, screen).toMatch(/made-later\s+active\s+just now\s*$/);
      expect(screen).not.toMatch(/\bin \d+\s?(s|m|h|d|mo|y)\b/);
    } finally {
      t.close();
    }
  }, 120_000);
});
