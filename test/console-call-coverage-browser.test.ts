/// <reference lib="dom" />
// The number's route graph in the console marks what the last kept run of `svc calls test` covered
// (cli.md "Calls as tests"), in a real browser (Debian's chromium driven by playwright-core): covered
// and uncovered boxes, the uncovered branches listed with when the run was recorded; nothing shown
// for a number with no run kept; a kept branch id shown as text only. No browser is a FAILURE.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { fundAccount } from './helpers/money.js';
import { REPO_ROOT, runSvc } from './helpers/cli.js';
import { voiceNumber } from './calls-fixtures.js';
import { launchChromium, seriousAxeIssues, signIn, type Watched } from './helpers/console-browser.js';

const ROUTE = parse(readFileSync(join(REPO_ROOT, 'examples', 'calls', 'front-desk.yaml'), 'utf8')) as Record<string, unknown>;

let svc: TestService;
let browser: Browser;
let tmp: string;

beforeAll(async () => {
  browser = await launchChromium();
  svc = await startTestService();
  await fundAccount(svc, svc.bootstrap.accountId);
  expect((await svc.call('POST', '/v1/blocked-numbers', { body: { phoneNumber: '+14155550177' } })).status).toBe(201);
  tmp = mkdtempSync(join(tmpdir(), 'svc-console-coverage-'));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** The shipped example's tests against `phoneNumber`'s saved route, without the one that presses 2. */
function testsWithoutKeyTwo(phoneNumber: string): string {
  const text = readFileSync(join(REPO_ROOT, 'examples', 'calls', 'front-desk.test.yaml'), 'utf8');
  const [head, ...tests] = text.split(/\n(?=  - name: )/);
  const path = join(tmp, 'saved.test.yaml');
  const doc = [head!.replace(/^number: .*$/m, `number: "${phoneNumber}"`).replace(/^route: .*\n/m, ''), ...tests.filter((t) => !t.includes('name: 2 leaves a message'))].join('\n');
  writeFileSync(path, doc);
  return path;
}

const open = async (w: Watched, path: string) => {
  const res = await w.page.goto(`${svc.baseUrl}${path}`);
  expect(res?.status(), path).toBe(200);
};

describe("the route graph's test coverage in Chromium", () => {
  it('marks the boxes the last kept run covered and the one it did not, and lists the uncovered branch with when it was recorded', async () => {
    const n = await voiceNumber(svc, ROUTE);
    const run = await runSvc(['calls', 'test', testsWithoutKeyTwo(n.phoneNumber)], { service: svc });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('uncovered: ivr.key:2\n');
    const kept = (await svc.call('GET', `/v1/sandbox/numbers/${n.id}/call-coverage`)).body;

    const w = await signIn(browser, svc);
    await open(w, `/console/numbers/${n.id}`);
    const graph = w.page.locator('figure.route-graph');
    const titles = (selector: string) => graph.locator(selector).evaluateAll((gs) => gs.map((g) => g.querySelector('.node-title')!.textContent));
    expect(await titles('g.node.uncovered')).toEqual(['Key 2: Message']);
    expect(await titles('g.node.covered')).toEqual(['Inbound call', 'IVR menu', 'Key 1: Sales', 'No key: fallback', 'Voicemail']);
    expect(await graph.locator('g.node.uncovered title').textContent()).toContain('not covered by the last test run: ivr.key:2');

    const section = w.page.locator('section.coverage');
    expect(await section.locator('ul.uncovered li').allTextContents()).toEqual(['ivr.key:2']);
    expect(await section.locator('time').getAttribute('datetime')).toBe(kept.recordedAt);
    expect(await section.textContent()).toContain('the saved route: 6 of 6 tests passed, 9 of 10 branches covered (90%)');
    expect(await seriousAxeIssues(w.page)).toEqual([]);
    expect(w.consoleErrors).toEqual([]);
    expect(w.offOrigin).toEqual([]);
    await w.page.context().close();
  });

  it('shows nothing of coverage for a number with no run kept, and a kept branch id only as text', async () => {
    const n = await voiceNumber(svc, ROUTE);
    const w = await signIn(browser, svc);
    await open(w, `/console/numbers/${n.id}`);
    expect(await w.page.locator('figure.route-graph g.node').count()).toBeGreaterThan(3);
    expect(await w.page.locator('section.coverage, g.node.covered, g.node.uncovered').count()).toBe(0);

    // A run kept through the API names its own branches: one that looks like markup stays text.
    const hostile = '<img src=x id=injected>';
    const put = await svc.call('PUT', `/v1/sandbox/numbers/${n.id}/call-coverage`, { body: { source: 'saved', tests: 1, passed: 1, branches: [{ id: 'voicemail', taken: true }, { id: hostile, taken: false }] } });
    expect(put.status, put.text).toBe(200);
    await open(w, `/console/numbers/${n.id}`);
    expect(await w.page.locator('section.coverage ul.uncovered li').allTextContents()).toEqual([hostile]);
    expect(await w.page.locator('#injected').count()).toBe(0);
    expect(await w.page.locator('figure.route-graph g.node.covered .node-title').allTextContents()).toEqual(['Voicemail']);
    expect(w.consoleErrors).toEqual([]);
    await w.page.context().close();
  });
});
