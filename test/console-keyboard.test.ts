/// <reference lib="dom" />
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from './helpers/service.js';
import { createEndpoint, startReceiver, startWebhookService, type Receiver } from './webhooks-receiver.js';
import { liveNumber } from './messages-fixtures.js';
import { verifiedDomain } from './helpers/email-fixtures.js';
import { mintLink } from './console-fixtures.js';
import { launchChromium, openPage, waitListening, type Watched } from './helpers/console-browser.js';

// "Keyboard alone reaches every action": on every console page, with real data made
// through the API, Tab from the top visits every interactive control of the page (collected from the
// DOM) in turn, each one visible when it has the focus and drawn with a focus indicator; and every
// action (sign-in, the send box, a delivery's retry, the clock's advance, a key created and revoked,
// a sandbox call and its dial pad) is done with the keyboard alone: Tab to it, type, Enter or Space.

let svc: TestService;
let receiver: Receiver;
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
  // The first delivery fails (500), every later one succeeds: the retry button has something to do.
  receiver = await startReceiver((_r, i) => ({ status: i === 0 ? 500 : 200 }));
  svc = await startWebhookService();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await receiver?.close();
});

/** What the walk of one page found. */
interface Walk {
  /** Each control, in DOM order: a description, and whether Tab reached it. */
  controls: Array<{ what: string; reached: boolean }>;
  /** Controls reached out of DOM order (the page's tab order is the document's: no positive tabindex). */
  outOfOrder: string[];
  /** Controls that had the focus but were not visible, or drawn without a focus indicator. */
  notShown: string[];
  /** Why the walk ended before the last control, if it did. */
  ended: string;
}

/**
 * The interactive controls of the page, in DOM order: links, buttons, fields, selects, a
 * disclosure's summary, anything made focusable with tabindex, a frame, a media player; rendered
 * (a closed <details>'s content is not) and not disabled. Each is marked with its index.
 */
async function markControls(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, iframe, audio[controls], [tabindex]:not([tabindex="-1"])';
    const all = Array.from(document.querySelectorAll<HTMLElement>(selector)).filter((el) => !(el as HTMLButtonElement).disabled && el.checkVisibility());
    return all.map((el, i) => {
      el.dataset.kbIndex = String(i);
      const name = el.getAttribute('aria-label') ?? el.getAttribute('title') ?? (el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : null) ?? el.textContent ?? '';
      return `${el.tagName.toLowerCase()} "${name.trim().replace(/\s+/g, ' ').slice(0, 60)}"`;
    });
  });
}

/** Where the focus is: the marked control's index (-1: none of them; null: the document's body, out of the page). */
async function focused(page: Page): Promise<{ index: number | null; visible: boolean; indicator: boolean }> {
  return await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body || el === document.documentElement) return { index: null, visible: false, indicator: false };
    const r = el.getBoundingClientRect();
    const visible = el.checkVisibility({ opacityProperty: true, visibilityProperty: true }) && r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
    const s = getComputedStyle(el);
    // A frame's focus is inside it, drawn by the frame's own document (the email's HTML, sandboxed).
    const indicator = el.tagName === 'IFRAME' || (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
    return { index: el.dataset.kbIndex === undefined ? -1 : Number(el.dataset.kbIndex), visible, indicator };
  });
}

