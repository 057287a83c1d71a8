// `svc messages`, `svc conversations` and `svc trigger` driven in-process against the real local
// service (manual clock): sends, local validation, API errors and their exit codes, idempotent
// retries, --wait, output formats, threads and the sandbox triggers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { runSvc, type CliResult, type RunSvcOptions, expectOk } from './helpers/cli.js';
import { localTime, threadLine } from '../src/cli/commands/conversations/show.run.js';
import { createColors } from '../src/output/colors.js';

let svc: TestService;
let tmp: string;
/** A full-capability local number of the account (bought through the CLI). */
let mine: string;
/** A toll-free number: a live key may send from it without a campaign, so its sends really move. */
let tollfree: string;

const ESC = '\u001b';
type RunOpts = Omit<RunSvcOptions, 'service'>;
const svcRun = (args: string[], opts: RunOpts = {}) => runSvc(args, { service: svc, ...opts });
/** Sends need no campaign with the test key (contract §2). */
const asTest = (opts: RunOpts = {}): RunOpts => ({ key: svc.bootstrap.testKey, ...opts });

const ok = expectOk;
const lines = (text: string) => text.split('\n').filter((l) => l !== '');

async function messageCount(): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  for (;;) {
    const r: Awaited<ReturnType<TestService['call']>> = await svc.call('GET', `/v1/messages?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    expect(r.status).toBe(200);
    count += r.body.data.length;
    if (!r.body.hasMore) return count;
    cursor = r.body.nextCursor;
  }
}

interface Available {
  phoneNumber: string;
  capabilities: { sms: boolean; mms: boolean; voice: boolean };
}

/** Finds a number with `svc numbers search … -o json` and buys it with `svc numbers buy --yes`. */
async function buyWithCli(searchArgs: string[], want: (n: Available) => boolean): Promise<string> {
  const found = JSON.parse(ok(await svcRun(['numbers', 'search', ...searchArgs, '--limit', '100', '-o', 'json'])).stdout) as Available[];
  const pick = found.find(want);
  expect(pick, 'a number with the wanted capabilities').toBeDefined();
  const bought = JSON.parse(ok(await svcRun(['numbers', 'buy', pick!.phoneNumber, '--yes', '-o', 'json'])).stdout);
  expect(bought.phoneNumber).toBe(pick!.phoneNumber);
  return bought.phoneNumber as string;
}

beforeAll(async () => {
  svc = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-cli-messaging-'));
  mine = await buyWithCli(['--area-code', '415'], (n) => n.capabilities.sms && n.capabilities.mms && n.capabilities.voice);
  tollfree = await buyWithCli(['--type', 'tollfree'], (n) => n.capabilities.sms);
});

afterAll(async () => {
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('messages send', () => {
  it('sends an SMS and prints the message as JSON when piped; the stub delivers it', async () => {
    const res = ok(await svcRun(['messages', 'send', '--to', '+14155550123', '--from', mine, '--body', 'hello from the cli'], asTest()));
    const sent = JSON.parse(res.stdout);
    expect(sent).toMatchObject({ id: expect.stringMatching(/^msg_/), from: mine, to: '+14155550123', body: 'hello from the cli', direction: 'outbound', channel: 'sms', segments: 1 });
    const got = JSON.parse(ok(await svcRun(['messages', 'get', sent.id])).stdout);
    expect(got.id).toBe(sent.id);
    expect(got.status).toBe('delivered');
  });

  it('sends an MMS with --media, and the body from --body-file (a file, or - for stdin)', async () => {
    const mms = JSON.parse(ok(await svcRun(['messages', 'send', '--to', '+14155550124', '--from', mine, '--media', 'https://example.com/a.jpg', '--media', 'https://example.com/b.png'], asTest())).stdout);
    expect(mms.channel).toBe('mms');
    expect(mms.media.map((m: { url: string }) => m.url)).toEqual(['https://example.com/a.jpg', 'https://example.com/b.png']);

    const file = join(tmp, 'body.txt');
    writeFileSync(file, 'from a file\n');
    const fromFile = JSON.parse(ok(await svcRun(['messages', 'send', '--to', '+14155550124', '--from', mine, '--body-file', file], asTest())).stdout);
    expect(fromFile.body).toBe('from a file');

    const fromStdin = JSON.parse(ok(await svcRun(['messages', 'send', '--to', '+14155550124', '--from', mine, '--body-file', '-'], asTest({ stdin: 'from stdin\n' }))).stdout);
    expect(fromStdin.body).toBe('from stdin');
  });

  it('local validation: exit 2 naming the flag, and nothing is sent', async () => {
    const before = await messageCount();
    const cases: Array<[string[], string]> = [
      [['--to', '4155550123', '--from', mine, '--body', 'x'], '--to'],
      [['--to', '+14155550123', '--from', 'me', '--body', 'x'], '--from'],
      [['--to', '+14155550123', '--from', mine, '--body', 'x'.repeat(1601)], '--body'],
      [['--to', '+14155550123', '--from', mine, ...Array.from({ length: 11 }, (_, i) => ['--media', `https://example.com/${i}.jpg`]).flat()], '--media'],
      [['--to', '+14155550123', '--from', mine, '--media', 'ftp://example.com/a.jpg'], '--media'],
      [['--to', '+14155550123', '--from', mine], '--body'],
      [['--to', '+14155550123', '--from', mine, '--body', ''], '--body'],
      [['--to', '+14155550123', '--from', mine, '--body', 'x', '--body-file', '-'], '--body-file'],
      [['--to', '+14155550123', '--from', mine, '--body-file', join(tmp, 'missing.txt')], '--body-file'],
      [['--to', '+14155550123', '--from', mine, '--body', 'x', '--wait', '--timeout', 'soon'], '--timeout'],
      [['--to', '+14155550123', '--from', mine, '--body', 'x', '--wait', '--wait-timeout', 'soon'], '--timeout'],
      [['--from', mine, '--body', 'x'], '--to'],
    ];
    for (const [args, flag] of cases) {
      const res = await svcRun(['messages', 'send', ...args], asTest());
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr, args.join(' ')).toContain(flag);
      expect(res.stdout).toBe('');
    }
    expect(await messageCount()).toBe(before);
  });

  it('the body rules are judged by the service on a send, yet reported the same way when no service answers or under --dry-run', async () => {
    // The body is checked with the API's schema only when a send fails (bench/startup: a send that
    // goes through never loads zod); a body the service could not judge is still named by its flag.
    const before = await messageCount();
    const tooLong = ['messages', 'send', '--to', '+14155550123', '--from', mine, '--body', 'x'.repeat(1601)];
    const judged = await svcRun(tooLong, asTest());
    const unreachable = await svcRun(tooLong, asTest({ env: { SVC_BASE_URL: 'http://127.0.0.1:1' } }));
    const dry = await svcRun([...tooLong, '--dry-run'], asTest());
    for (const res of [judged, unreachable, dry]) {
      expect(res.code, res.stderr).toBe(2);
      expect(res.stderr).toBe('error: --body: 1601 characters; the limit is 1600\n');
      expect(res.stdout).toBe('');
    }
    const noContent = await svcRun(['messages', 'send', '--to', '+14155550123', '--from', mine], asTest({ env: { SVC_BASE_URL: 'http://127.0.0.1:1' } }));
    expect(noContent.stderr).toBe('error: --body: required unless --media is given\n');
    expect(await messageCount()).toBe(before);
  });

  it('a body of exactly 1600 characters is accepted', async () => {
    const res = ok(await svcRun(['messages', 'send', '--to', '+14155550123', '--from', mine, '--body', 'y'.repeat(1600)], asTest()));
    expect(JSON.parse(res.stdout).body).toHaveLength(1600);
  });

  it('API errors map to exit codes: from not owned 2, no sms capability 8, released 5, unknown id 4', async () => {
    const notOwned = await svcRun(['messages', 'send', '--to', '+14155550123', '--from', '+14155559876', '--body', 'x'], asTest());
    expect(notOwned.code).toBe(2);
    expect(notOwned.stderr).toContain('error: validation_error');
    expect(notOwned.stderr).toContain('body.from');

    const voiceOnly = await buyWithCli(['--area-code', '415', '--capability', 'voice'], (n) => !n.capabilities.sms);
    const unsupported = await svcRun(['messages', 'send', '--to', '+14155550123', '--from', voiceOnly, '--body', 'x'], asTest());
    expect(unsupported.code).toBe(8);
    expect(unsupported.stderr).toContain('error: channel_unsupported');

    const doomed = await buyWithCli(['--area-code', '212'], (n) => n.capabilities.sms);
    ok(await svcRun(['numbers', 'release', doomed, '--yes']));
    const released = await svcRun(['messages', 'send', '--to', '+14155550123', '--from', doomed, '--body', 'x'], asTest());
    expect(released.code).toBe(5);
    expect(released.stderr).toContain('error: conflict');

    const missing = await svcRun(['messages', 'get', 'msg_doesnotexist']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('error: not_found');
    expect(missing.stderr).toMatch(/request id: \S+/);
  });

  it('--idempotency-key: sending again returns the same message and sends nothing new', async () => {
    const args = ['messages', 'send', '--to', '+14155550125', '--from', mine, '--body', 'once only', '--idempotency-key', 'order-42-ready'];
    const first = JSON.parse(ok(await svcRun(args, asTest())).stdout);
    const before = await messageCount();
    const again = ok(await svcRun(args, asTest()));
    expect(JSON.parse(again.stdout).id).toBe(first.id);
    expect(again.stderr).toContain('nothing new was sent');
    expect(await messageCount()).toBe(before);
    // Without the key, each run is a new send.
    const fresh = JSON.parse(ok(await svcRun(args.slice(0, -2), asTest())).stdout);
    expect(fresh.id).not.toBe(first.id);
  });

  it('the same --idempotency-key with another body is a conflict (exit 5)', async () => {
    const key = ['--idempotency-key', 'reused-key-1'];
    ok(await svcRun(['messages', 'send', '--to', '+14155550126', '--from', mine, '--body', 'one', ...key], asTest()));
    const clash = await svcRun(['messages', 'send', '--to', '+14155550126', '--from', mine, '--body', 'two', ...key], asTest());
    expect(clash.code).toBe(5);
  });

  it('--dry-run prints the request with an Idempotency-Key and sends nothing', async () => {
    const before = await messageCount();
    const res = ok(await svcRun(['messages', 'send', '--to', '+14155550123', '--from', mine, '--body', 'dry', '--dry-run'], asTest()));
    expect(res.stdout).toContain('POST');
    expect(res.stdout).toContain('/v1/messages');
    expect(res.stdout).toMatch(/Idempotency-Key/i);
    expect(await messageCount()).toBe(before);
  });
});

