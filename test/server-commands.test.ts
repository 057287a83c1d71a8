import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, rmSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { assertBuilt, runSvcProcess } from './helpers/cli.js';
import { plantTooOldDataDir } from './helpers/inspect.js';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('svc server start --detach and stop', () => {
  beforeAll(() => assertBuilt());

  it('refuses a data directory older than this build migrates: exit 5, naming the file, its version and what to do; the file unchanged', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-too-old-'));
    try {
      const old = plantTooOldDataDir(dataDir);
      const before = old.contents();
      const res = await runSvcProcess(['server', 'start', '--port', '0', '--data', dataDir]);
      expect(res.code, res.stderr).toBe(5);
      expect(res.stderr).toContain(`${old.file}: the database's schema is at version ${old.version}, older than this build of svc migrates (versions ${old.oldest} to ${old.newest})`);
      expect(res.stderr).toContain('open it once with an svc built before');
      expect(old.contents()).toBe(before);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('prints the bootstrap keys once, to the user and never to the log', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-detach-'));
    const env = { SVC_DATA_DIR: dataDir };
    try {
      const started = await runSvcProcess(['server', 'start', '--detach', '--port', '0', '--clock', 'manual'], { env });
      expect(started.code).toBe(0);
      expect(started.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
      const bootstrap = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as { liveKey: string; testKey: string };
      expect(started.stderr).toContain(`live key: ${bootstrap.liveKey}`);
      expect(started.stderr).toContain(`test key: ${bootstrap.testKey}`);
      const log = readFileSync(join(dataDir, 'server.log'), 'utf8');
      expect(log).not.toContain(bootstrap.liveKey);
      expect(log).not.toContain(bootstrap.testKey);
      const stopped = await runSvcProcess(['server', 'stop'], { env });
      expect(stopped.code).toBe(0);
      expect(stopped.stderr).toContain('stopped the local service');
      // A second start reuses the account: no keys printed again.
      const again = await runSvcProcess(['server', 'start', '--detach', '--port', '0'], { env });
      expect(again.code).toBe(0);
      expect(again.stderr).not.toContain('live key:');
      // --detach while it runs: success, the same address, nothing started.
      const twice = await runSvcProcess(['server', 'start', '--detach', '--port', '0'], { env });
      expect(twice.code).toBe(0);
      expect(twice.stdout).toBe(again.stdout);
      expect(twice.stderr).toContain('already running');
      expect((await runSvcProcess(['server', 'stop'], { env })).code).toBe(0);
    } finally {
      const info = existsSync(join(dataDir, 'server.json')) ? (JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { pid: number }) : undefined;
      if (info && isAlive(info.pid)) process.kill(info.pid, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
    // Five service processes started and stopped in turn: on a loaded CI machine each can take
    // seconds, so the bound is generous (a bound against a hang, not a timing assertion).
  }, 60_000);

  it('never signals a process that a stale server.json names', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-stale-'));
    const bystander = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      // A crash left server.json behind; its pid now belongs to an unrelated process.
      writeFileSync(join(dataDir, 'server.json'), JSON.stringify({ pid: bystander.pid, baseUrl: 'http://127.0.0.1:9', startedAt: new Date().toISOString() }));
      const stopped = await runSvcProcess(['server', 'stop'], { env: { SVC_DATA_DIR: dataDir } });
      expect(stopped.code).toBe(0);
      expect(stopped.stderr).toContain('not running');
      expect(isAlive(bystander.pid!)).toBe(true);
      expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
    } finally {
      bystander.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a port held by another data directory\'s service: says what holds it and suggests --port 0', async () => {
    const dirA = mkdtempSync(join(tmpdir(), 'svc-port-a-'));
    const dirB = mkdtempSync(join(tmpdir(), 'svc-port-b-'));
    try {
      const a = await runSvcProcess(['server', 'start', '--detach', '--port', '0'], { env: { SVC_DATA_DIR: dirA } });
      expect(a.code).toBe(0);
      const port = new URL(a.stdout.trim()).port;
      // Starting B's service on A's port.
      const b = await runSvcProcess(['server', 'start', '--detach', '--port', port], { env: { SVC_DATA_DIR: dirB } });
      expect(b.code).toBe(1);
      expect(b.stderr).toContain(`port ${port} on 127.0.0.1 is in use by another svc local service`);
      expect(b.stderr).toContain('--port 0');
      // B's local profile pointed at A's port, before B ever started: refused with the same words,
      // not a missing bootstrap.json.
      const cfg = mkdtempSync(join(tmpdir(), 'svc-port-cfg-'));
      writeFileSync(join(cfg, 'config.json'), JSON.stringify({ profiles: { local: { baseUrl: a.stdout.trim() } } }));
      const dirC = mkdtempSync(join(tmpdir(), 'svc-port-c-'));
      const listed = await runSvcProcess(['keys', 'list'], { env: { SVC_DATA_DIR: dirC, SVC_CONFIG_DIR: cfg } });
      expect(listed.code).toBe(1);
      expect(listed.stderr).toContain('in use by another svc local service');
      expect(listed.stderr).toContain('--port 0');
      rmSync(cfg, { recursive: true, force: true });
      rmSync(dirC, { recursive: true, force: true });
    } finally {
      await runSvcProcess(['server', 'stop'], { env: { SVC_DATA_DIR: dirA } });
      rmSync(dirA, { recursive: true, force: true });
      rmSync(dirB, { recursive: true, force: true });
    }
    // Two services started (one fails) and a third command: a bound against a hang on a loaded machine.
  }, 60_000);

  it('a port held by another program: the same words in the foreground and with --detach', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = String((holder.address() as { port: number }).port);
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-port-held-'));
    try {
      const foreground = await runSvcProcess(['server', 'start', '--port', port], { env: { SVC_DATA_DIR: dataDir } });
      const detached = await runSvcProcess(['server', 'start', '--detach', '--port', port], { env: { SVC_DATA_DIR: dataDir } });
      const said = `error: port ${port} on 127.0.0.1 is in use by another program, so the local service of ${dataDir} cannot listen there; start it on a free port with \`svc server start --detach --port 0\`\n`;
      expect(foreground).toMatchObject({ code: 1, stdout: '' });
      expect(foreground.stderr).toBe(said);
      expect(detached).toMatchObject({ code: 1, stdout: '' });
      expect(detached.stderr).toBe(said);
    } finally {
      holder.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
