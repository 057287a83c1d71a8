// CLI output audit: streamed csv/tsv never lose nested data, `-o ids` for conversations, a replayed
// `keys create`, unknown profiles, --dry-run before confirmations, the "more rows" hint after the
// table, `svc help <group> <verb>` and strict --limit. In-process against the real local service.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { BIN_PATH, runSvc, type CliResult, type RunSvcOptions, expectOk } from './helpers/cli.js';
import { runCli } from '../src/cli/main.js';
import { parseLimit } from '../src/cli/command-kit.js';
import { PAGE_LIMIT_DEFAULT } from '../src/api/schemas/page.js';
import { createTestIO, type TestIO } from '../src/output/io.js';

let svc: TestService;
let tmp: string;
type RunOpts = Omit<RunSvcOptions, 'service'>;
const svcRun = (args: string[], opts: RunOpts = {}) => runSvc(args, { service: svc, ...opts });

const ok = expectOk;
const lines = (text: string) => text.split('\n').filter((l) => l !== '');

/** RFC 4180 csv (quoted fields with doubled quotes, commas and line breaks inside) into records. */
function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  const [header, ...records] = rows;
  return records.map((r) => Object.fromEntries(header!.map((name, i) => [name, r[i] ?? ''])));
}

interface Available {
  phoneNumber: string;
  capabilities: { sms: boolean; mms: boolean; voice: boolean };
}

/** Buys `count` full-capability 415 numbers, oldest first. */
async function buyNumbers(count: number): Promise<Array<{ id: string; phoneNumber: string }>> {
  const found = JSON.parse(ok(await svcRun(['numbers', 'search', '--area-code', '415', '--limit', '100', '-o', 'json'])).stdout) as Available[];
  const picks = found.filter((n) => n.capabilities.sms && n.capabilities.voice).slice(0, count);
  expect(picks).toHaveLength(count);
  const bought = [];
  for (const pick of picks) bought.push(JSON.parse(ok(await svcRun(['numbers', 'buy', pick.phoneNumber, '--yes', '-o', 'json'])).stdout));
  return bought;
}

let older: { id: string; phoneNumber: string };
let newer: { id: string; phoneNumber: string };

beforeAll(async () => {
  svc = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-cli-output-'));
  [older, newer] = (await buyNumbers(2)) as [typeof older, typeof newer];
  // The older number (page 2 of `numbers list --limit 1`, newest first) has an emergency address;
  // the newer one (page 1) has none, so page 1 has `emergency.address: null`.
  ok(
    await svcRun([
      'numbers', 'update', older.id,
      '--emergency-street', '1 Market St', '--emergency-street2', 'Floor 3',
      '--emergency-city', 'San Francisco', '--emergency-state', 'CA', '--emergency-zip', '94105',
    ]),
  );
});

