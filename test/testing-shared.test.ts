// svc/testing's shared service: a Vitest project (the built kit, linked as `svc`) whose globalSetup
// is `svc/testing/vitest-setup`, and three test files that each `connectService()`: every file gets
// an account of its own, sees none of the others' records, and the suite passes.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, assertBuilt } from './helpers/cli.js';
import { run } from './helpers/pack-install.js';

const SUITE_TIMEOUT_MS = 180_000;

/** A test file of the project: its account texts itself once, marked with the file's name. */
const fileSource = (name: string, extra = '') => `
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { connectService } from 'svc/testing';

const NAME = ${JSON.stringify(name)};
let svc;
let number;
beforeAll(async () => {
  svc = await connectService(inject('svcService'));
  const found = await svc.request('POST', '/v1/numbers/search', { areaCode: '415', capabilities: ['sms'], limit: 1 });
  number = (await svc.request('POST', '/v1/numbers/buy', { phoneNumber: found.body.data[0].phoneNumber })).body.phoneNumber;
});
afterAll(async () => await svc?.close());

it('sees only its own account', async () => {
  await svc.inbound.sms({ to: number, from: '+14155550123', body: 'from ' + NAME });
  await svc.waitFor.event('message.received', { body: 'from ' + NAME });
  const messages = (await svc.request('GET', '/v1/messages')).body.data;
  expect(messages.map((m) => m.body)).toEqual(['from ' + NAME]);
  expect((await svc.request('GET', '/v1/numbers')).body.data.map((n) => n.phoneNumber)).toEqual([number]);
  expect(svc.env).toEqual({ SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.liveKey });
  writeFileSync(new URL('./accounts/' + NAME, import.meta.url), JSON.stringify({ accountId: svc.accountId, baseUrl: svc.baseUrl }));
});
${extra}`;

/** File a: a seeded account, and reset() moving it to a fresh one seeded the same. */
const RESET_CASE = `
it('reset() gives a fresh account seeded again, and refuses the old key', async () => {
  const seeded = await connectService(inject('svcService'), { seed: { steps: [{ name: 'endpoint', request: { method: 'POST', path: '/v1/webhooks', body: { url: 'http://127.0.0.1:9/hook', events: ['message.received'] } } }] } });
  try {
    const before = { accountId: seeded.accountId, liveKey: seeded.liveKey };
    expect((await seeded.request('GET', '/v1/webhooks')).body.data).toHaveLength(1);
    await seeded.request('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/other', events: ['message.received'] });
    await seeded.reset();
    expect(seeded.accountId).not.toBe(before.accountId);
    expect((await seeded.request('GET', '/v1/webhooks')).body.data.map((w) => w.url)).toEqual(['http://127.0.0.1:9/hook']);
    expect((await seeded.request('GET', '/v1/webhooks', undefined, before.liveKey)).status).toBe(403);
  } finally {
    await seeded.close();
  }
});`;

/** File b: the clock is the service's, moved by the root key for a file's account. */
const CLOCK_CASE = `
it('moves the service clock', async () => {
  const before = Date.parse(await svc.clock.now());
  const moved = await svc.clock.advance('1h');
  expect(Date.parse(moved.now) - before).toBeGreaterThanOrEqual(3600 * 1000);
});`;

let root: string | undefined;
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('svc/testing/vitest-setup', () => {
  it(
    'starts one service for the suite and gives each test file an account of its own',
    async () => {
      assertBuilt();
      root = mkdtempSync(join(tmpdir(), 'svc-shared-'));
      const modules = join(root, 'node_modules');
      mkdirSync(modules);
      mkdirSync(join(root, 'accounts'));
      symlinkSync(REPO_ROOT, join(modules, 'svc'));
      symlinkSync(realpathSync(join(REPO_ROOT, 'node_modules', 'vitest')), join(modules, 'vitest'));
      writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'svc-shared-check', private: true, type: 'module' }));
      // A minute a test, not Vitest's 5 s: this checks what the kit does, not how fast, and a seeded
      // connect plus a reset took over 5 s on a machine at load 14.
      writeFileSync(join(root, 'vitest.config.mjs'), "export default { test: { globalSetup: ['svc/testing/vitest-setup'], include: ['*.test.mjs'], testTimeout: 60000, hookTimeout: 60000 } };\n");
      writeFileSync(join(root, 'a.test.mjs'), fileSource('a', RESET_CASE));
      writeFileSync(join(root, 'b.test.mjs'), fileSource('b', CLOCK_CASE));
      writeFileSync(join(root, 'c.test.mjs'), fileSource('c'));

      const suite = await run(process.execPath, [join(modules, 'vitest', 'vitest.mjs'), 'run'], {
        cwd: root,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, CI: '1', NO_COLOR: '1' },
        timeoutMs: SUITE_TIMEOUT_MS,
      });
      expect(suite.code, `${suite.stdout}\n${suite.stderr}`).toBe(0);
      expect(suite.stdout).toMatch(/Test Files\s+3 passed \(3\)/);
      expect(suite.stdout).toMatch(/Tests\s+5 passed \(5\)/);
      // One service, three accounts.
      const accounts = readdirSync(join(root, 'accounts')).map((f) => JSON.parse(readFileSync(join(root!, 'accounts', f), 'utf8')) as { accountId: string; baseUrl: string });
      expect(accounts).toHaveLength(3);
      expect(new Set(accounts.map((a) => a.baseUrl)).size).toBe(1);
      expect(new Set(accounts.map((a) => a.accountId)).size).toBe(3);
    },
    SUITE_TIMEOUT_MS + 10_000,
  );
});
