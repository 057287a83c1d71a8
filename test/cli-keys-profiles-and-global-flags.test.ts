// The CLI driven in-process (runCli with a fake IO) against the real local service: cli.md's global
// flags, output formats, errors and exit codes, and the foundation commands.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { runSvc, type CliResult, expectOk } from './helpers/cli.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});

const temps: string[] = [];
/** A config dir shared by several commands of one test; removed after the file. */
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

afterAll(async () => {
  await svc?.stop();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const svcRun = (args: string[], opts: Omit<Parameters<typeof runSvc>[1], 'service'> = {}) => runSvc(args, { service: svc, ...opts });
const sub = (id: string) => ({ 'service-subaccount': id });
const ESC = '\u001b';

const ok = expectOk;

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

async function keyIds(headers?: Record<string, string>, key?: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const res: Awaited<ReturnType<TestService['call']>> = await svc.call('GET', `/v1/keys?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers, key });
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((k: { id: string }) => k.id));
    if (!res.body.hasMore) return ids;
    cursor = res.body.nextCursor;
  }
}

async function newChild(name = `cli child ${randomUUID().slice(0, 6)}`): Promise<{ id: string; name: string }> {
  const res = await svc.call('POST', '/v1/subaccounts', { body: { name } });
  expect(res.status).toBe(201);
  return res.body;
}

async function httpKey(name: string, headers?: Record<string, string>): Promise<{ id: string; key: string }> {
  const res = await svc.call('POST', '/v1/keys', { body: { name }, headers });
  expect(res.status).toBe(201);
  return res.body;
}

async function clockMs(): Promise<number> {
  return Date.parse((await svc.call('GET', '/v1/sandbox/clock')).body.now);
}

describe('help and version (never touch config or the network)', () => {
  it('svc --version prints 0.1.0', async () => {
    const res = ok(await svcRun(['--version']));
    expect(res.stdout).toBe('0.1.0\n');
    expect(res.stderr).toBe('');
  });

  it('svc --help lists the command groups and an example', async () => {
    const res = ok(await svcRun(['--help']));
    for (const group of ['login', 'profiles', 'context', 'server', 'keys', 'subaccounts', 'agency', 'clock', 'api', 'completion']) {
      expect(res.stdout).toMatch(new RegExp(`^\\s+${group}\\b`, 'm'));
    }
    expect(res.stdout).toContain('Examples:');
  });

  it('svc help keys and svc keys --help show the verbs', async () => {
    for (const args of [['help', 'keys'], ['keys', '--help']]) {
      const res = ok(await svcRun(args));
      for (const verb of ['create', 'list', 'revoke']) expect(res.stdout).toMatch(new RegExp(`^\\s+${verb}\\b`, 'm'));
    }
  });

  it('every foundation verb has --help with an example or usage', async () => {
    for (const args of [
      ['keys', 'create'],
      ['keys', 'list'],
      ['keys', 'revoke'],
      ['subaccounts', 'create'],
      ['clock', 'advance'],
      ['api'],
      ['login'],
    ]) {
      const res = ok(await svcRun([...args, '--help']));
      expect(res.stdout, args.join(' ')).toContain('Usage: svc');
      expect(res.stdout, args.join(' ')).toContain('$ svc');
    }
  });

  it('exits 2 on an unknown command, an unknown flag and an unknown output format', async () => {
    expect((await svcRun(['frobnicate'])).code).toBe(2);
    const flag = await svcRun(['keys', 'list', '--frobnicate']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--frobnicate');
    const fmt = await svcRun(['keys', 'list', '-o', 'xml']);
    expect(fmt.code).toBe(2);
    expect(fmt.stderr).toContain('xml');
    expect(fmt.stdout).toBe('');
  });

  it('a group with no verb (`svc keys`) shows its verbs on stderr and exits 2; `svc help keys` stays 0', async () => {
    const bare = await svcRun(['keys']);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe('');
    expect(bare.stderr).toContain('Usage: svc keys');
    expect(bare.stderr).toMatch(/^\s+revoke\b/m);
    expect((await svcRun(['help', 'keys'])).code).toBe(0);
    expect((await svcRun(['help'])).code).toBe(0);
  });
});

describe('keys', () => {
  it('keys create -o json prints the key once, and the key works', async () => {
    const res = ok(await svcRun(['keys', 'create', '--name', 'ci', '--mode', 'test', '-o', 'json']));
    const created = JSON.parse(res.stdout);
    expect(created).toMatchObject({ id: expect.stringMatching(/^key_/), name: 'ci', mode: 'test', key: expect.stringMatching(/^sk_test_/) });
    expect((await svc.call('GET', '/v1/keys', { key: created.key })).status).toBe(200);
    expect(await keyIds()).toContain(created.id);
  });

  it('keys create piped (no -o) prints the resource as JSON', async () => {
    const res = ok(await svcRun(['keys', 'create', '--name', 'piped', '--mode', 'live']));
    const created = JSON.parse(res.stdout);
    expect(created.name).toBe('piped');
    expect(created.key).toMatch(/^sk_live_/);
  });

  it('keys create never makes a live key by default: without a terminal --mode is required, nothing created', async () => {
    const before = await keyIds();
    const res = await svcRun(['keys', 'create', '--name', 'silent']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--mode');
    expect(await keyIds()).toEqual(before);
  });

  it('keys list piped prints tab-separated rows: no header, no colour, no borders', async () => {
    const expected = await keyIds();
    const res = ok(await svcRun(['keys', 'list', '--limit', '100']));
    expect(res.stdout).not.toContain(ESC);
    const rows = lines(res.stdout);
    expect(rows.map((r) => r.split('\t')[0])).toEqual(expected);
    for (const row of rows) {
      const cells = row.split('\t');
      expect(cells).toHaveLength(7); // id name mode prefix createdAt lastUsedAt revokedAt
      expect(cells[2]).toMatch(/^(live|test)$/);
      expect(Number.isNaN(Date.parse(cells[4]!))).toBe(false); // ISO times when piped
    }
    expect(res.stdout).not.toMatch(/[│┌─]/);
  });

  it('keys list on a terminal draws a table with a header instead', async () => {
    const res = ok(await svcRun(['keys', 'list', '--limit', '100'], { tty: true }));
    expect(res.stdout).toMatch(/\bid\b/);
    expect(res.stdout).not.toMatch(/^key_\S+\t/m);
  });

  it('keys list -o csv prints a header and one row per key', async () => {
    const expected = await keyIds();
    const res = ok(await svcRun(['keys', 'list', '--limit', '100', '-o', 'csv']));
    const [header, ...rows] = lines(res.stdout);
    expect(header).toBe('id,name,mode,prefix,createdAt,lastUsedAt,revokedAt');
    expect(rows.map((r) => r.split(',')[0])).toEqual(expected);
  });

  it('keys list -o ids and -o ndjson', async () => {
    const expected = await keyIds();
    const ids = ok(await svcRun(['keys', 'list', '--limit', '100', '-o', 'ids']));
    expect(lines(ids.stdout)).toEqual(expected);

    const nd = ok(await svcRun(['keys', 'list', '--limit', '100', '-o', 'ndjson']));
    const rows = lines(nd.stdout).map((l) => JSON.parse(l));
    expect(rows.map((r) => r.id)).toEqual(expected);
    for (const r of rows) {
      expect(r).not.toHaveProperty('key');
      expect(Object.keys(r).sort()).toEqual(['createdAt', 'id', 'lastUsedAt', 'mode', 'name', 'prefix', 'revokedAt']);
    }
  });

  describe('with 45 keys in a sub-account', () => {
    let child: { id: string };
    let ids: string[];
    beforeAll(async () => {
      child = await newChild();
      for (let i = 0; i < 45; i++) await httpKey(`bulk ${i}`, sub(child.id));
      ids = await keyIds(sub(child.id));
      expect(ids).toHaveLength(45);
    });

    it('--limit 7 --all streams every row exactly once, in order', async () => {
      const res = ok(await svcRun(['keys', 'list', '--limit', '7', '--all', '-o', 'ids', '--subaccount', child.id]));
      expect(lines(res.stdout)).toEqual(ids);

      const nd = ok(await svcRun(['keys', 'list', '--limit', '7', '--all', '-o', 'ndjson', '--subaccount', child.id]));
      expect(lines(nd.stdout).map((l) => JSON.parse(l).id)).toEqual(ids);

      const tsv = ok(await svcRun(['keys', 'list', '--limit', '7', '--all', '--subaccount', child.id]));
      expect(lines(tsv.stdout).map((l) => l.split('\t')[0])).toEqual(ids);
    });

    it('--all -o csv prints the header once, then every row', async () => {
      const res = ok(await svcRun(['keys', 'list', '--limit', '7', '--all', '-o', 'csv', '--subaccount', child.id]));
      const [header, ...rows] = lines(res.stdout);
      expect(header).toBe('id,name,mode,prefix,createdAt,lastUsedAt,revokedAt');
      expect(rows.map((r) => r.split(',')[0])).toEqual(ids);
    });

    it('--all -o yaml prints every row once', async () => {
      const res = ok(await svcRun(['keys', 'list', '--limit', '7', '--all', '-o', 'yaml', '--subaccount', child.id]));
      const found = [...res.stdout.matchAll(/\bid: (key_\w+)/g)].map((m) => m[1]);
      expect(found).toEqual(ids);
    });

    it('--all -o json prints one JSON array of every row', async () => {
      const res = ok(await svcRun(['keys', 'list', '--limit', '10', '--all', '-o', 'json', '--subaccount', child.id]));
      expect(JSON.parse(res.stdout).map((k: { id: string }) => k.id)).toEqual(ids);
    });

    it('--limit 7 alone prints one page (no paging hint: the user chose the rows); --cursor continues', async () => {
      const res = ok(await svcRun(['keys', 'list', '--limit', '7', '-o', 'ids', '--subaccount', child.id]));
      expect(lines(res.stdout)).toEqual(ids.slice(0, 7));
      expect(res.stderr).toBe('');
      const page = await svc.call('GET', '/v1/keys?limit=7', { headers: sub(child.id) });
      const cursor = page.body.nextCursor as string | undefined;
      expect(cursor).toBeDefined();
      const next = ok(await svcRun(['keys', 'list', '--limit', '7', '--cursor', cursor!, '-o', 'ids', '--subaccount', child.id]));
      expect(lines(next.stdout)).toEqual(ids.slice(7, 14));
    });

    it('svc api GET /v1/keys --paginate -o ndjson follows every page', async () => {
      const res = ok(await svcRun(['api', 'GET', '/v1/keys', '--paginate', '-o', 'ndjson', '--subaccount', child.id]));
      expect(lines(res.stdout).map((l) => JSON.parse(l).id)).toEqual(ids);
    });

    it('refuses --limit outside 1..100 before calling anything', async () => {
      for (const limit of ['0', '101', 'many']) {
        const res = await svcRun(['keys', 'list', '--limit', limit, '--subaccount', child.id]);
        expect(res.code).toBe(2);
        expect(res.stderr).toContain('--limit');
      }
    });
  });

  it('keys revoke without --yes and no terminal exits 2 naming --yes, and revokes nothing', async () => {
    const k = await httpKey('keep me');
    const res = await svcRun(['keys', 'revoke', k.id]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--yes');
    expect((await svc.call('GET', '/v1/keys', { key: k.key })).status).toBe(200);
  });

  it('keys revoke --yes revokes: the key then fails with 401 (exit 3)', async () => {
    const k = await httpKey('revoke me');
    ok(await svcRun(['keys', 'revoke', k.id, '--yes']));
    const after = await svcRun(['keys', 'list'], { key: k.key });
    expect(after.code).toBe(3);
    expect(after.stderr).toMatch(/^error: unauthorized: /m);
    expect(after.stdout).toBe('');
  });
});

describe('errors and exit codes (cli.md)', () => {
  it('an API validation_error exits 2 with the code, each detail and the request id on stderr', async () => {
    const before = await keyIds();
    const res = await svcRun(['keys', 'create', '--name', '', '--mode', 'test']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^error: validation_error: .+/m);
    expect(res.stderr).toMatch(/^ {2}body\.name: .+/m);
    expect(res.stderr).toMatch(/^request id: req_\S+$/m);
    expect(await keyIds()).toEqual(before);
  });

  it('with -o json the error envelope goes to stderr as JSON', async () => {
    const res = await svcRun(['keys', 'create', '--name', '', '--mode', 'test', '-o', 'json']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    const env = JSON.parse(res.stderr);
    expect(env.error.code).toBe('validation_error');
    expect(env.error.details).toContainEqual(expect.objectContaining({ path: ['body', 'name'] }));
  });

  it('not_found exits 4', async () => {
    const res = await svcRun(['keys', 'revoke', 'key_doesnotexist', '--yes']);
    expect(res.code).toBe(4);
    expect(res.stderr).toMatch(/^error: not_found: /m);
    expect((await svcRun(['subaccounts', 'get', randomUUID()])).code).toBe(4);
  });

  it('conflict (an Idempotency-Key reused with another body) exits 5', async () => {
    const key = `cli-${randomUUID()}`;
    const first = ok(await svcRun(['api', 'POST', '/v1/keys', '-F', 'name=a', '--idempotency-key', key]));
    expect(JSON.parse(first.stdout).name).toBe('a');
    const before = await keyIds();
    const res = await svcRun(['api', 'POST', '/v1/keys', '-F', 'name=b', '--idempotency-key', key]);
    expect(res.code).toBe(5);
    expect(res.stderr).toMatch(/^error: conflict: /m);
    expect(await keyIds()).toEqual(before);
    // The same body again is a replay of the first, not a new key.
    const replay = ok(await svcRun(['api', 'POST', '/v1/keys', '-F', 'name=a', '--idempotency-key', key]));
    expect(JSON.parse(replay.stdout).id).toBe(JSON.parse(first.stdout).id);
    expect(await keyIds()).toEqual(before);
  });

  it('forbidden exits 3', async () => {
    const child = await newChild();
    const k = await httpKey('child', sub(child.id));
    const res = await svcRun(['subaccounts', 'create', '--name', 'grandchild'], { key: k.key });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^error: forbidden: /m);
  });

  it('a local usage error (bad duration) exits 2 and calls nothing', async () => {
    const before = await clockMs();
    for (const d of ['90x', 'soon', '0s']) {
      const res = await svcRun(['clock', 'advance', d]);
      expect(res.code, d).toBe(2);
      expect(res.stderr).toMatch(/^error: /m);
    }
    expect(await clockMs()).toBe(before);
  });
});

describe('the sub-account context', () => {
  it('--subaccount and SVC_SUBACCOUNT send Service-Subaccount', async () => {
    const child = await newChild();
    const k = await httpKey('ctx', sub(child.id));
    const viaFlag = ok(await svcRun(['keys', 'list', '-o', 'ids', '--subaccount', child.id]));
    expect(lines(viaFlag.stdout)).toEqual([k.id]);
    const viaEnv = ok(await svcRun(['keys', 'list', '-o', 'ids'], { env: { SVC_SUBACCOUNT: child.id } }));
    expect(lines(viaEnv.stdout)).toEqual([k.id]);
    // Writes go to the child too.
    const created = JSON.parse(ok(await svcRun(['keys', 'create', '--name', 'via flag', '--mode', 'live', '-o', 'json', '--subaccount', child.id])).stdout);
    expect(await keyIds(sub(child.id))).toEqual([created.id, k.id]);
    expect(await keyIds()).not.toContain(created.id);
  });

  it('svc context use <child> makes later commands act as the child until svc context clear', async () => {
    const configDir = tempDir('svc-cli-ctx-');
    const env = { SVC_CONFIG_DIR: configDir };
    const child = await newChild();
    const k = await httpKey('ctx2', sub(child.id));
    const agencyIds = await keyIds();

    ok(await svcRun(['context', 'use', child.id], { env }));
    const show = JSON.parse(ok(await svcRun(['context', 'show', '-o', 'json'], { env })).stdout);
    expect(show.subaccount).toBe(child.id);
    expect(lines(ok(await svcRun(['keys', 'list', '-o', 'ids'], { env })).stdout)).toEqual([k.id]);
    // Agency-level commands never send the context.
    expect(lines(ok(await svcRun(['subaccounts', 'list', '--limit', '100', '-o', 'ids'], { env })).stdout)).toContain(child.id);

    ok(await svcRun(['context', 'clear'], { env }));
    expect(lines(ok(await svcRun(['keys', 'list', '--limit', '100', '-o', 'ids'], { env })).stdout)).toEqual(agencyIds);
  });

  it('svc context use refuses an id that is not a child, and stores nothing', async () => {
    const configDir = tempDir('svc-cli-ctx-');
    const env = { SVC_CONFIG_DIR: configDir };
    const res = await svcRun(['context', 'use', randomUUID()], { env });
    expect(res.code).toBe(4);
    const show = JSON.parse(ok(await svcRun(['context', 'show', '-o', 'json'], { env })).stdout);
    expect(show.subaccount).toBeNull();
  });
});

describe('profiles and login', () => {
  it('profiles add/list/show mask keys, and the config file is mode 0600', async () => {
    const configDir = tempDir('svc-cli-prof-');
    const env = { SVC_CONFIG_DIR: configDir };
    const fullKey = svc.bootstrap.testKey;
    ok(await svcRun(['profiles', 'add', 'staging', '--base-url', svc.baseUrl, '--api-key-stdin'], { env, stdin: `${fullKey}\n` }));

    const masked = `sk_test_…${fullKey.slice(-4)}`;
    const list = ok(await svcRun(['profiles', 'list'], { env }));
    expect(list.stdout).toContain('staging');
    expect(list.stdout).toContain(masked);
    expect(list.stdout).not.toContain(fullKey);
    // The built-in local profile shows the bootstrap key masked too.
    expect(list.stdout).toMatch(/^local\t/m);
    expect(list.stdout).not.toContain(svc.bootstrap.liveKey);

    const show = JSON.parse(ok(await svcRun(['profiles', 'show', 'staging', '-o', 'json'], { env })).stdout);
    expect(show).toMatchObject({ name: 'staging', baseUrl: svc.baseUrl, apiKey: masked });
    const showTable = ok(await svcRun(['profiles', 'show', 'staging'], { env, tty: true }));
    expect(showTable.stdout).not.toContain(fullKey);

    const file = join(configDir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored.profiles.staging).toEqual({ baseUrl: svc.baseUrl, apiKey: fullKey });

    // A profile used for real: no SVC_API_KEY / SVC_BASE_URL, the stored ones do the work.
    const used = ok(await svcRun(['keys', 'list', '--limit', '100', '-o', 'ids', '--profile', 'staging'], { env: { ...env, SVC_API_KEY: undefined, SVC_BASE_URL: undefined } }));
    expect(lines(used.stdout)).toEqual(await keyIds());
  });

  it('profiles add for a new profile without --base-url exits 2', async () => {
    const env = { SVC_CONFIG_DIR: tempDir('svc-cli-prof-') };
    const res = await svcRun(['profiles', 'add', 'nowhere'], { env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--base-url');
  });

  it('login --api-key-stdin --no-input saves a good key (exit 0) and makes the profile current', async () => {
    const configDir = tempDir('svc-cli-login-');
    const env = { SVC_CONFIG_DIR: configDir };
    const res = ok(await svcRun(['login', '--api-key-stdin', '--no-input', '--profile', 'p', '--base-url', svc.baseUrl], { env, stdin: `${svc.bootstrap.testKey}\n` }));
    expect(res.stdout).toBe('');
    expect(res.stderr).not.toContain(svc.bootstrap.testKey);
    const stored = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'));
    expect(stored.profiles.p).toEqual({ baseUrl: svc.baseUrl, apiKey: svc.bootstrap.testKey });
    expect(stored.currentProfile).toBe('p');
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('login with a bad key exits 3 and saves nothing', async () => {
    const configDir = tempDir('svc-cli-login-');
    const env = { SVC_CONFIG_DIR: configDir };
    const bad = `sk_live_${'q'.repeat(32)}`;
    const res = await svcRun(['login', '--api-key-stdin', '--no-input', '--profile', 'p', '--base-url', svc.baseUrl], { env, stdin: bad });
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/^error: unauthorized: /m);
    // Nothing saved: no profile "p" (the file may not even exist).
    const list = ok(await svcRun(['profiles', 'list', '-o', 'json'], { env }));
    expect(JSON.parse(list.stdout).map((p: { name: string }) => p.name)).toEqual(['local', 'local-test']);
    let text = '';
    try {
      text = readFileSync(join(configDir, 'config.json'), 'utf8');
    } catch {
      text = '';
    }
    expect(text).not.toContain(bad);
  });

  it('login refuses a bad profile name before sending anything (exit 2 naming --profile)', async () => {
    const env = { SVC_CONFIG_DIR: tempDir('svc-cli-login-') };
    const res = await svcRun(['login', '--api-key-stdin', '--no-input', '--profile', 'bad name', '--base-url', svc.baseUrl], { env, stdin: `${svc.bootstrap.testKey}\n` });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: --profile: /m);
  });

  it('login --no-input without --api-key-stdin exits 2 naming --api-key-stdin', async () => {
    const env = { SVC_CONFIG_DIR: tempDir('svc-cli-login-') };
    const res = await svcRun(['login', '--no-input', '--profile', 'p', '--base-url', svc.baseUrl], { env });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--api-key-stdin');
  });

  it('login refuses something that is not a key (exit 2) and saves nothing', async () => {
    const env = { SVC_CONFIG_DIR: tempDir('svc-cli-login-') };
    const res = await svcRun(['login', '--api-key-stdin', '--no-input', '--profile', 'p', '--base-url', svc.baseUrl], { env, stdin: 'hunter2' });
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/^error: .*not an API key/m);
    const list = ok(await svcRun(['profiles', 'list', '-o', 'json'], { env }));
    expect(JSON.parse(list.stdout).map((p: { name: string }) => p.name)).toEqual(['local', 'local-test']);
  });
  it('login says what is wrong with a malformed key itself, not with an Authorization header, and never echoes it', async () => {
    const env = { SVC_CONFIG_DIR: tempDir('svc-cli-login-') };
    const short = 'sk_live_Ab3dEf9h';
    const res = await svcRun(['login', '--api-key-stdin', '--no-input', '--profile', 'p', '--base-url', svc.baseUrl], { env, stdin: `${short}\n` });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('the API key read from stdin is not an API key: after sk_live_ come 32 letters and digits; this one has 8');
    expect(res.stderr).not.toMatch(/Authorization|Bearer/);
    expect(res.stderr + res.stdout).not.toContain(short);
    const spaced = await svcRun(['login', '--api-key-stdin', '--no-input', '--profile', 'p', '--base-url', svc.baseUrl], { env, stdin: `${svc.bootstrap.testKey.slice(0, 20)} ${svc.bootstrap.testKey.slice(21)}\n` });
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toContain('after sk_test_ come 32 letters and digits, and this one has a space among them');
  });
});

describe('--dry-run and --verbose', () => {
  it('--dry-run prints the request with a redacted Authorization and sends nothing', async () => {
    const before = await keyIds();
    const res = ok(await svcRun(['keys', 'create', '--name', 'dry', '--mode', 'live', '--dry-run']));
    const key = svc.bootstrap.liveKey;
    expect(res.stdout).toContain(`POST ${svc.baseUrl}/v1/keys`);
    expect(res.stdout).toMatch(new RegExp(`^authorization: Bearer sk_live_…${key.slice(-4)}$`, 'mi'));
    expect(res.stdout).toContain('"name": "dry"');
    expect(res.stdout + res.stderr).not.toContain(key);
    expect(await keyIds()).toEqual(before);

    const k = await httpKey('survives dry run');
    ok(await svcRun(['keys', 'revoke', k.id, '--yes', '--dry-run']));
    expect((await svc.call('GET', '/v1/keys', { key: k.key })).status).toBe(200);

    const adv = await clockMs();
    ok(await svcRun(['clock', 'advance', '1h', '--dry-run']));
    expect(await clockMs()).toBe(adv);
  });

  it('-v traces method, URL, status and request id on stderr, never the key', async () => {
    const key = svc.bootstrap.liveKey;
    for (const opts of [{ args: ['-v'], env: {} }, { args: [], env: { SVC_DEBUG: '1' } }]) {
      const res = ok(await svcRun(['keys', 'list', '--limit', '2', ...opts.args], { env: opts.env }));
      expect(res.stderr).toContain(`→ GET ${svc.baseUrl}/v1/keys?limit=2`);
      expect(res.stderr).toMatch(/← 200 .*request-id=req_\S+/);
      expect(res.stderr).toMatch(new RegExp(`Bearer sk_live_…${key.slice(-4)}`));
      expect(res.stderr).not.toContain(key);
      expect(res.stdout).not.toContain('→');
      expect(lines(res.stdout)).toHaveLength(2);
    }
  });

  it('-v never shows a created key in the traced response body', async () => {
    const res = ok(await svcRun(['keys', 'create', '--name', 'traced', '--mode', 'live', '-o', 'json', '-v']));
    const created = JSON.parse(res.stdout);
    expect(res.stderr).toContain('→ POST');
    expect(res.stderr).not.toContain(created.key);
  });
});

describe('clock', () => {
  it('svc clock advance 90m moves the service clock by exactly 5400 s', async () => {
    const before = await clockMs();
    const res = ok(await svcRun(['clock', 'advance', '90m', '-o', 'json']));
    expect(await clockMs()).toBe(before + 5_400_000);
    expect(Date.parse(JSON.parse(res.stdout).now)).toBe(before + 5_400_000);
    ok(await svcRun(['clock', 'advance', '1h30m']));
    expect(await clockMs()).toBe(before + 2 * 5_400_000);
  });

  it('svc clock show prints the service clock', async () => {
    const res = ok(await svcRun(['clock', 'show', '-o', 'json']));
    const shown = JSON.parse(res.stdout);
    expect(shown.mode).toBe('manual');
    expect(Date.parse(shown.now)).toBe(await clockMs());
  });
});

describe('subaccounts and agency', () => {
  it('create, list, get, update, suspend --yes, resume', async () => {
    const created = JSON.parse(ok(await svcRun(['subaccounts', 'create', '--name', 'CLI Co', '-o', 'json'])).stdout);
    expect(created).toMatchObject({ name: 'CLI Co', status: 'active' });
    const server = await svc.call('GET', `/v1/subaccounts/${created.id}`);
    expect(server.body).toEqual(created);

    const list = ok(await svcRun(['subaccounts', 'list', '--limit', '100']));
    const row = lines(list.stdout).find((l) => l.startsWith(`${created.id}\t`));
    expect(row?.split('\t')).toEqual([created.id, 'CLI Co', 'active', created.createdAt]);

    const got = JSON.parse(ok(await svcRun(['subaccounts', 'get', created.id])).stdout);
    expect(got).toEqual(created);

    const updated = JSON.parse(ok(await svcRun(['subaccounts', 'update', created.id, '--name', 'CLI Co 2'])).stdout);
    expect(updated.name).toBe('CLI Co 2');
    expect((await svc.call('GET', `/v1/subaccounts/${created.id}`)).body.name).toBe('CLI Co 2');
    expect((await svcRun(['subaccounts', 'update', created.id])).code).toBe(2);

    const refused = await svcRun(['subaccounts', 'suspend', created.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect((await svc.call('GET', `/v1/subaccounts/${created.id}`)).body.status).toBe('active');

    const suspended = JSON.parse(ok(await svcRun(['subaccounts', 'suspend', created.id, '--yes'])).stdout);
    expect(suspended.status).toBe('suspended');
    const blocked = await svcRun(['keys', 'list', '--subaccount', created.id]);
    expect(blocked.code).toBe(3);
    expect(blocked.stderr).toMatch(/^error: forbidden: /m);

    const resumed = JSON.parse(ok(await svcRun(['subaccounts', 'resume', created.id])).stdout);
    expect(resumed.status).toBe('active');
    ok(await svcRun(['keys', 'list', '--subaccount', created.id]));
  });

  it('subaccounts commands ignore the stored sub-account context (agency-level routes)', async () => {
    const child = await newChild();
    const res = ok(await svcRun(['subaccounts', 'get', child.id, '--subaccount', child.id]));
    expect(JSON.parse(res.stdout).id).toBe(child.id);
  });

  it('agency summary -o json lists every child with its counts', async () => {
    const child = await newChild('Summary Kid');
    const res = ok(await svcRun(['agency', 'summary', '-o', 'json']));
    const parsed = JSON.parse(res.stdout);
    const rows = Array.isArray(parsed) ? parsed : parsed.subaccounts;
    expect(rows).toContainEqual({ id: child.id, name: 'Summary Kid', status: 'active', numbers: 0, messagesThisMonth: 0, spendThisMonthCents: 0 });
    const server = (await svc.call('GET', '/v1/agency/summary')).body.subaccounts;
    expect(rows).toEqual(server);
  });
});

describe('svc api', () => {
  it('sends -F fields as the body for POST and as the query for GET', async () => {
    const created = JSON.parse(ok(await svcRun(['api', 'POST', '/v1/keys', '-F', 'name=raw', '--field', 'mode=test'])).stdout);
    expect(created).toMatchObject({ name: 'raw', mode: 'test', key: expect.stringMatching(/^sk_test_/) });
    const page = JSON.parse(ok(await svcRun(['api', 'GET', '/v1/keys', '-F', 'limit=1'])).stdout);
    expect(page.data).toHaveLength(1);
    expect(page.hasMore).toBe(true);
  });

  it('-f, the old spelling of -F, still works: a one-line notice on a terminal, nothing when piped', async () => {
    const piped = ok(await svcRun(['api', 'GET', '/v1/keys', '-f', 'limit=1']));
    expect(JSON.parse(piped.stdout).data).toHaveLength(1);
    expect(piped.stderr).toBe('');
    const tty = ok(await svcRun(['api', 'GET', '/v1/keys', '-f', 'limit=1', '-F', 'mode=test'], { tty: true }));
    expect(tty.stderr).toBe('note: -f is now -F, --field; the old spelling still works, for a while\n');
    expect(tty.stdout).toContain('"data"');
  });

  it('reads the body from --input -', async () => {
    const res = ok(await svcRun(['api', 'POST', '/v1/subaccounts', '--input', '-'], { stdin: '{"name":"From Stdin"}' }));
    const created = JSON.parse(res.stdout);
    expect(created.name).toBe('From Stdin');
    expect((await svc.call('GET', `/v1/subaccounts/${created.id}`)).status).toBe(200);
  });

  it('exits 2 for an unknown method or a path without a leading slash', async () => {
    expect((await svcRun(['api', 'FETCH', '/v1/keys'])).code).toBe(2);
    expect((await svcRun(['api', 'GET', 'v1/keys'])).code).toBe(2);
  });
});
