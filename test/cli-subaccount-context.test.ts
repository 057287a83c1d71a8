// A sub-account context set with `svc context use` is visible: named on a terminal, in empty lists,
// and by `context show` / `context use` ("no numbers found" with a forgotten context).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { runSvc, expectOk } from './helpers/cli.js';

let svc: TestService;
let env: Record<string, string>;
let subId: string;
beforeAll(async () => {
  svc = await startTestService();
  env = { SVC_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'svc-ctx-cfg-')) };
  const sub = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Acme Dental' } });
  expect(sub.status).toBe(201);
  subId = sub.body.id;
});
afterAll(async () => {
  await svc?.stop();
});

describe('the acting sub-account', () => {
  it('context use names it; context show gives its name', async () => {
    // SVC_BASE_URL/SVC_API_KEY come from env: the stored context goes on the `local` profile.
    const used = expectOk(await runSvc(['context', 'use', subId], { service: svc, env, tty: true }));
    expect(used.stderr).toContain(`now acts as sub-account "Acme Dental" (${subId})`);
    expect(used.stderr).not.toContain('acting as');
    const shown = JSON.parse(expectOk(await runSvc(['context', 'show', '-o', 'json'], { service: svc, env })).stdout);
    expect(shown).toMatchObject({ subaccount: subId, name: 'Acme Dental', source: 'profile' });
  });

  it('on a terminal every command says it, and an empty list names it', async () => {
    const listed = expectOk(await runSvc(['numbers', 'list'], { service: svc, env, tty: true }));
    expect(listed.stderr).toContain(`acting as sub-account "Acme Dental" (${subId})`);
    expect(listed.stderr).toContain(`no numbers found for sub-account "Acme Dental"`);
  });

  it('piped, stderr stays quiet about it (scripts)', async () => {
    const piped = expectOk(await runSvc(['numbers', 'list'], { service: svc, env }));
    expect(piped.stderr).not.toContain('acting as');
  });

  it('without a context, nothing is said', async () => {
    expectOk(await runSvc(['context', 'clear'], { service: svc, env }));
    const listed = expectOk(await runSvc(['numbers', 'list'], { service: svc, env, tty: true }));
    expect(listed.stderr).not.toContain('sub-account');
  });

  it('context use takes a unique name as well as an id; a shared name asks for the id, an unknown one says so', async () => {
    const east = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Harbor Bikes East' } });
    expect(east.status).toBe(201);
    const used = expectOk(await runSvc(['context', 'use', 'harbor bikes east'], { service: svc, env, tty: true }));
    expect(used.stderr).toContain(`now acts as sub-account "Harbor Bikes East" (${east.body.id})`);
    // `svc context` alone shows it, stored by id.
    const shown = JSON.parse(expectOk(await runSvc(['context', '-o', 'json'], { service: svc, env })).stdout);
    expect(shown).toMatchObject({ subaccount: east.body.id, name: 'Harbor Bikes East', source: 'profile' });

    const twin = await svc.call('POST', '/v1/subaccounts', { body: { name: 'Harbor Bikes East' } });
    expect(twin.status).toBe(201);
    const shared = await runSvc(['context', 'use', 'Harbor Bikes East'], { service: svc, env });
    expect(shared.code).toBe(2);
    expect(shared.stderr).toContain('2 sub-accounts are named "Harbor Bikes East"');
    expect(shared.stderr).toContain(twin.body.id);
    const unknown = await runSvc(['context', 'use', 'Harbor Bikes West'], { service: svc, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no sub-account of this agency is named "Harbor Bikes West"');
    // Neither changed the stored context.
    expect(JSON.parse(expectOk(await runSvc(['context', 'show', '-o', 'json'], { service: svc, env })).stdout).subaccount).toBe(east.body.id);
    expectOk(await runSvc(['context', 'clear'], { service: svc, env }));
  });
});
