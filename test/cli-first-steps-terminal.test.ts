// A newcomer's first commands at a real terminal (tmux): `svc clock` shows the clock rather than
// help, and a mistyped key at the login prompt is described as the key, not as a header.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { assertBuilt, BIN_PATH } from './helpers/cli.js';
import { openTerminal, shellEnvFor, type Terminal } from './helpers/terminal.js';

let svc: TestService;
let tmp: string;
let env: Record<string, string>;
const open: Terminal[] = [];

beforeAll(async () => {
  assertBuilt();
  svc = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-first-steps-term-'));
  env = { ...shellEnvFor(svc, tmp, BIN_PATH), PS1: 'READY$ ' };
});

afterAll(async () => {
  for (const t of open) t.close();
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function shell(): Terminal {
  const t = openTerminal(['bash', '--norc', '--noprofile'], { env });
  open.push(t);
  return t;
}

describe('first steps at a terminal', () => {
  it('svc clock shows the service clock, not the help', async () => {
    const t = shell();
    await t.until((s) => /READY\$ $/.test(s), 10_000, 'a shell prompt');
    t.type('svc clock; echo "status:$?"');
    t.press('Enter');
    const screen = await t.until((s) => /status:\d/.test(s), 15_000, 'the command to finish');
    expect(screen).toContain('status:0');
    const now = (await svc.call('GET', '/v1/sandbox/clock')).body.now as string;
    // The clock's own date, as `svc clock show` prints it.
    expect(screen).toContain(now.slice(0, 10));
    expect(screen).not.toContain('Usage:');
  });

  it('login at the prompt: a mistyped key is described as the key, never echoed, and nothing is saved', async () => {
    const t = shell();
    await t.until((s) => /READY\$ $/.test(s), 10_000, 'a shell prompt');
    t.type(`env -u SVC_API_KEY svc login --profile mine --base-url ${svc.baseUrl}; echo "status:$?"`);
    t.press('Enter');
    await t.until((s) => s.includes('API key'), 15_000, 'the key prompt');
    const typo = `${svc.bootstrap.testKey.slice(0, -1)}`;
    t.type(typo);
    t.press('Enter');
    const screen = await t.until((s) => /status:\d/.test(s), 15_000, 'the command to finish');
    expect(screen).toContain('status:2');
    expect(screen).toContain('the API key you entered is not an API key: after sk_test_ come 32 letters and digits; this one has 31');
    expect(screen).not.toMatch(/Authorization|Bearer/);
    expect(screen).not.toContain(typo);
    t.type('svc profiles list -o json | grep -c \'"mine"\'');
    t.press('Enter');
    await t.until((s) => /^0$/m.test(s), 15_000, 'no profile saved');
  });
});
