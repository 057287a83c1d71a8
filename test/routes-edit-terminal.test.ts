// `svc routes edit` as a person meets it, at a real terminal (tmux): the editor (a script standing
// in for one) changes the route, the plan is shown, the confirmation is answered at the prompt, and
// the saved route is printed as a summary. Without tmux this fails, it never skips.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { assertBuilt, BIN_PATH } from './helpers/cli.js';
import { openTerminal, shellEnvFor, type Terminal } from './helpers/terminal.js';

let svc: TestService;
let tmp: string;
let env: Record<string, string>;
let numberId: string;
const open: Terminal[] = [];

beforeAll(async () => {
  assertBuilt();
  svc = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-routes-term-'));
  const editor = join(tmp, 'editor.mjs');
  writeFileSync(
    editor,
    "import { readFileSync, writeFileSync } from 'node:fs';\nconst f = process.argv[2];\nwriteFileSync(f, readFileSync(f, 'utf8').replace(/^ringMode: simultaneous$/m, 'ringMode: sequential'));\n",
  );
  env = { ...shellEnvFor(svc, tmp, BIN_PATH), PS1: 'READY$ ', EDITOR: `${process.execPath} ${editor}` };
  const key = svc.bootstrap.testKey;
  const found = await svc.call('POST', '/v1/numbers/search', { body: { areaCode: '212', limit: 1 }, key });
  const bought = await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: found.body.data[0].phoneNumber }, key });
  expect(bought.status).toBe(201);
  numberId = bought.body.id;
  const put = await svc.call('PUT', `/v1/numbers/${numberId}/route`, { body: { destinationType: 'pstn', destination: '+14155550101' }, key });
  expect(put.status).toBe(200);
});

afterAll(async () => {
  for (const t of open) t.close();
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('routes edit at a terminal', () => {
  it('shows the change, asks to confirm, sends it and prints the saved route', async () => {
    const t = openTerminal(['bash', '--norc', '--noprofile'], { env });
    open.push(t);
    await t.until((s) => /READY\$ $/.test(s), 10_000, 'a shell prompt');
    t.type(`svc routes edit ${numberId}`);
    t.press('Enter');
    const asked = await t.until((s) => s.includes('Apply this change to the route of'), 15_000, 'the confirmation');
    expect(asked).toContain('~ ringMode: "simultaneous" → "sequential"');
    expect(asked).toContain('0 to add, 1 to change, 0 to remove');
    t.type('y');
    t.press('Enter');
    const done = await t.until((s) => /ring mode\s+sequential/.test(s) && /READY\$ $/.test(s), 15_000, 'the saved route');
    expect(done).toContain(`Call route of ${numberId}`);
    const route = (await svc.call('GET', `/v1/numbers/${numberId}/route`, { key: svc.bootstrap.testKey })).body.route;
    expect(route.ringMode).toBe('sequential');
  });
});