describe('messages send --wait', () => {
  /** Advances the service clock until the newest message matches, or gives up. */
  async function advanceUntil(done: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 40; i++) {
      await sleep(100);
      const r = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 1 } });
      expect(r.status).toBe(200);
      if (await done()) return;
    }
  }
  const latestTo = async (to: string) => (await svc.call('GET', `/v1/messages?limit=1&to=${encodeURIComponent(to)}`)).body.data[0];

  it('a live send waits for the carrier: the clock advances, the command exits 0 with status delivered', async () => {
    const to = '+14155550131';
    const running = svcRun(['messages', 'send', '--to', to, '--from', tollfree, '--body', 'wait for me', '--wait', '--wait-timeout', '30s']);
    await advanceUntil(async () => (await latestTo(to))?.status === 'delivered');
    const res = ok(await running);
    const final = JSON.parse(res.stdout);
    expect(final.status).toBe('delivered');
    expect(final.to).toBe(to);
  });

  it('a failed outcome prints the message and exits 1 with "message <id> failed: <reason>"', async () => {
    const to = '+15005550001';
    const running = svcRun(['messages', 'send', '--to', to, '--from', tollfree, '--body', 'doomed', '--wait', '--wait-timeout', '30s']);
    await advanceUntil(async () => (await latestTo(to))?.status === 'failed');
    const res = await running;
    expect(res.code, res.stderr).toBe(1);
    const final = JSON.parse(res.stdout);
    expect(final.status).toBe('failed');
    expect(res.stderr).toContain(`message ${final.id} failed: invalid destination`);
  });

  it('undelivered also exits 1 (test sends are final at once: no clock needed)', async () => {
    const res = await svcRun(['messages', 'send', '--to', '+15005550004', '--from', mine, '--body', 'blocked', '--wait'], asTest());
    expect(res.code).toBe(1);
    const final = JSON.parse(res.stdout);
    expect(final.status).toBe('undelivered');
    expect(res.stderr).toContain(`message ${final.id} failed: blocked by carrier`);
  });

  it('a delivered test send with --wait exits 0 at once', async () => {
    const res = ok(await svcRun(['messages', 'send', '--to', '+14155550132', '--from', mine, '--body', 'quick', '--wait'], asTest()));
    expect(JSON.parse(res.stdout).status).toBe('delivered');
  });

  it('--wait on a terminal: a spinner on stderr ends with ✔ and the status; the table on stdout', async () => {
    const res = ok(await svcRun(['messages', 'send', '--to', '+14155550178', '--from', mine, '--body', 'tty', '--wait'], asTest({ tty: true })));
    expect(res.stderr).toMatch(/✔ message msg_\w+: delivered/);
    expect(res.stdout).toMatch(/^status\s+delivered$/m);
  });

  it('with the manual clock left alone, --wait times out (exit 1) and says why', async () => {
    const res = await svcRun(['messages', 'send', '--to', '+14155550133', '--from', tollfree, '--body', 'stuck', '--wait', '--wait-timeout', '1s']);
    expect(res.code).toBe(1);
    const last = JSON.parse(res.stdout);
    expect(['queued', 'sending', 'sent']).toContain(last.status);
    expect(res.stderr).toContain('timed out after 1s');
    expect(res.stderr).toContain('clock is manual');
  });
});

