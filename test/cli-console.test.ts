import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { assertBuilt, BIN_PATH, expectOk, runSvc } from './helpers/cli.js';
import { openTerminal, shellEnvFor, type Terminal } from './helpers/terminal.js';
import { until } from './helpers/started-service.js';
import { consoleGet, exchange } from './console-fixtures.js';
import { openerFor } from '../src/cli/commands/console/console.run.js';

// `svc console` mints the one-time link for the current profile; `--no-open` and `-o json`
// print it (the tests never start a browser).

let svc: TestService;
let tmp: string;
const terminals: Terminal[] = [];
beforeAll(async () => {
  svc = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-console-'));
});
afterAll(async () => {
  for (const t of terminals) t.close();
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A directory holding an `xdg-open` that runs `body` (a shell script), first on a PATH. */
function fakeOpener(name: string, body: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'xdg-open'), `#!/bin/sh\n${body}\n`);
  chmodSync(join(dir, 'xdg-open'), 0o755);
  return dir;
}

// xdg-open on a machine with no desktop: its own words, exit 3.
const NO_BROWSER = 'echo "xdg-open: no method available for opening \'$1\'" >&2; exit 3';

describe('svc console', () => {
  it('--no-open prints a one-time link that opens the console', async () => {
    const res = expectOk(await runSvc(['console', '--no-open'], { service: svc }));
    const url = res.stdout.trim();
    expect(url).toMatch(new RegExp(`^${svc.baseUrl}/console/login\\?token=[A-Za-z0-9]{32}$`));
    const opened = await exchange(svc, url);
    expect(opened.status).toBe(303);
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    expect((await consoleGet(svc, '/console/', cookie)).status).toBe(200);
  });

  it('-o json prints {"url": …} and opens nothing', async () => {
    const res = expectOk(await runSvc(['console', '-o', 'json'], { service: svc }));
    const body = JSON.parse(res.stdout);
    expect(Object.keys(body)).toEqual(['url']);
    expect(body.url).toMatch(/\/console\/login\?token=/);
    expect(res.stderr).toBe('');
  });

  it('opens the session as the key of the profile: a revoked key gets no link', async () => {
    const k = (await svc.call('POST', '/v1/keys', { body: { name: 'cli-console', mode: 'test' } })).body;
    await svc.call('DELETE', `/v1/keys/${k.id}`);
    const res = await runSvc(['console', '--no-open'], { service: svc, key: k.key });
    expect(res.code).not.toBe(0);
    expect(res.stdout).toBe('');
  });

  it('has help with an example', async () => {
    const res = expectOk(await runSvc(['console', '--help'], { service: svc }));
    expect(res.stdout).toContain('--no-open');
    expect(res.stdout).toContain('$ svc console --no-open');
  });

  it('prints the link, and why, when the opener fails (no browser on this machine)', async () => {
    const bin = fakeOpener('no-browser', NO_BROWSER);
    const res = expectOk(await runSvc(['console'], { service: svc, env: { PATH: `${bin}:${process.env.PATH}` } }));
    const url = res.stdout.trim();
    expect(url).toMatch(/\/console\/login\?token=[A-Za-z0-9]{32}$/);
    expect(res.stderr).toContain('Could not open a browser (xdg-open exited 3: xdg-open: no method available');
    expect(res.stderr).not.toContain('Opened');
    // The printed link is the one the opener was given, still unused.
    expect((await exchange(svc, url)).status).toBe(303);
  });

  it('says it opened the console when the opener succeeds, and prints no link', async () => {
    const seen = join(tmp, 'opened-url');
    const bin = fakeOpener('browser', `echo "$1" > '${seen}'; exit 0`);
    const res = expectOk(await runSvc(['console'], { service: svc, env: { PATH: `${bin}:${process.env.PATH}` } }));
    expect(res.stderr).toContain('Opened the console in your browser');
    expect(res.stdout).toBe('');
    expect(readFileSync(seen, 'utf8').trim()).toMatch(/\/console\/login\?token=/);
  });

  it('leaves a browser that keeps the opener running, and returns (not waiting for it to close)', async () => {
    const pidFile = join(tmp, 'foreground-pid');
    const bin = fakeOpener('foreground', `echo $$ > '${pidFile}'; exec sleep 120`);
    const started = Date.now();
    const res = expectOk(await runSvc(['console'], { service: svc, env: { PATH: `${bin}:${process.env.PATH}` } }));
    try {
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(res.stderr).toContain('Opened the console in your browser');
    } finally {
      const pid = Number(await until('the opener pid', () => (existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim() || undefined : undefined)));
      process.kill(pid, 'SIGKILL');
    }
  });

  it('at a terminal with no browser, shows the link to open by hand', async () => {
    assertBuilt();
    const bin = fakeOpener('no-browser-term', NO_BROWSER);
    const env = shellEnvFor(svc, join(tmp, 'term'), BIN_PATH);
    const t = openTerminal(['bash', '--norc', '--noprofile'], { env: { ...env, PATH: `${bin}:${env.PATH}`, PS1: 'READY$ ' } });
    terminals.push(t);
    await t.until((s) => /READY\$ $/.test(s), 10_000, 'a shell prompt');
    t.type('svc console; echo "exit=$?"');
    t.press('Enter');
    const screen = await t.until((s) => /exit=\d/.test(s), 30_000, 'svc console to finish');
    expect(screen).toContain('Could not open a browser (xdg-open exited 3');
    expect(screen).toMatch(/\/console\/login\?token=[A-Za-z0-9]{32}\n/);
    expect(screen).toContain('exit=0');
  });

  it('uses the platform opener', () => {
    expect(openerFor('linux').command).toBe('xdg-open');
    expect(openerFor('darwin').command).toBe('open');
    expect(openerFor('linux').args('http://x/')).toEqual(['http://x/']);
  });
});
