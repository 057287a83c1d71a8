// `svc events list` and `svc events follow` in-process against the real local service (manual
// clock): list filters and paging, following with the long-poll and with 2 s polling, the cursor
// file (saved after each event, resumed without loss or repeat), clean Ctrl-C, and a service that
// stops answering and comes back.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { runSvc, type CliResult, type RunSvcOptions, expectOk } from './helpers/cli.js';
import { startRunning, stopAllRunning } from './helpers/long-running.js';
import { emit } from './webhooks-receiver.js';
import { createTestIO } from '../src/output/io.js';
import { readCursorFile } from '../src/cli/event-stream.js';

let svc: TestService;
let tmp: string;

type RunOpts = Omit<RunSvcOptions, 'service'>;
const svcRun = (args: string[], opts: RunOpts = {}) => runSvc(args, { service: svc, ...opts });
const ok = expectOk;
const jsonLines = (text: string): any[] => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
let n = 0;
const received = (s: TestService = svc) => emit(s, 'message.received', { messageId: `msg_t${++n}`, from: '+14155550123', to: '+14155550100', body: `hello ${n}`, receivedAt: new Date().toISOString(), providerMessageId: `p${n}` });
const status = (s: TestService = svc) => emit(s, 'message.status', { messageId: `msg_t${++n}`, status: 'delivered', reason: null });
const headCursor = async (): Promise<string> => (await svc.call('GET', '/v1/events?after=now')).body.cursor;

beforeAll(async () => {
  svc = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-cli-events-'));
});

afterEach(async () => {
  await stopAllRunning();
});

