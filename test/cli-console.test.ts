import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { expectOk, runSvc } from './helpers/cli.js';
import { consoleGet, exchange } from './console-fixtures.js';
import { openerFor } from '../src/cli/commands/console/console.run.js';

// issue 27: `svc console` mints the one-time link for the current profile; `--no-open` and `-o json`
// print it (the tests never start a browser).

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

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

  it('uses the platform opener', () => {
    expect(openerFor('linux').command).toBe('xdg-open');
    expect(openerFor('darwin').command).toBe('open');
    expect(openerFor('linux').args('http://x/')).toEqual(['http://x/']);
  });
});