afterAll(async () => {
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('streamed lists keep nested fields that only a later page has', () => {
  it('numbers list -o csv --limit 1 --all: the page 2 emergency address is all there', async () => {
    const res = ok(await svcRun(['numbers', 'list', '-o', 'csv', '--limit', '1', '--all']));
    const records = parseCsv(res.stdout);
    expect(records.map((r) => r.phoneNumber)).toEqual([newer.phoneNumber, older.phoneNumber]);
    const row = records[1]!;
    // Every field of the address is somewhere in the row: its own column or the address as JSON.
    const text = Object.values(row).join('\n');
    for (const value of ['1 Market St', 'Floor 3', 'San Francisco', 'CA', '94105']) expect(text).toContain(value);
    // The header is complete from the first page on: the schema's columns, street2 included.
    expect(Object.keys(row)).toEqual(expect.arrayContaining(['emergency.address.street', 'emergency.address.street2', 'emergency.address.zip']));
    expect(row['emergency.address.street2']).toBe('Floor 3');
    expect(records[0]!['emergency.address.street']).toBe('');
    expect(res.stderr).not.toMatch(/warning/);
  });

  it('the same list in one page and streamed page by page is the same csv', async () => {
    const all = ok(await svcRun(['numbers', 'list', '-o', 'csv'])).stdout;
    const streamed = ok(await svcRun(['numbers', 'list', '-o', 'csv', '--limit', '1', '--all'])).stdout;
    expect(streamed).toBe(all);
  });

  it('an empty list in csv is the full header', async () => {
    const res = ok(await svcRun(['numbers', 'list', '-o', 'csv', '--status', 'released']));
    expect(lines(res.stdout)).toHaveLength(1);
    expect(res.stdout).toContain('emergency.address.street');
  });
});

describe('conversations list -o ids', () => {
  it('prints the counterparties, one a line', async () => {
    const to = '+14155550199';
    const sent = await svc.call('POST', '/v1/messages', { key: svc.bootstrap.testKey, body: { from: newer.phoneNumber, to, body: 'hi' } });
    expect(sent.status, sent.text).toBeLessThan(300);
    const res = ok(await svcRun(['conversations', 'list', '-o', 'ids']));
    expect(lines(res.stdout)).toContain(to);
    for (const line of lines(res.stdout)) expect(line).toMatch(/^\+\d+$/);
  });
});

describe('keys create on an idempotent replay', () => {
  it('exits 1 naming the key id and how to recover, instead of printing key: null', async () => {
    // A connection reset after the service created the key: the retry (same Idempotency-Key) is
    // answered with the stored record, whose key the service no longer has.
    const agent = new MockAgent();
    agent.disableNetConnect();
    const origin = agent.get('http://svc.test');
    const seen: string[] = [];
    origin
      .intercept({ path: '/v1/keys', method: 'POST' })
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    origin.intercept({ path: '/v1/keys', method: 'POST' }).reply((req) => {
      const headers = req.headers as unknown as Record<string, string> | string[];
      const pairs = Array.isArray(headers) ? Object.fromEntries(headers.flatMap((_, i) => (i % 2 ? [] : [[headers[i]!.toLowerCase(), headers[i + 1]!]]))) : Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
      seen.push(String(pairs['idempotency-key'] ?? ''));
      return {
        statusCode: 201,
        data: JSON.stringify({ id: 'key_replayed0123456789ab', name: 'ci', mode: 'test', prefix: 'sk_test_ab', key: null, createdAt: '2025-01-01T00:00:00.000Z' }),
        responseOptions: { headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true' } },
      };
    });
    for (const output of [[], ['-o', 'json']]) {
      const io = createTestIO();
      const code = await runCli(['keys', 'create', '--name', 'ci', '--mode', 'test', ...output], {
        io,
        env: { SVC_BASE_URL: 'http://svc.test', SVC_API_KEY: 'sk_test_0123456789abcdef', SVC_CONFIG_DIR: join(tmp, 'cfg') },
        homedir: tmp,
        binPath: BIN_PATH,
        dispatcher: agent,
      });
      expect(code, io.err()).toBe(1);
      expect(io.out()).toBe('');
      expect(io.err()).toContain('key_replayed0123456789ab');
      expect(io.err()).toContain('svc keys revoke key_replayed0123456789ab');
      expect(io.err()).toMatch(/create a new one/);
      // The next pair of interceptors for the second output format.
      origin
        .intercept({ path: '/v1/keys', method: 'POST' })
        .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
      origin.intercept({ path: '/v1/keys', method: 'POST' }).reply(201, { id: 'key_replayed0123456789ab', name: 'ci', mode: 'test', prefix: 'sk_test_ab', key: null, createdAt: '2025-01-01T00:00:00.000Z' }, { headers: { 'content-type': 'application/json' } });
    }
    expect(seen[0]).toMatch(/\S/);
    await agent.close();
  });

  it('a fresh key is still printed', async () => {
    const res = ok(await svcRun(['keys', 'create', '--name', 'fresh', '--mode', 'live', '-o', 'json']));
    expect(JSON.parse(res.stdout).key).toMatch(/^sk_live_/);
  });
});

describe('an unknown or invalid profile', () => {
  it.each([
    ['--profile nope', ['--profile', 'nope'], {}],
    ['SVC_PROFILE=nope', [], { SVC_PROFILE: 'nope' }],
    ['an invalid name', ['--profile', '../bad name'], {}],
  ])('%s exits 2 naming --profile', async (_name, flags, env) => {
    const res = await svcRun(['keys', 'list', ...flags], { env });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toContain('--profile');
    expect(res.stderr).toMatch(/profile "[^"]+" does not exist/);
    if ('SVC_PROFILE' in env) expect(res.stderr).toContain('SVC_PROFILE');
  });
});

describe('--dry-run skips the confirmation', () => {
  it('numbers release --dry-run prints the request without --yes and releases nothing', async () => {
    const res = ok(await svcRun(['numbers', 'release', newer.phoneNumber, '--dry-run']));
    expect(res.stdout).toMatch(/^POST \S+\/v1\/numbers\/\S+\/release$/m);
    expect((await svc.call('GET', `/v1/numbers/${newer.id}`)).body.status).not.toBe('released');
  });

  it('keys revoke --dry-run prints the DELETE without --yes; the key keeps working', async () => {
    const created = await svc.call('POST', '/v1/keys', { body: { name: 'dry revoke', mode: 'live' } });
    const res = ok(await svcRun(['keys', 'revoke', created.body.id, '--dry-run']));
    expect(res.stdout).toContain(`DELETE ${svc.baseUrl}/v1/keys/${created.body.id}`);
    expect((await svc.call('GET', '/v1/keys', { key: created.body.key })).status).toBe(200);
  });

  it('numbers buy and subaccounts suspend --dry-run need no --yes either', async () => {
    const found = JSON.parse(ok(await svcRun(['numbers', 'search', '--area-code', '415', '--limit', '100', '-o', 'json'])).stdout) as Available[];
    const buy = ok(await svcRun(['numbers', 'buy', found.at(-1)!.phoneNumber, '--dry-run']));
    expect(buy.stdout).toContain(`POST ${svc.baseUrl}/v1/numbers/buy`);
    const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'dry suspend' } });
    const res = ok(await svcRun(['subaccounts', 'suspend', sub.body.id, '--dry-run']));
    expect(res.stdout).toContain(`PATCH ${svc.baseUrl}/v1/subaccounts/${sub.body.id}`);
    expect((await svc.call('GET', `/v1/subaccounts/${sub.body.id}`)).body.status).toBe('active');
  });

  it('profiles delete --dry-run says what it would delete and keeps the profile; remove, its old word, too', async () => {
    const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmp, 'cfg-')) };
    ok(await svcRun(['profiles', 'add', 'staging', '--base-url', svc.baseUrl], { env }));
    const res = ok(await svcRun(['profiles', 'delete', 'staging', '--dry-run'], { env }));
    expect(res.stdout).toContain('would delete profile "staging"');
    expect(ok(await svcRun(['profiles', 'remove', 'staging', '--dry-run'], { env })).stdout).toContain('would delete profile "staging"');
    const stored = JSON.parse(readFileSync(join(env.SVC_CONFIG_DIR, 'config.json'), 'utf8'));
    expect(Object.keys(stored.profiles)).toContain('staging');
    // Without --dry-run the confirmation is still required.
    const refused = await svcRun(['profiles', 'delete', 'staging'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
  });

  it('profiles delete local is refused: it is built in, and claiming success would be untrue', async () => {
    const env = { SVC_CONFIG_DIR: mkdtempSync(join(tmp, 'cfg-')) };
    const res = await svcRun(['profiles', 'delete', 'local', '--yes'], { env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('built in');
    expect(res.stderr).not.toContain('deleted profile');
  });
});

describe('the "more rows" hint', () => {
  beforeAll(async () => {
    // More keys than a page holds (PAGE_LIMIT_DEFAULT), so a list without --limit has more rows.
    for (let i = 0; i < PAGE_LIMIT_DEFAULT; i++) expect((await svc.call('POST', '/v1/keys', { body: { name: `hint ${i}`, mode: 'test' } })).status).toBe(201);
  });

  it('comes after the table, its last row included, for a person at a terminal who gave no --limit', async () => {
    const events: Array<['out' | 'err', string]> = [];
    const io: TestIO = createTestIO({ stdoutTTY: true, stderrTTY: true, stdinTTY: true });
    const out = io.stdout.write.bind(io.stdout);
    const err = io.stderr.write.bind(io.stderr);
    io.stdout.write = (text) => (events.push(['out', text]), out(text));
    io.stderr.write = (text) => (events.push(['err', text]), err(text));
    ok(await svcRun(['keys', 'list'], { io }));
    const hint = events.findIndex(([stream, text]) => stream === 'err' && text.includes('more rows: --cursor'));
    expect(hint).toBeGreaterThan(-1);
    const lastOut = events.map(([stream]) => stream).lastIndexOf('out');
    expect(lastOut).toBeLessThan(hint);
    // Borderless table: a header line, then a page of rows.
    expect(io.out().trimEnd().split('\n')).toHaveLength(1 + PAGE_LIMIT_DEFAULT);
    expect(io.out().trimEnd().split('\n').at(-1)).toMatch(/^key_/);
  });

  it('is not given when the user asked for a number of rows', async () => {
    const res = ok(await svcRun(['keys', 'list', '--limit', '1'], { tty: true }));
    expect(res.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(res.stderr).not.toContain('more rows');
  });

  it('is not given when the output is not a terminal', async () => {
    const res = ok(await svcRun(['keys', 'list', '-o', 'ids']));
    expect(res.stdout.trimEnd().split('\n')).toHaveLength(PAGE_LIMIT_DEFAULT);
    expect(res.stderr).toBe('');
  });
});

describe('svc help <group> <verb>', () => {
  it("shows the verb's help, not the group's", async () => {
    const res = ok(await svcRun(['help', 'numbers', 'buy']));
    expect(res.stdout).toContain('Usage: svc numbers buy');
    expect(res.stdout).toContain('$ svc numbers buy +14155550123');
    expect(res.stdout).not.toContain('verify-tollfree');
    // `svc help <group>` is unchanged.
    expect(ok(await svcRun(['help', 'numbers'])).stdout).toContain('verify-tollfree');
  });
});

describe('--limit', () => {
  it.each(['1e1', '0x10', '1.0', ' 5', '+5', '', '0', '101'])('refuses %j (exit 2)', async (limit) => {
    expect(() => parseLimit(limit)).toThrow(/--limit/);
    const res = await svcRun(['keys', 'list', '--limit', limit]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--limit');
  });

  it('takes plain decimal digits', async () => {
    expect(parseLimit('10')).toBe(10);
    expect(parseLimit('010')).toBe(10);
    expect(parseLimit('200', 200)).toBe(200);
    ok(await svcRun(['keys', 'list', '--limit', '10']));
  });
});
