// svc/testing's `calls.test` (cli.md "Calls as tests"): a test file by path, or the same document as
// an object with its route inline, run as `svc calls test` runs it; only through the kit.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startService, type CallTestDocument, type TestService } from '../src/testing/index.js';

// The number the shipped example names: the sandbox inventory is the same on every service.
const NUMBER = '+16285338556';
const EXAMPLE = fileURLToPath(new URL('../examples/calls/front-desk.test.yaml', import.meta.url));
const ROUTE = parse(readFileSync(new URL('../examples/calls/front-desk.yaml', import.meta.url), 'utf8')) as Record<string, unknown>;
/** The shipped example's tests, as an object. */
const exampleTests = (): CallTestDocument['tests'] => (parse(readFileSync(EXAMPLE, 'utf8')) as CallTestDocument).tests;

describe('svc/testing calls.test', () => {
  let t: TestService;
  let numberId: string;
  beforeAll(async () => {
    t = await startService();
    const bought = await t.request('POST', '/v1/numbers/buy', { phoneNumber: NUMBER });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    numberId = bought.body.id;
    // The example's last caller is on the account's blocked list.
    expect((await t.request('POST', '/v1/blocked-numbers', { phoneNumber: '+14155550177' })).status).toBe(201);
  }, 60_000);
  afterAll(async () => await t?.close());

  it('runs a test file by its path: every test passes, 100 % of its route, the run kept as the number\'s last', async () => {
    const report = await t.calls.test(EXAMPLE);
    expect(report.tests.map((r) => [r.name, r.passed, r.failure])).toEqual(exampleTests().map((c) => [c.name, true, null]));
    expect(report.tests[0]!.trace.map((s) => s.step)).toContain('ivr.key');
    expect(report.coverage).toEqual({ covered: 10, total: 10, percent: 100, uncovered: [] });
    const kept = await t.request('GET', `/v1/sandbox/numbers/${numberId}/call-coverage`);
    expect(kept.body).toMatchObject({ source: 'file', tests: 7, passed: 7, covered: 10, total: 10, percent: 100 });
  });

  it('an object with its route inline: a skipped key is uncovered, and the number\'s route is left as it was', async () => {
    const before = await t.request('GET', `/v1/numbers/${numberId}/route`);
    const report = await t.calls.test({ number: NUMBER, route: ROUTE, tests: exampleTests().filter((c) => c.name !== '2 leaves a message') });
    expect(report.tests.every((r) => r.passed)).toBe(true);
    expect(report.coverage).toEqual({ covered: 9, total: 10, percent: 90, uncovered: ['ivr.key:2'] });
    const after = await t.request('GET', `/v1/numbers/${numberId}/route`);
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect((await t.request('GET', `/v1/sandbox/numbers/${numberId}/call-coverage`)).body).toMatchObject({ source: 'file', covered: 9, total: 10 });
  });

  it('a failing expectation is reported with the first expected step not found and the trace as it ran (not thrown)', async () => {
    const report = await t.calls.test({
      number: NUMBER,
      route: ROUTE,
      tests: [
        { name: 'Lee should answer', press: ['1'], answer: { Dana: '3s' }, expect: { trace: ['ivr.key 1', 'answered +14155550197'] } },
        { name: 'sales picks up', press: ['1'], answer: { Dana: 3 }, expect: { status: 'completed', answeredBy: '+14155550198' } },
      ],
    });
    expect(report.tests.map((r) => [r.name, r.passed, r.failure])).toEqual([
      ['Lee should answer', false, 'expected step not found: answered +14155550197'],
      ['sales picks up', true, null],
    ]);
    expect(report.tests[0]!.trace).toContainEqual({ atSecs: 3, step: 'answered', detail: 'by pstn +14155550198 (dst_evaluation1)' });
  });

  it('a document of more tests than one request carries: each answered and reported in its own place, in order', async () => {
    // 36 rounds of the example's 7 tests: 252, sent in batches of at most 100 to the same target.
    const tests = Array.from({ length: 36 }, (_, round) => exampleTests().map((c) => ({ ...c, name: `${c.name} #${round}` }))).flat();
    const report = await t.calls.test({ number: NUMBER, route: ROUTE, tests });
    expect(report.tests.map((r) => [r.name, r.passed, r.failure])).toEqual(tests.map((c) => [c.name, true, null]));
    const once = await t.calls.test({ number: NUMBER, route: ROUTE, tests: exampleTests() });
    expect(report.tests.map((r) => r.trace)).toEqual(Array.from({ length: 36 }, () => once.tests.map((r) => r.trace)).flat());
    expect(report.coverage).toEqual({ covered: 10, total: 10, percent: 100, uncovered: [] });
  });

  it('refuses a document the format does not take, naming the field, before anything runs', async () => {
    // An object has no file for `route: FILE` to be relative to.
    await expect(t.calls.test({ number: NUMBER, route: 'front-desk.yaml' as never, tests: [{ name: 'x' }] })).rejects.toThrow(/route: names a file \(front-desk\.yaml\).*give the route inline/);
    await expect(t.calls.test({ number: NUMBER, tests: [{ name: 'x', press: ['12'] }] })).rejects.toThrow(/tests\[0\]\.press\[0\]: must be one key/);
    // The service checks an inline route as it checks a PUT route.
    await expect(t.calls.test({ number: NUMBER, route: { ...ROUTE, ringMode: 'sometimes' }, tests: [{ name: 'x' }] })).rejects.toThrow(/refused the document.*\n\s+route\.ringMode: /);
  });
});
