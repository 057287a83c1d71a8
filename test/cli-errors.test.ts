// How errors read: once, in words, and as JSON when -o json asks for it (cli.md "Output, errors and
// exit codes").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { runSvc } from './helpers/cli.js';
import { detailLines } from '../src/cli/error-details.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});
const run = (args: string[]) => runSvc(args, { service: svc });

describe('error output', () => {
  it('says a domain validation error once (no detail repeating the message)', async () => {
    const res = await run(['webhooks', 'create', '--url', 'https://10.0.0.5/hooks']);
    expect(res.code).toBe(2);
    const lines = res.stderr.trim().split('\n').filter((l) => !l.startsWith('request id'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((l) => l.includes('points at a private address'))).toHaveLength(1);
  });

  it('keeps every detail of a validation error that lists several', () => {
    expect(detailLines('the request failed validation', [{ path: ['body', 'to'], message: 'bad' }, { path: ['body', 'from'], message: 'worse' }])).toEqual(['body.to: bad', 'body.from: worse']);
    expect(detailLines('body.to: bad', [{ path: ['body', 'to'], message: 'bad' }])).toEqual([]);
    expect(detailLines('x', { suggested: { street: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' }, other: { a: 1 } })).toEqual(['suggested address: 1 Main St, Austin, TX 78701', 'other: {"a":1}']);
  });

  it('-o json: a local usage error is the same envelope as an API validation error', async () => {
    const local = await run(['numbers', 'search', '--area-code', '41', '-o', 'json']);
    expect(local.code).toBe(2);
    const envelope = JSON.parse(local.stderr);
    expect(envelope).toEqual({ error: { code: 'validation_error', message: expect.stringMatching(/^--area-code: /), details: [{ path: ['--area-code'], message: expect.stringContaining('3 digits') }] }, requestId: null });
    const remote = await run(['webhooks', 'create', '--url', 'https://10.0.0.5/hooks', '-o', 'json']);
    expect(remote.code).toBe(2);
    expect(Object.keys(JSON.parse(remote.stderr)).sort()).toEqual(Object.keys(envelope).sort());
  });

  it('login --api-key says why keys are never flags and what to use instead', async () => {
    const res = await run(['login', '--api-key', 'sk_test_abc']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("unknown option '--api-key'");
    expect(res.stderr).toContain('--api-key-stdin');
    expect(res.stderr).toContain('SVC_API_KEY');
    expect(res.stderr).toMatch(/process list/);
  });
});
