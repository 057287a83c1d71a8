// svc/testing — the local service inside an app's test suite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService, type TestService } from '../src/testing/index.js';
import { REPO_ROOT, assertBuilt } from './helpers/cli.js';

/** A file in the fixtures format: a mock 10DLC brand and campaign, and a number assigned to it (live sends allowed). */
const SEED = fileURLToPath(new URL('../examples/mock-10dlc.yaml', import.meta.url));

describe('svc/testing startService', () => {
  let t: TestService;
  let number: string;
  beforeAll(async () => {
    assertBuilt(); // seed() runs the package's CLI
    t = await startService({ seed: SEED });
    const numbers = await t.request('GET', '/v1/numbers');
    number = numbers.body.data[0].phoneNumber;
  }, 60_000);
  afterAll(async () => await t?.close());

  it('starts a service of its own with its keys and the env an app reads', async () => {
    expect(t.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(t.env).toEqual({ SVC_BASE_URL: t.baseUrl, SVC_API_KEY: t.liveKey });
    expect(t.testKey).toMatch(/^sk_test_/);
    const keys = await t.request('GET', '/v1/keys', undefined, t.testKey);
    expect(keys.status).toBe(200);
    expect(number).toMatch(/^\+1415/);
  });

  it('moves the clock by a duration and to an instant, never back', async () => {
    const before = Date.parse(await t.clock.now());
    const moved = await t.clock.advance('2h');
    expect(Date.parse(moved.now) - before).toBe(2 * 3600 * 1000);
    const target = new Date(before + 3 * 86400 * 1000).toISOString();
    expect((await t.clock.set(target)).now).toBe(target);
    await expect(t.clock.set(new Date(before).toISOString())).rejects.toThrow(/never goes back/);
    await expect(t.clock.advance('2 hours')).rejects.toThrow(/not a duration/);
    await t.reset();
  });

  it('reset() returns to the state right after start and seeding: data, ids and clock', async () => {
    const clockAtSeed = await t.clock.now();
    await t.request('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['message.received'] });
    // An event after the endpoint: the service now holds the account's endpoints in memory too.
    const first = await t.inbound.sms({ to: number, from: '+14155550123', body: 'one' });
    await t.clock.advance('1d');
    await t.reset();
    expect(await t.clock.now()).toBe(clockAtSeed);
    expect((await t.request('GET', '/v1/messages')).body.data).toEqual([]);
    expect((await t.request('GET', '/v1/webhooks')).body.data).toEqual([]);
    expect((await t.request('GET', '/v1/numbers')).body.data.map((n: { phoneNumber: string }) => n.phoneNumber)).toEqual([number]);
    // The service works on after a reset, and writes the same rows again.
    const again = await t.inbound.sms({ to: number, from: '+14155550123', body: 'one' });
    expect(again.status).toBe('received');
    expect(again.id).not.toBe(first.id);
    await t.reset();
  });

  it('reset() removes media uploaded since the point, and answers long polls held across it at once', async () => {
    const { id } = (await t.request('GET', '/v1/numbers')).body.data[0];
    const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(64, 1)]);
    const put = await fetch(`${t.baseUrl}/v1/numbers/${id}/voicemail-greeting`, { method: 'PUT', headers: { authorization: `Bearer ${t.liveKey}`, 'content-type': 'audio/mpeg' }, body: mp3 });
    expect(put.status).toBe(200);
    const { greetingAudioUrl } = (await put.json()) as { greetingAudioUrl: string };
    expect((await fetch(greetingAudioUrl)).status).toBe(200);
    // A long poll of the feed that would hold 30 s, from the head of the feed.
    const head = (await t.request('GET', '/v1/events?after=now&limit=1')).body.cursor as string;
    let answered = false;
    const held = fetch(`${t.baseUrl}/v1/events?after=${encodeURIComponent(head)}&wait=30`, { headers: { authorization: `Bearer ${t.liveKey}` } }).then(async (res) => {
      answered = true;
      return { status: res.status, body: (await res.json()) as { data: unknown[] } };
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(answered).toBe(false);
    await t.reset();
    const outcome = await Promise.race([held, new Promise<'still held'>((r) => setTimeout(() => r('still held'), 10_000))]);
    expect(outcome).toEqual({ status: 200, body: expect.objectContaining({ data: [] }) });
    expect((await fetch(greetingAudioUrl)).status).toBe(404);
  });

  it('waits for an event, and a wait that times out says what did arrive', async () => {
    const waiting = t.waitFor.event('message.received', { from: '+14155550199' });
    await t.inbound.sms({ to: number, from: '+14155550199', body: 'HOURS?' });
    expect(await waiting).toMatchObject({ type: 'message.received', from: '+14155550199', body: 'HOURS?' });
    await expect(t.waitFor.event('message.received', { from: '+19999999999' }, { timeoutMs: 300 })).rejects.toThrow(/timed out after 300 ms waiting for a message.received event[\s\S]*message.received .*HOURS\?/);
    await t.reset();
  });

  it('waits for an outbound message by recipient and body', async () => {
    await t.request('POST', '/v1/messages', { from: number, to: '+14155550111', body: 'Open 9 to 5' });
    expect(await t.waitFor.message({ to: '+14155550111', match: /9 to 5/ })).toMatchObject({ body: 'Open 9 to 5' });
    await expect(t.waitFor.message({ to: '+14155550111', match: 'closed', timeoutMs: 200 })).rejects.toThrow(/what did arrive:\n {2}- \+1415\d+ → \+14155550111: "Open 9 to 5"/);
    await t.reset();
  });

  it('simulates an inbound call to its end and returns it with its trace', async () => {
    const { call, trace } = await t.calls.simulate({ from: '+14155550123', to: number, scenario: { answer: null } });
    expect(call.status).not.toBe('ringing');
    expect(trace.length).toBeGreaterThan(1);
    expect(trace.map((s) => s.step)).toContain(trace.at(-1)!.step);
    await t.reset();
  });
});

describe('svc/testing services side by side', () => {
  it('gives each its own port and data, removed at close', async () => {
    const [a, b] = await Promise.all([startService(), startService()]);
    try {
      expect(a.baseUrl).not.toBe(b.baseUrl);
      expect(a.accountId).not.toBe(b.accountId);
      expect((await a.request('GET', '/v1/numbers')).status).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    const res = await fetch(`${a.baseUrl}/v1/numbers`).catch((e: Error) => e);
    expect(res).toBeInstanceOf(Error);
  });

  it('loads no server code until startService is called (the built entry)', () => {
    const hook = `export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write('LOADED ' + r.url + '\\n'); return r; }`;
    const script = `
      import { register } from 'node:module';
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
      const entry = await import(${JSON.stringify(join(REPO_ROOT, 'dist', 'testing', 'index.js'))});
      console.log(Object.keys(entry).join(','));`;
    const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(res.stdout.trim()).toBe('connectService,startService');
    const loaded = res.stderr.split('\n').filter((l) => l.startsWith('LOADED file:')).map((l) => relative(REPO_ROOT, fileURLToPath(l.slice('LOADED '.length))));
    expect(loaded).toEqual(['dist/testing/index.js']);
  });
});
