/// <reference lib="dom" />
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bootstrap } from '../src/config/bootstrap.js';
import { assertBuilt, runSvcProcess, type CliResult } from './helpers/cli.js';
import { launchChromium, signIn } from './helpers/console-browser.js';
import { serviceAt } from './helpers/started-service.js';
import { liveNumber } from './messages-fixtures.js';

// The console's live pages with roles on SQLite: `svc server start --role api` and `--role worker`,
// two processes on one data directory. The worker moves a message's status (its carrier jobs) and
// writes the events; the console is open on the API process, which learns of the worker's commits
// only through the file. The open thread's bubble moves, and the events page shows the worker's
// event, without a reload; a held read of the events feed on the API process wakes on it too.

const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
let browser: Browser;

beforeAll(async () => {
  assertBuilt();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ok = (res: CliResult): CliResult => {
  expect(res.code, `${res.stdout}\n${res.stderr}`).toBe(0);
  return res;
};

describe('the console on an API process, a worker in its own process on the same SQLite file', () => {
  it("shows the worker's changes live: a bubble's status moved by the worker, the worker's event on the events page, a held read woken", async () => {
    const dataDir = tempDir('svc-console-roles-');
    const env = { SVC_DATA_DIR: dataDir, HOME: tempDir('svc-console-roles-home-') };
    const svcCli = (args: string[]) => runSvcProcess(args, { env });
    try {
      const baseUrl = ok(await svcCli(['server', 'start', '--detach', '--role', 'api', '--port', '0', '--clock', 'manual'])).stdout.trim();
      ok(await svcCli(['server', 'start', '--detach', '--role', 'worker', '--clock', 'manual']));
      const svc = serviceAt(baseUrl, JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as Bootstrap);
      // The campaign's approval is a job: the advances it takes are run by the worker.
      const n = await liveNumber(svc);
      const counterparty = '+14155550191';

      const thread = await signIn(browser, svc);
      await thread.page.goto(`${baseUrl}/console/messages/${encodeURIComponent(counterparty)}`);
      await thread.page.waitForSelector('#live[data-listening="true"][data-refreshed]', { timeout: 10_000 });
      const events = await signIn(browser, svc);
      await events.page.goto(`${baseUrl}/console/events?types=message.status`);
      await events.page.waitForSelector('#live[data-listening="true"][data-refreshed]', { timeout: 10_000 });
      // The events page's own fetches of itself from here on (console.js's refresh).
      const eventsFetches: string[] = [];
      events.page.on('request', (r) => {
        if (new URL(r.url()).pathname === '/console/events') eventsFetches.push(r.url());
      });

      // Sent through the API process: `queued`, shown by the API's own notice.
      const sent = await svc.call('POST', '/v1/messages', { body: { from: n.phoneNumber, to: counterparty, body: 'moved by the worker' } });
      expect(sent.status, sent.text).toBe(201);
      const bubble = thread.page.locator(`.bubble[data-message-id="${sent.body.id}"]`);
      await bubble.waitFor({ timeout: 5_000 });
      expect(await bubble.getAttribute('data-status')).toBe('queued');

      // When the bubble turns `delivered`, and whether the page fetched itself meanwhile (the browser
      // runs on this machine's clock).
      const fetchedBefore = await thread.page.evaluate(() => document.getElementById('live')!.getAttribute('data-refreshed'));
      await thread.page.evaluate((id) => {
        const el = document.querySelector(`.bubble[data-message-id="${id}"]`)!;
        new MutationObserver(() => {
          if (el.getAttribute('data-status') === 'delivered') (window as unknown as { deliveredAt?: number }).deliveredAt ??= Date.now();
        }).observe(el, { attributes: true });
      }, sent.body.id);

      // A held read of the feed on the API process, from the head: it waits for the worker's event.
      const head = (await svc.call('GET', '/v1/events?after=now&limit=1')).body.cursor as string;
      const heldSince = Date.now();
      const held = svc.call('GET', `/v1/events?after=${head}&types=message.status&wait=25`);

      // The carrier's jobs run in the worker (the API process hands the advance over and answers
      // once the worker has run them): `sending`, `sent` and `delivered` are the worker's commits.
      const advanced = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 2 } });
      expect(advanced.status, advanced.text).toBe(200);
      const answeredAt = Date.now();
      await thread.page.waitForFunction((id) => document.querySelector(`.bubble[data-message-id="${id}"][data-status="delivered"]`) !== null, sent.body.id, { timeout: 5_000 });
      await events.page.waitForFunction((id) => document.getElementById('live')!.textContent!.includes(id), sent.body.id, { timeout: 5_000 });
      // The worker's notices carry a status's move: the thread set it in place, with no fetch of itself.
      expect(await thread.page.evaluate(() => document.getElementById('live')!.getAttribute('data-refreshed'))).toBe(fetchedBefore);
      const bubbleMs = (await thread.page.evaluate(() => (window as unknown as { deliveredAt: number }).deliveredAt)) - answeredAt;
      // The worker's events came with their rows, rendered by the API process from the file: put in
      // place, no fetch of the page (console.js stamps when it put a row in).
      expect(eventsFetches).toEqual([]);
      const eventsMs = (await events.page.evaluate(() => Number(document.getElementById('live')!.getAttribute('data-inserted')))) - answeredAt;
      const woke = await held;
      const heldMs = Date.now() - heldSince;
      console.log(`roles: after the advance answered, the bubble showed delivered in ${bubbleMs} ms, the events page the worker's event in ${eventsMs} ms; the held read answered ${heldMs} ms after it was sent`);
      // Bounds against a hang (10x the console's 250 ms target), not a speed check.
      expect(bubbleMs).toBeLessThan(2_500);
      expect(eventsMs).toBeLessThan(2_500);
      expect(woke.status, woke.text).toBe(200);
      expect(woke.body.data.map((e: { messageId: string }) => e.messageId)).toContain(sent.body.id);
      // Woken by the worker's commit, not answered empty when its 25 s ran out.
      expect(heldMs).toBeLessThan(20_000);
      expect(thread.consoleErrors).toEqual([]);
      expect(events.consoleErrors).toEqual([]);
      await thread.page.context().close();
      await events.page.context().close();
    } finally {
      await svcCli(['server', 'stop']);
    }
  }, 120_000);
});
