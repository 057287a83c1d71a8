// A few real child processes of `node bin/svc.js` (needs `npm run build`): the launcher, exit codes
// through process.exitCode, and the local service's auto-start (contract §1).
import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { assertBuilt, runSvcProcess } from './helpers/cli.js';
import { freePort } from './helpers/ports.js';
import { isAlive } from '../src/cli/local-service.js';

const lines = (text: string) => text.split('\n').filter((l) => l !== '');


beforeAll(() => {
  assertBuilt();
});

describe('node bin/svc.js against a running service', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('--version prints 0.1.0 and exits 0', async () => {
    const res = await runSvcProcess(['--version']);
    expect(res).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('--help exits 0 and lists the groups', async () => {
    const res = await runSvcProcess(['--help']);
    expect(res.code).toBe(0);
    for (const group of ['keys', 'subaccounts', 'clock', 'api', 'server', 'login']) expect(res.stdout).toMatch(new RegExp(`^\\s+${group}\\b`, 'm'));
  });

  it('keys list with SVC_BASE_URL and SVC_API_KEY prints tab-separated rows', async () => {
    const expected = (await svc.call('GET', '/v1/keys?limit=100')).body.data.map((k: { id: string }) => k.id);
    const res = await runSvcProcess(['keys', 'list'], { service: svc });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).not.toContain('\u001b');
    expect(lines(res.stdout).map((l) => l.split('\t')[0])).toEqual(expected);
  });

  it('sets the exit code of an API error (401 → 3, 404 → 4) on the real process', async () => {
    const unauthorized = await runSvcProcess(['keys', 'list'], { service: svc, key: `sk_live_${'x'.repeat(32)}` });
    expect(unauthorized.code).toBe(3);
    expect(unauthorized.stderr).toMatch(/^error: unauthorized: /m);
    const notFound = await runSvcProcess(['keys', 'revoke', 'key_nope', '--yes'], { service: svc });
    expect(notFound.code).toBe(4);
  });
});

describe('the local profile starts the local service when nothing answers (contract §1)', () => {
  let dataDir: string;
  let configDir: string;
  let port: number;
  const pids = new Set<number>();
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-autostart-data-'));
    configDir = mkdtempSync(join(tmpdir(), 'svc-autostart-config-'));
    port = await freePort();
    env = { SVC_DATA_DIR: dataDir, SVC_CONFIG_DIR: configDir, SVC_BASE_URL: undefined, SVC_API_KEY: undefined };
    const add = await runSvcProcess(['profiles', 'add', 'local', '--base-url', `http://127.0.0.1:${port}`], { env });
    expect(add.code, add.stderr).toBe(0);
  });

  afterAll(async () => {
    // Whatever happened, leave no server behind.
    try {
      const info = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { pid: number };
      pids.add(info.pid);
    } catch {
      // no pid file: stopped, or never started
    }
    for (const pid of pids) {
      if (!isAlive(pid)) continue;
      process.kill(pid, 'SIGTERM');
      for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(configDir, { recursive: true, force: true });
  });

  it('starts it detached, says so in one line on stderr, writes bootstrap.json 0600, and answers', async () => {
    const res = await runSvcProcess(['keys', 'list'], { env });
    const info = existsSync(join(dataDir, 'server.json')) ? (JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { pid: number; baseUrl: string }) : undefined;
    if (info) pids.add(info.pid);
    expect(res.code, res.stderr).toBe(0);

    const started = lines(res.stderr);
    expect(started).toHaveLength(1);
    expect(started[0]).toMatch(new RegExp(`^svc: started the local service at http://127\\.0\\.0\\.1:${port}\\b`));

    expect(info).toBeDefined();
    expect(info!.baseUrl).toBe(`http://127.0.0.1:${port}`);
    expect(isAlive(info!.pid)).toBe(true);

    const bootstrapFile = join(dataDir, 'bootstrap.json');
    expect(statSync(bootstrapFile).mode & 0o777).toBe(0o600);
    const boot = JSON.parse(readFileSync(bootstrapFile, 'utf8'));
    expect(boot).toMatchObject({ baseUrl: `http://127.0.0.1:${port}`, liveKey: expect.stringMatching(/^sk_live_/), testKey: expect.stringMatching(/^sk_test_/) });

    // The two bootstrap keys, listed with the bootstrap live key.
    const rows = lines(res.stdout).map((l) => l.split('\t'));
    expect(rows.map((r) => r[1]).sort()).toEqual(['bootstrap live key', 'bootstrap test key']);

    // A second command finds it running and starts nothing.
    const again = await runSvcProcess(['keys', 'list', '-o', 'ids'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    expect(lines(again.stdout)).toHaveLength(2);
  });

  it('svc server status says running, svc server stop stops it, status then says stopped', async () => {
    const status = await runSvcProcess(['server', 'status', '-o', 'json'], { env });
    expect(status.code, status.stderr).toBe(0);
    const running = JSON.parse(status.stdout);
    expect(running).toMatchObject({ running: true, baseUrl: `http://127.0.0.1:${port}`, dataDir, pid: expect.any(Number) });
    pids.add(running.pid);

    const stop = await runSvcProcess(['server', 'stop'], { env });
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stderr).toMatch(/stopped/);
    expect(isAlive(running.pid)).toBe(false);
    expect(existsSync(join(dataDir, 'server.json'))).toBe(false);

    const after = await runSvcProcess(['server', 'status', '-o', 'json'], { env });
    expect(after.code).not.toBe(0);
    expect(JSON.parse(after.stdout)).toMatchObject({ running: false, pid: null });
  });
});
