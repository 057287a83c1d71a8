// A new user's first text: a number just bought with the default (live) profile has no 10DLC
// campaign. The error says how to go on in CLI terms, and the built-in local-test profile sends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { runSvc, expectOk } from './helpers/cli.js';

let svc: TestService;
let number: string;
beforeAll(async () => {
  svc = await startTestService();
  const found = await svc.call('POST', '/v1/numbers/search', { body: { areaCode: '415', limit: 1 } });
  const bought = await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: found.body.data[0].phoneNumber } });
  expect(bought.status).toBe(201);
  number = bought.body.phoneNumber;
});
afterAll(async () => {
  await svc?.stop();
});

describe('the first send from a number just bought', () => {
  it('with the live key: exit 5, and the hint names the CLI steps, not an API path', async () => {
    const res = await runSvc(['messages', 'send', '--from', number, '--to', '+14155550199', '--body', 'hi'], { service: svc });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('has no approved 10DLC campaign');
    expect(res.stderr).toContain('svc --profile local-test messages send');
    expect(res.stderr).toContain(`svc numbers assign ${number} --campaign <campaign-id>`);
    expect(res.stderr).not.toMatch(/POST \/v1/);
  });

  it('with the built-in local-test profile (the bootstrap test key): sent', async () => {
    const res = expectOk(
      await runSvc(['--profile', 'local-test', 'messages', 'send', '--from', number, '--to', '+14155550199', '--body', 'hi', '-o', 'json'], {
        service: svc,
        env: { SVC_API_KEY: undefined },
      }),
    );
    expect(JSON.parse(res.stdout)).toMatchObject({ from: number, status: expect.any(String), test: true });
  });

  it('profiles list shows both built-in profiles', async () => {
    const names = expectOk(await runSvc(['profiles', 'list', '-o', 'ids'], { service: svc })).stdout.trim().split('\n');
    expect(names.slice(0, 2)).toEqual(['local', 'local-test']);
  });
});