/** Presses Tab from the top of the page until the focus leaves it, and says what it reached. */
async function walk(page: Page): Promise<Walk> {
  // A live section fetches itself once its stream opens (console.js): walk what that leaves.
  if ((await page.locator('#live').count()) > 0) await page.waitForSelector('#live[data-refreshed]', { timeout: 10_000 });
  const names = await markControls(page);
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const reached = new Set<number>();
  const outOfOrder: string[] = [];
  const notShown: string[] = [];
  let last = -1;
  let ended = '';
  // Bounded: every control once, a frame's own controls, and some slack; the focus leaving the page ends it.
  for (let i = 0; i < names.length * 2 + 20; i++) {
    await page.keyboard.press('Tab');
    let f = await focused(page);
    // Focus handed to a frame's document (the email's HTML, sandboxed: an opaque origin, maybe
    // another renderer process) arrives after the key press returns; until it does the page's
    // active element is its body, as when the focus has left the page. Before the last control
    // that is the handoff: wait for it (an end of the page reached early still ends the walk).
    if (f.index === null && last < names.length - 1) {
      await page.waitForFunction(() => document.activeElement !== null && document.activeElement !== document.body, null, { timeout: 2_000 }).catch(() => undefined);
      f = await focused(page);
    }
    if (f.index === null) {
      if (last < names.length - 1) ended = `the focus left the page after ${names[last] ?? 'the top'} (active: ${await page.evaluate(() => `${document.activeElement?.tagName}, page focused: ${document.hasFocus()}`)})`;
      break;
    }
    if (f.index === -1) {
      notShown.push(`an unmarked element took the focus after ${names[last] ?? 'the top'}`);
      continue;
    }
    if (f.index === last) continue; // Tab moving within a frame's document
    if (reached.has(f.index)) {
      // wrapped to the top again
      if (last < names.length - 1) ended = `${names[f.index]} came again after ${names[last] ?? 'the top'}`;
      break;
    }
    if (f.index !== last + 1) outOfOrder.push(`${names[f.index]} after ${names[last] ?? 'the top'}`);
    if (!f.visible) notShown.push(`${names[f.index]}: not visible with the focus`);
    if (!f.indicator) notShown.push(`${names[f.index]}: no focus indicator`);
    reached.add(f.index);
    last = f.index;
  }
  return { controls: names.map((what, i) => ({ what, reached: reached.has(i) })), outOfOrder, notShown, ended };
}

async function expectWalkable(page: Page, where: string): Promise<number> {
  const w = await walk(page);
  expect(w.controls.length, `${where}: controls`).toBeGreaterThan(0);
  expect(w.controls.filter((c) => !c.reached).map((c) => c.what), `${where}: not reached by Tab${w.ended ? ` (${w.ended})` : ''}`).toEqual([]);
  expect(w.outOfOrder, `${where}: out of order`).toEqual([]);
  expect(w.notShown, `${where}: focus not shown`).toEqual([]);
  return w.controls.length;
}

/** Presses Tab (from where the focus is) until the element `selector` has it: it must be reachable. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector} on ${page.url()}`);
}

/** From the top of the page. */
async function tabFromTop(page: Page, selector: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await tabTo(page, selector);
}

/** A select's option chosen with the arrow keys (a closed select moves its value with them). */
async function chooseWithArrows(page: Page, value: string): Promise<void> {
  await page.keyboard.press('Home');
  for (let i = 0; i < 50; i++) {
    if ((await page.evaluate(() => (document.activeElement as HTMLSelectElement).value)) === value) return;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`no option ${value}`);
}

/** The one-time link opened and confirmed with the keyboard: Tab to the sign-in button, Enter. */
async function signInByKeyboard(key?: string): Promise<Watched> {
  const w = await openPage(browser, svc);
  const { url } = await mintLink(svc, key);
  await w.page.goto(url);
  await expectWalkable(w.page, 'sign-in confirmation');
  await tabFromTop(w.page, 'form button[type="submit"]');
  await Promise.all([w.page.waitForURL(`${svc.baseUrl}/console/`), w.page.keyboard.press('Enter')]);
  return w;
}

