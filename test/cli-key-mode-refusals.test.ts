// `export SVC_PROFILE=local-test` (the README's walkthrough) and nothing unsets it; later
// commands are refused for the test key, and the refusal must say that the profile chose that key
// and how to get the other one. `svc emails wait` under a test key fails at once, saying why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { runSvc } from './helpers/cli.js';

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

/** The built-in profiles read the service's bootstrap.json (SVC_DATA_DIR); no SVC_API_KEY. */
const asProfile = (args: string[], env: Record<string, string | undefined> = {}) => runSvc(args, { service: svc, env: { SVC_API_KEY: undefined, ...env } });

describe('a refusal caused by the active profile', () => {
  it('SVC_PROFILE=local-test, billing refused: names the profile, where it came from and the fix (exit 3)', async () => {
    const res = await asProfile(['billing', 'top-up', '20', '--yes'], { SVC_PROFILE: 'local-test' });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('error: forbidden: test keys move no money');
    expect(res.stderr).toContain('headers.authorization: a test key');
    expect(res.stderr).toContain('the active profile is local-test (from SVC_PROFILE), a test key: run with --profile local or unset SVC_PROFILE');
  });

  it('--profile local-test, a live key asked for: the flag is named, and the fix is the other profile', async () => {
    const res = await asProfile(['--profile', 'local-test', 'keys', 'create', '--name', 'ci', '--mode', 'live']);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('error: forbidden: a test key can create test keys only');
    expect(res.stderr).toContain('the active profile is local-test (from --profile), a test key: run with --profile local\n');
  });

  it('a test key in SVC_API_KEY: that variable is named', async () => {
    const res = await runSvc(['billing', 'limit', '250', '--yes'], { service: svc, key: svc.bootstrap.testKey });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain("the key is SVC_API_KEY's, a test key: set SVC_API_KEY to a live key");
  });

  it('SVC_PROFILE=local, a send needing a campaign: the test profile is the way to send now', async () => {
    const res = await asProfile(['messages', 'send', '--from', number, '--to', '+14155550199', '--body', 'hi'], { SVC_PROFILE: 'local' });
    expect(res.code).toBe(5);
    expect(res.stderr).toContain('the active profile is local (from SVC_PROFILE), a live key: run with --profile local-test\n');
  });

  it('a 403 the key mode did not cause names no profile', async () => {
    const res = await asProfile(['--subaccount', 'acc_not_a_child', 'numbers', 'list'], { SVC_PROFILE: 'local-test' });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain('Service-Subaccount is not a direct sub-account');
    expect(res.stderr).not.toContain('active profile');
  });
});

describe('svc emails wait under a test key', () => {
  it('fails at once (exit 3) saying a test key puts nothing in the mail sandbox, and how to use the live key', async () => {
    const res = await asProfile(['emails', 'wait', '--to', 'ada@example.org', '--timeout', '10s'], { SVC_PROFILE: 'local-test' });
    expect(res.code, res.stderr).toBe(3);
    expect(res.stderr).toContain("error: a test key's emails never reach the mail sandbox, so there is nothing to wait for");
    expect(res.stderr).toContain('the active profile is local-test (from SVC_PROFILE), a test key: run with --profile local or unset SVC_PROFILE');
    expect(res.stderr).not.toContain('timed out');
  });

  it('under the live key it still waits (and times out when nothing comes)', async () => {
    const res = await asProfile(['emails', 'wait', '--to', 'nobody@example.org', '--timeout', '1s'], { SVC_PROFILE: 'local' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('timed out after 1s');
  });
});