afterAll(async () => {
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('events list', () => {
  it('filters by type and pattern, orders, pages with --after/--before, and --all', async () => {
    const start = await headCursor();
    const a = await received();
    const b = await status();
    const c = await received();
    const d = await emit(svc, 'email.sent', { emailId: 'eml_1', recipient: 'a@example.com', status: 'sent' });

    const all = JSON.parse(ok(await svcRun(['events', 'list', '--after', start, '-o', 'json'])).stdout);
    expect(all.map((e: any) => e.id)).toEqual([a.id, b.id, c.id, d.id]);
    // An item is the webhook body plus eventId.
    expect(all[0]).toEqual({ ...a.body, eventId: a.id });

    const onlyReceived = JSON.parse(ok(await svcRun(['events', 'list', '--after', start, '--types', 'message.received', '-o', 'json'])).stdout);
    expect(onlyReceived.map((e: any) => e.id)).toEqual([a.id, c.id]);
    const family = JSON.parse(ok(await svcRun(['events', 'list', '--after', start, '--types', 'message.*', '-o', 'json'])).stdout);
    expect(family.map((e: any) => e.id)).toEqual([a.id, b.id, c.id]);
    const two = JSON.parse(ok(await svcRun(['events', 'list', '--after', start, '--types', 'email.sent,message.status', '-o', 'json'])).stdout);
    expect(two.map((e: any) => e.id)).toEqual([b.id, d.id]);

    // Newest first, one page, the next cursor on stderr; then page back with --before.
    // Newest first by default, as every list (and the same as --order desc).
    const byDefault = JSON.parse(ok(await svcRun(['events', 'list', '--limit', '1', '-o', 'json'])).stdout);
    expect(byDefault).toHaveLength(1);
    expect(byDefault[0].id).toBe(all[all.length - 1].id);
    const newest = await svcRun(['events', 'list', '--order', 'desc', '--limit', '1', '-o', 'json']);
    expect(JSON.parse(ok(newest).stdout).map((e: any) => e.id)).toEqual([d.id]);
    const next = /--before (\S+)/.exec(newest.stderr)?.[1];
    expect(next, newest.stderr).toBeDefined();
    const older = JSON.parse(ok(await svcRun(['events', 'list', '--order', 'desc', '--limit', '2', '--before', next!, '-o', 'json'])).stdout);
    expect(older.map((e: any) => e.id)).toEqual([c.id, b.id]);

    // --all follows every page (limit 1: four pages), streaming NDJSON.
    const streamed = jsonLines(ok(await svcRun(['events', 'list', '--after', start, '--limit', '1', '--all', '-o', 'ndjson'])).stdout);
    expect(streamed.map((e) => e.id)).toEqual([a.id, b.id, c.id, d.id]);

    // Piped default: tab-separated createdAt, type, id, summary.
    const piped = ok(await svcRun(['events', 'list', '--after', start, '--limit', '1'])).stdout.trim().split('\t');
    expect(piped.slice(0, 3)).toEqual([a.body.createdAt, 'message.received', a.id]);
    expect(piped[3]).toContain('+14155550123 → +14155550100');
  });

  it('errors: an unknown type is exit 2 naming query.types; a malformed cursor exit 2; a bad --limit exit 2', async () => {
    const badType = await svcRun(['events', 'list', '--types', 'message.nope']);
    expect(badType.code).toBe(2);
    expect(badType.stderr).toContain('query.types');
    const badCursor = await svcRun(['events', 'list', '--after', 'garbage!']);
    expect(badCursor.code).toBe(2);
    expect(badCursor.stderr).toContain('query.after');
    const badLimit = await svcRun(['events', 'list', '--limit', '500']);
    expect(badLimit.code).toBe(2);
    expect(badLimit.stderr).toContain('--limit');
    const badOrder = await svcRun(['events', 'list', '--order', 'sideways']);
    expect(badOrder.code).toBe(2);
  });
});

describe('events follow', () => {
  it('prints each event as NDJSON as it arrives, saves the cursor after each, stops on Ctrl-C with exit 0, and resumes without loss or repeat', async () => {
    const cursorFile = join(tmp, 'follow', 'one.cursor');
    const f = startRunning(['events', 'follow', '-o', 'ndjson', '--cursor-file', cursorFile], { service: svc });
    // The start (now) is resolved and saved before any event: a follower stopped early still resumes here.
    await f.until(() => existsSync(cursorFile), 5000, 'the cursor file');
    expect(statSync(cursorFile).mode & 0o777).toBe(0o600);

    const e1 = await received();
    await f.until(() => f.lines().length >= 1, 5000, 'the first event');
    const e2 = await status();
    const e3 = await received();
    await f.until(() => f.lines().length >= 3, 5000, 'three events');
    const printed = jsonLines(f.io.out());
    expect(printed.map((e) => e.id)).toEqual([e1.id, e2.id, e3.id]);
    expect(printed[0]).toEqual({ ...e1.body, eventId: e1.id });

    const res = await f.stop();
    expect(res.code, res.stderr).toBe(0);
    // The position after e3: the feed's cursor after it, no event left to skip.
    const saved = readCursorFile(cursorFile)!;
    expect(saved.lastEventId).toBeUndefined();
    const after = (await svc.call('GET', `/v1/events?after=${saved.after}`)).body;
    expect(after.data).toEqual([]);

    // While it is stopped, more events arrive; a restart prints exactly those.
    const e4 = await status();
    const e5 = await received();
    const again = startRunning(['events', 'follow', '-o', 'ndjson', '--cursor-file', cursorFile], { service: svc });
    await again.until(() => again.lines().length >= 2, 5000, 'the two events of the gap');
    const e6 = await received();
    await again.until(() => again.lines().length >= 3, 5000, 'a new event after the gap');
    expect(jsonLines(again.io.out()).map((e) => e.id)).toEqual([e4.id, e5.id, e6.id]);
    expect((await again.stop()).code).toBe(0);
  });

  it('stopped between two events of one page, it resumes at the next one (the position is saved after EACH event)', async () => {
    const cursorFile = join(tmp, 'mid-page.cursor');
    writeFileSync(cursorFile, await headCursor()); // a bare cursor is accepted, as --since takes it
    // Three events in one page; Ctrl-C arrives as the second is printed.
    const events = [await received(), await status(), await received()];
    const io = createTestIO();
    let interrupt!: () => void;
    const interrupted = new Promise<void>((r) => (interrupt = r));
    const stdout = io.stdout;
    let lines = 0;
    io.stdout = { write: (text: string) => (++lines === 2 && interrupt(), stdout.write(text)) };
    const res = await runSvc(['events', 'follow', '-o', 'ndjson', '--cursor-file', cursorFile], { service: svc, io, waitForInterrupt: () => interrupted });
    expect(res.code, res.stderr).toBe(0);
    expect(jsonLines(io.out()).map((e) => e.id)).toEqual([events[0]!.id, events[1]!.id]);
    expect(readCursorFile(cursorFile)).toMatchObject({ lastEventId: events[1]!.id });

    const again = startRunning(['events', 'follow', '-o', 'ndjson', '--cursor-file', cursorFile], { service: svc });
    await again.until(() => again.lines().length >= 1, 5000, 'the third event');
    const e4 = await status();
    await again.until(() => again.lines().length >= 2, 5000, 'a new event');
    expect(jsonLines(again.io.out()).map((e) => e.id)).toEqual([events[2]!.id, e4.id]);
    expect((await again.stop()).code).toBe(0);
  });

  it('--types filters; --since CURSOR starts there and wins over the cursor file; -o json is one object per line', async () => {
    const from = await headCursor();
    const skipped = await status();
    const wanted = await received();
    const cursorFile = join(tmp, 'since.cursor');
    writeFileSync(cursorFile, JSON.stringify({ after: await headCursor() }));
    const f = startRunning(['events', 'follow', '--types', 'message.received', '--since', from, '--cursor-file', cursorFile, '-o', 'json'], { service: svc });
    await f.until(() => f.lines().length >= 1, 5000, 'the event since the cursor');
    await status();
    const later = await received();
    await f.until(() => f.lines().length >= 2, 5000, 'a later event');
    expect(f.lines().map((l) => JSON.parse(l).id)).toEqual([wanted.id, later.id]);
    expect(f.io.out()).not.toContain(skipped.id);
    expect((await f.stop()).code).toBe(0);
  });

  it('on a terminal: one human line per event (time, type, id, summary)', async () => {
    const f = startRunning(['events', 'follow', '--since', await headCursor()], { service: svc, tty: true });
    const e = await received();
    await f.until(() => f.lines().length >= 1, 5000, 'a line');
    const line = f.lines()[0]!;
    expect(line).toMatch(/^\d{2}:\d{2}:\d{2}\s+message\.received\s+evt_\S+\s+\+14155550123 → \+14155550100 "hello \d+"$/);
    expect(line).toContain(e.id);
    expect(f.io.err()).toContain('Ctrl-C to stop');
    expect((await f.stop()).code).toBe(0);
  });

  it('with a profile other than local it polls every 2 s (no wait) and still prints every event', async () => {
    const configDir = join(tmp, 'remote-config');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ profiles: { remote: { baseUrl: svc.baseUrl } } }));
    const f = startRunning(['events', 'follow', '-o', 'ndjson', '-v', '--since', await headCursor()], { service: svc, env: { SVC_PROFILE: 'remote', SVC_CONFIG_DIR: configDir } });
    await f.until((_o, err) => /GET \S+\/v1\/events/.test(err), 5000, 'a first poll');
    const e = await received();
    await f.until(() => f.lines().length >= 1, 5000, 'the event, by polling');
    expect(jsonLines(f.io.out())[0].id).toBe(e.id);
    expect(f.io.err()).not.toContain('wait=');
    expect((await f.stop()).code).toBe(0);
  });

  it('falls back to polling every 2 s when the service answers 400 to wait', async () => {
    // A loopback proxy standing in for a service without the long-poll extension.
    const http = await import('node:http');
    const refusedWait: string[] = [];
    const proxy = http.createServer(async (req, res) => {
      if (/[?&]wait=/.test(req.url ?? '')) {
        refusedWait.push(req.url!);
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'validation_error', message: 'unknown query parameter', details: [{ path: ['query', 'wait'], message: 'not allowed' }] } }));
        return;
      }
      const upstream = await fetch(`${svc.baseUrl}${req.url}`, { headers: { authorization: String(req.headers.authorization) } });
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(await upstream.text());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(proxy.address() as import('node:net').AddressInfo).port}`;
      const f = startRunning(['events', 'follow', '-o', 'ndjson', '-v', '--since', await headCursor()], { service: svc, env: { SVC_BASE_URL: base } });
      await f.until((_o, err) => err.includes('does not support wait'), 5000, 'the fallback');
      const e = await received();
      await f.until(() => f.lines().length >= 1, 5000, 'the event, by polling');
      expect(jsonLines(f.io.out())[0].id).toBe(e.id);
      expect(refusedWait).toHaveLength(1);
      expect((await f.stop()).code).toBe(0);
    } finally {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    }
  });

  it('says once on stderr when the service stops answering, keeps retrying with backoff, and resumes where it was', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-events-down-'));
    let s = await startTestService({ dataDir });
    const port = Number(new URL(s.baseUrl).port);
    try {
      const cursorFile = join(tmp, 'down.cursor');
      const f = startRunning(['events', 'follow', '-o', 'ndjson', '--cursor-file', cursorFile], { service: s });
      await f.until(() => existsSync(cursorFile), 5000, 'the cursor file');
      const before = await received(s);
      await f.until(() => f.lines().length >= 1, 5000, 'an event before the outage');
      await s.stop();
      await f.until((_o, err) => err.includes('not answering'), 5000, 'the outage notice');
      s = await startTestService({ dataDir, port });
      const after = await received(s);
      await f.until(() => f.lines().length >= 2, 10_000, 'an event after the outage');
      await f.until((_o, err) => err.includes('answers again'), 5000, 'the recovery notice');
      expect(jsonLines(f.io.out()).map((e) => e.id)).toEqual([before.id, after.id]);
      const res = await f.stop();
      expect(res.code).toBe(0);
      expect(res.stderr.match(/not answering/g)).toHaveLength(1);
    } finally {
      await s.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('errors: a cursor file that is not one, and a bad --types, exit 2 naming the flag', async () => {
    const bad = join(tmp, 'bad.cursor');
    writeFileSync(bad, '{"nope": 1}');
    const res = await svcRun(['events', 'follow', '--cursor-file', bad], { waitForInterrupt: () => Promise.resolve() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--cursor-file');
    const types = await svcRun(['events', 'follow', '--types', 'nope.nope'], { waitForInterrupt: () => new Promise(() => undefined) });
    expect(types.code).toBe(2);
    expect(types.stderr).toContain('query.types');
    expect(readFileSync(bad, 'utf8')).toBe('{"nope": 1}');
    const since = await svcRun(['events', 'follow', '--since', 'not-a-cursor'], { waitForInterrupt: () => new Promise(() => undefined) });
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('query.after');
  });
});