describe('the console by keyboard alone', () => {
  it('Tab reaches every control of every page, visibly, and every action is done with Enter or Space', async () => {
    const { voiceNumber } = await import('./calls-fixtures.js');
    const { approvedCampaign } = await import('./registration-fixtures.js');
    // Data through the API: a conversation, a failed webhook delivery, a number with an IVR route, a
    // campaign, an email delivered to the mail sandbox.
    const endpoint = await createEndpoint(svc, { url: receiver.url, events: ['message.received'] });
    const n = await liveNumber(svc);
    const counterparty = '+14155550177';
    await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: counterparty, to: n.phoneNumber, body: 'hello by keyboard' } });
    await svc.flushWebhooks();
    await receiver.waitFor(1, 10_000);
    const voice = await voiceNumber(svc, {
      destinations: [{ destinationType: 'pstn', destination: '+14155550199', label: 'Front desk' }],
      ivr: { enabled: true, greeting: { text: 'Press 2 for support' }, keys: [{ digit: '2', label: 'Support', action: { type: 'voicemail' } }], fallback: { type: 'voicemail' } },
      voicemailEnabled: true,
    });
    const campaign = await approvedCampaign(svc);
    const domain = await verifiedDomain(svc, 'keyboard-mail.example');
    const sent = await svc.call('POST', '/v1/emails', { body: { from: `shop@${domain.domain}`, to: ['ada@example.com'], subject: 'Keyboard order', html: '<h1>Hello</h1><p><a href="https://example.com/x">a link</a></p>' } });
    expect(sent.status, sent.text).toBe(201);
    for (let i = 0; i < 20 && (await svc.call('GET', '/v1/sandbox/mailbox')).body.data.length === 0; i++) await svc.advanceJobs(1);

    const w = await signInByKeyboard();
    const { page } = w;
    const base = `${svc.baseUrl}/console`;
    const go = async (path: string) => {
      const res = await page.goto(`${base}${path}`);
      expect(res?.status(), path).toBe(200);
    };

    // Every section, and a detail page of each kind.
    const walked: Record<string, number> = {};
    for (const path of ['/', '/messages', `/messages/${encodeURIComponent(counterparty)}`, '/events', '/webhooks', `/webhooks/${endpoint.id}`, '/numbers', `/numbers/${voice.id}`, '/calls', '/email', `/email/emails/${sent.body.id}`, '/email/inbox', '/registration', `/registration/campaigns/${campaign.id}`, '/billing', '/keys', '/sandbox']) {
      await go(path);
      walked[path] = await expectWalkable(page, path);
    }
    // The mail sandbox with a message open (its frame) is reached by keyboard from the inbox.
    await go('/email/inbox');
    await tabFromTop(page, 'main table a');
    await Promise.all([page.waitForURL(/show=/), page.keyboard.press('Enter')]);
    walked['/email/inbox?show'] = await expectWalkable(page, 'mail sandbox, a message open');

    // The events filter: typed, then Enter.
    await go('/events');
    await tabFromTop(page, '#types');
    await page.keyboard.type('message.*');
    await Promise.all([page.waitForURL(/types=message/), page.keyboard.press('Enter')]);

    // The send box: the number chosen with the arrows, the body typed, Tab to Send, Space.
    await go(`/messages/${encodeURIComponent(counterparty)}`);
    await tabFromTop(page, '#from');
    await chooseWithArrows(page, n.phoneNumber);
    await tabTo(page, '#body');
    await page.keyboard.type('sent by keyboard');
    await tabTo(page, 'form.stack button[type="submit"]');
    await Promise.all([page.waitForURL(/\?sent=msg_/), page.keyboard.press('Space')]);
    expect(await page.locator('.bubble.outbound', { hasText: 'sent by keyboard' }).count()).toBe(1);

    // A failed delivery retried: Tab to its Retry button, Space.
    await go(`/webhooks/${endpoint.id}`);
    expect(await page.locator('tr[data-delivery-id] .delivery-status').first().textContent()).toMatch(/^(failed|pending)/);
    await tabFromTop(page, 'tr[data-delivery-id] button[type="submit"]');
    await Promise.all([page.waitForURL(/retried=/), page.keyboard.press('Space')]);
    expect(await page.locator('tr[data-delivery-id] .delivery-status').first().textContent()).toMatch(/^succeeded/);

    // The clock advanced by a minute: the amount chosen with the arrow keys, Enter on the button.
    await go('/sandbox');
    const before = svc.now();
    await tabFromTop(page, '#advance-by');
    await chooseWithArrows(page, '60');
    await tabTo(page, 'form[action$="/sandbox/advance"] button');
    await Promise.all([page.waitForLoadState('load'), page.waitForURL(/\/sandbox\/advance$/), page.keyboard.press('Enter')]);
    expect(await page.locator('.notice').textContent()).toBe('Advanced 60 s.');
    expect(svc.now() - before).toBe(60_000);
    await expectWalkable(page, 'sandbox, after an advance');

    // A key created (its name typed, its mode chosen with the arrows, Enter), then revoked (Space).
    await go('/keys');
    await tabFromTop(page, '#key-name');
    await page.keyboard.type('keyboard key');
    await tabTo(page, '#key-mode');
    await chooseWithArrows(page, 'test');
    await tabTo(page, 'form[action$="/keys"] button');
    await Promise.all([page.waitForURL(/\/keys$/), page.keyboard.press('Enter')]);
    await page.waitForSelector('.notice');
    expect(await page.locator('.notice code').textContent()).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);
    await expectWalkable(page, 'keys, a key just created');
    const row = page.locator('tr', { hasText: 'keyboard key' });
    const keyId = await row.getAttribute('data-key-id');
    await tabFromTop(page, `tr[data-key-id="${keyId}"] button[type="submit"]`);
    await Promise.all([page.waitForNavigation(), page.keyboard.press('Space')]);
    expect(await page.locator('tr', { hasText: 'keyboard key' }).textContent()).toContain('revoked');

    // A sandbox call placed (the number chosen with the arrows, Enter on Call), a key of the dial pad
    // pressed with Space, then hang up with Enter.
    await go('/calls');
    await tabFromTop(page, '#phone-to');
    await chooseWithArrows(page, voice.phoneNumber);
    await tabTo(page, 'form[action$="/calls"] button');
    await Promise.all([page.waitForURL(/\/console\/calls\/call_/), page.keyboard.press('Enter')]);
    await waitListening(page);
    await svc.advanceJobs(0);
    await page.waitForFunction(() => document.getElementById('live')!.textContent!.includes('ivr.prompt'), undefined, { timeout: 10_000 });
    walked['/calls/:id (phone)'] = await expectWalkable(page, 'a call under way, its dial pad');
    await tabFromTop(page, 'form.dialpad button[value="2"]');
    await Promise.all([page.waitForURL(/pressed=2/), page.keyboard.press('Space')]);
    await waitListening(page);
    await svc.advanceJobs(0);
    await page.waitForFunction(() => document.getElementById('live')!.textContent!.includes('2 (Support) → voicemail'), undefined, { timeout: 10_000 });
    await tabTo(page, 'button.hangup');
    await Promise.all([page.waitForURL(/hungUp=1/), page.keyboard.press('Enter')]);
    await waitListening(page);
    await svc.advanceJobs(0);
    await page.waitForFunction(() => document.getElementById('live')!.textContent!.includes('the caller hung up'), undefined, { timeout: 10_000 });
    // The ended call's page (its voicemail player, if any) is walked too.
    await page.reload();
    walked['/calls/:id (ended)'] = await expectWalkable(page, 'an ended call');

    expect(w.consoleErrors).toEqual([]);
    expect(w.offOrigin).toEqual([]);
    console.log(`controls walked per page: ${JSON.stringify(walked)}`);
    await page.context().close();
    // A bound for a hang, not a speed check: some 800 key presses, each a round trip to the browser.
  }, 240_000);

  it('keeps the keyboard where it was when a live section updates: the focused event, and the one opened', async () => {
    const n = await liveNumber(svc);
    for (const body of ['before', 'and before that']) await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550133', to: n.phoneNumber, body } });
    const w = await signInByKeyboard();
    const { page } = w;
    await page.goto(`${svc.baseUrl}/console/events`);
    await waitListening(page);
    await page.waitForSelector('#live[data-refreshed]');
    // The first event opened with Enter, the second one focused.
    await tabFromTop(page, '#live summary');
    await page.keyboard.press('Enter');
    const opened = await page.evaluate(() => document.activeElement!.closest('tr')!.getAttribute('data-event-id'));
    await tabTo(page, `#live tr:not([data-event-id="${opened}"]) summary`);
    const focusedId = await page.evaluate(() => document.activeElement!.closest('tr')!.getAttribute('data-event-id'));
    expect(focusedId).not.toBe(opened);
    await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550133', to: n.phoneNumber, body: 'a new event arrives' } });
    // The new event's row is put in above them (console.js marks it), the page not fetched again.
    await page.waitForFunction(() => document.getElementById('live')!.hasAttribute('data-inserted') && document.getElementById('live')!.textContent!.includes('a new event arrives'), undefined, { timeout: 10_000 });
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');
    expect(await page.evaluate(() => document.activeElement!.closest('tr')!.getAttribute('data-event-id'))).toBe(focusedId);
    expect(await page.evaluate((id) => document.querySelector<HTMLDetailsElement>(`tr[data-event-id="${id}"] details`)!.open, opened)).toBe(true);
    expect(w.consoleErrors).toEqual([]);
    await page.context().close();
  });
});