describe('messages list and get', () => {
  it('piped: tab-separated rows without colour, in the documented columns', async () => {
    const res = ok(await svcRun(['messages', 'list', '--limit', '5']));
    expect(res.stdout).not.toContain(ESC);
    const rows = lines(res.stdout).map((l) => l.split('\t'));
    expect(rows.length).toBe(5);
    for (const row of rows) {
      expect(row.length).toBe(8);
      expect(row[0]).toMatch(/^msg_/);
      expect(['outbound', 'inbound']).toContain(row[1]);
      expect(row[5]).toMatch(/^\d+$/);
      expect(row[6]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
    // No paging hint into a pipe, nor after --limit.
    expect(res.stderr).not.toContain('--cursor');
  });

  it('filters by --status, --to and --direction', async () => {
    const failed = JSON.parse(ok(await svcRun(['messages', 'list', '--status', 'failed', '-o', 'json'])).stdout);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((m: { status: string }) => m.status === 'failed')).toBe(true);
    const to = JSON.parse(ok(await svcRun(['messages', 'list', '--to', '+14155550124', '--direction', 'outbound', '-o', 'json'])).stdout);
    expect(to.length).toBe(3);
    expect(to.every((m: { to: string }) => m.to === '+14155550124')).toBe(true);
    const bad = await svcRun(['messages', 'list', '--to', '4155550124']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--to');
    expect((await svcRun(['messages', 'list', '--status', 'lost'])).code).toBe(2);
  });

  it('-o json, ndjson, csv and ids', async () => {
    const json = JSON.parse(ok(await svcRun(['messages', 'list', '--limit', '3', '-o', 'json'])).stdout);
    expect(json).toHaveLength(3);
    const ndjson = lines(ok(await svcRun(['messages', 'list', '--limit', '3', '-o', 'ndjson'])).stdout).map((l) => JSON.parse(l));
    expect(ndjson.map((m) => m.id)).toEqual(json.map((m: { id: string }) => m.id));
    const csv = lines(ok(await svcRun(['messages', 'list', '--limit', '3', '-o', 'csv'])).stdout);
    expect(csv[0]!.startsWith('id,direction,from,to,status,segments,createdAt,body')).toBe(true);
    expect(csv).toHaveLength(4);
    expect(csv.join('\n')).not.toContain('[object Object]');
    const ids = lines(ok(await svcRun(['messages', 'list', '--limit', '3', '-o', 'ids'])).stdout);
    expect(ids).toEqual(json.map((m: { id: string }) => m.id));
  });

  it('--all follows every page', async () => {
    const all = lines(ok(await svcRun(['messages', 'list', '--all', '--limit', '2', '-o', 'ids'])).stdout);
    expect(all.length).toBe(await messageCount());
    expect(new Set(all).size).toBe(all.length);
  });

  it('on a terminal: a table with headers', async () => {
    const res = ok(await svcRun(['messages', 'list', '--limit', '2'], { tty: true }));
    // A borderless header row (gh-like); at 80 characters the least useful columns are left out,
    // never the id, the status or the body (src/output/table.ts, GIVE_WAY; messages/columns.ts).
    expect(res.stdout.split('\n')[0]).toMatch(/^id\s.*\bstatus\s.*\bbody$/);
    expect(res.stdout).not.toMatch(/[│┌─]/);
  });
});

describe('conversations', () => {
  const them = '+14155550177';

  it('show: a readable thread on a terminal after a send and an inbound text', async () => {
    ok(await svcRun(['messages', 'send', '--to', them, '--from', mine, '--body', 'Your table is ready'], asTest()));
    const inbound = JSON.parse(ok(await svcRun(['trigger', 'message.received', '--to', mine, '--from', them, '--body', 'On our way!'])).stdout);
    expect(inbound).toMatchObject({ direction: 'inbound', status: 'received', from: them, to: mine, body: 'On our way!' });

    const res = ok(await svcRun(['conversations', 'show', them], { tty: true }));
    const thread = lines(res.stdout);
    expect(thread).toHaveLength(2);
    expect(thread[0]).toMatch(/^→ \d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+you\s+Your table is ready$/);
    expect(thread[1]).toMatch(new RegExp(`^← \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}\\s+\\${them}\\s+On our way!$`));
    expect(res.stdout).not.toContain(ESC);
  });

  it('show: piped rows and -o formats like any list, oldest first', async () => {
    const piped = ok(await svcRun(['conversations', 'show', them]));
    expect(piped.stdout).not.toContain(ESC);
    const rows = lines(piped.stdout).map((l) => l.split('\t'));
    expect(rows.map((r) => r[1])).toEqual(['outbound', 'inbound']);
    expect(rows.map((r) => r[7])).toEqual(['Your table is ready', 'On our way!']);
    const json = JSON.parse(ok(await svcRun(['conversations', 'show', them, '-o', 'json'])).stdout);
    expect(json.map((m: { body: string }) => m.body)).toEqual(['Your table is ready', 'On our way!']);
    const latest = JSON.parse(ok(await svcRun(['conversations', 'show', them, '--limit', '1', '-o', 'json'])).stdout);
    expect(latest.map((m: { body: string }) => m.body)).toEqual(['On our way!']);
    expect((await svcRun(['conversations', 'show', them, '--limit', '201'])).code).toBe(2);
    const bad = await svcRun(['conversations', 'show', '4155550177']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('<counterparty>');
  });

  it('the thread line: colour only when colour is on; failures carry their status and reason', () => {
    const m = {
      id: 'msg_1', to: them, from: '+14155550100', body: 'first line\nsecond', direction: 'outbound' as const, status: 'failed' as const,
      segments: 1, channel: 'sms' as const, media: null, createdAt: '2025-05-01T14:03:00.000Z', reason: 'invalid destination', test: true, updatedAt: '2025-05-01T14:03:00.000Z',
    };
    const plain = threadLine(m, them, createColors(false));
    expect(plain).toBe(`→ ${localTime(new Date(m.createdAt))}  ${'you'.padEnd(them.length)}  first line ⏎ second  failed (invalid destination)`);
    const coloured = threadLine(m, them, createColors(true));
    expect(coloured).toContain(ESC);
    expect(coloured.replace(/\u001b\[\d+m/g, '')).toBe(plain);
    const inbound = threadLine({ ...m, direction: 'inbound', status: 'received', reason: null, media: [{ url: 'https://x/a.jpg', contentType: 'image/jpeg', filename: 'a.jpg' }] }, them, createColors(false));
    expect(inbound).toMatch(new RegExp(`^← .*\\${them}  first line ⏎ second \\[media: a\\.jpg\\]$`));
  });

  it('list: one summary per counterparty, newest first', async () => {
    const list = JSON.parse(ok(await svcRun(['conversations', 'list', '-o', 'json'])).stdout);
    expect(list[0]).toMatchObject({ counterparty: them, direction: 'inbound', lastBody: 'On our way!' });
    const piped = lines(ok(await svcRun(['conversations', 'list'])).stdout);
    expect(piped[0]!.split('\t').slice(0, 2)).toEqual([them, 'inbound']);
  });
});

describe('trigger', () => {
  it('--list prints every trigger type with a description', async () => {
    const res = ok(await svcRun(['trigger', '--list']));
    const rows = lines(res.stdout).map((l) => l.split('\t'));
    expect(rows.map((r) => r[0])).toEqual(expect.arrayContaining(['message.received', 'message.status']));
    for (const r of rows) expect(r[1]!.length).toBeGreaterThan(10);
    const json = JSON.parse(ok(await svcRun(['trigger', '--list', '-o', 'json'])).stdout);
    expect(json.map((t: { type: string }) => t.type)).toContain('message.status');
  });

  it('an unknown type is exit 2 naming the known ones; each type has --help with an example', async () => {
    const res = await svcRun(['trigger', 'message.exploded']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('message.received');
    const help = ok(await svcRun(['trigger', 'message.status', '--help']));
    expect(help.stdout).toContain('$ svc trigger message.status');
    expect(help.stdout).toContain('--status');
  });

  it('message.received: missing flags exit 2 naming them; a number not yours is exit 2', async () => {
    const missing = await svcRun(['trigger', 'message.received', '--from', '+14155550123', '--body', 'x']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--to');
    const notMine = await svcRun(['trigger', 'message.received', '--to', '+14155559999', '--from', '+14155550123', '--body', 'x']);
    expect(notMine.code).toBe(2);
  });

  it('message.status --status failed|undelivered|delivered sends to the magic destination and prints the outcome', async () => {
    for (const [status, to] of [
      ['failed', '+15005550001'],
      ['undelivered', '+15005550004'],
      ['delivered', '+14155550100'],
    ] as const) {
      const res = ok(await svcRun(['trigger', 'message.status', '--status', status]));
      const m = JSON.parse(res.stdout);
      expect(m).toMatchObject({ status, to, from: '+15005550006' });
      // The carrier's verdict reached the events feed as message.status.
      const events = await svc.call('GET', '/v1/events?order=desc&types=message.status&limit=100');
      expect(events.status).toBe(200);
      const mine = events.body.data.filter((e: { messageId?: string; status?: string }) => e.messageId === m.id).map((e: { status: string }) => e.status);
      expect(mine).toContain(status);
    }
    expect((await svcRun(['trigger', 'message.status', '--status', 'lost'])).code).toBe(2);
  });

  it('message.status --from one of your numbers', async () => {
    const m = JSON.parse(ok(await svcRun(['trigger', 'message.status', '--status', 'failed', '--from', mine], asTest())).stdout);
    expect(m).toMatchObject({ from: mine, status: 'failed', reason: 'invalid destination' });
  });
});

describe('help', () => {
  it('every new verb documents itself with an example', async () => {
    for (const args of [
      ['messages', 'send'],
      ['messages', 'list'],
      ['messages', 'get'],
      ['conversations', 'list'],
      ['conversations', 'show'],
      ['trigger'],
      ['trigger', 'message.received'],
    ]) {
      const res = ok(await svcRun([...args, '--help']));
      expect(res.stdout, args.join(' ')).toContain(`$ svc ${args[0]}`);
    }
    const send = ok(await svcRun(['messages', 'send', '--help'])).stdout;
    expect(send).toContain('message <id> failed: <reason>');
  });
});
