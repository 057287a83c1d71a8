/// <reference lib="dom" />
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from './helpers/service.js';
import { createEndpoint, startReceiver, startWebhookService, type Receiver } from './webhooks-receiver.js';
import { createBrand } from './hosted-pages-fixtures.js';
import { leadsOf } from './helpers/inspect.js';

// contract §7: the hosted opt-in page in a real browser (Debian's chromium driven by
// playwright-core): labels and an unchecked consent box as the accessibility tree sees them, the form
// walked and filled with the keyboard, submitted, the confirmation shown, and lead.captured delivered
// to a loopback webhook receiver with the exact consent text the page showed. Screenshots are kept
// under test-artifacts/. No browser is a FAILURE, never a skip: only this run proves the page in a
// real browser.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The machine's network is closed: without these flags Chromium reaches for Google's hosts at start.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const ARTIFACTS = resolve(__dirname, '..', 'test-artifacts');

let svc: TestService;
let receiver: Receiver;
let context: BrowserContext;
let userDataDir: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: run scripts/install-test-tools.sh (Debian package "chromium") or set CHROMIUM_PATH. This test must run; it does not skip.`);
  }
  userDataDir = mkdtempSync(join(tmpdir(), 'svc-chromium-'));
  try {
    // A persistent context is how a fresh, empty --user-data-dir of our own is given to Playwright.
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
  } catch (err) {
    throw new Error(`Chromium at ${CHROMIUM} could not be launched: ${(err as Error).message}`);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  receiver = await startReceiver();
  svc = await startWebhookService();
}, 60_000);

afterAll(async () => {
  await context?.close();
  await svc?.stop();
  await receiver?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

/** A page that records console errors (a CSP violation is reported there) and any request off loopback. */
async function openPage(): Promise<{ page: Page; consoleErrors: string[]; offLoopback: string[] }> {
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const offLoopback: string[] = [];
  page.on('console', (m) => {
    // A 400 re-render is logged as a failed resource; anything else (a CSP refusal) is a fault.
    if (m.type() === 'error' && !/status of 400/.test(m.text())) consoleErrors.push(m.text());
  });
  page.on('request', (r) => {
    if (!new URL(r.url()).hostname.startsWith('127.')) offLoopback.push(r.url());
  });
  return { page, consoleErrors, offLoopback };
}

const focusedId = (page: Page) => page.evaluate(() => {
  const el = document.activeElement as HTMLElement | null;
  if (!el || el === document.body) return '(body)';
  return el.id || `${el.tagName.toLowerCase()}:${el.textContent?.trim()}`;
});

describe('hosted opt-in page in Chromium', () => {
  it('is labelled, keyboard-operable, submits once and delivers lead.captured with the exact consent text', async () => {
    await createEndpoint(svc, { url: receiver.url, events: ['lead.captured'] });
    // The brand made through the API, its page designed with PATCH; the browser opens the opt-in URL
    // the brand's complianceUrls give.
    const brand = await createBrand(svc, {
      pageConfig: { headline: 'Ride news from Acme Bikes', accentColor: '#0b3d91', messageFrequency: 'Up to 4 msgs/month', messagePurpose: 'service reminders and offers', buttonText: 'Join' },
    });
    const brandId: string = brand.id;
    expect(brand.complianceUrls.optInUrl).toBe(`${svc.baseUrl}/p/${brandId}/opt-in`);
    const { page, consoleErrors, offLoopback } = await openPage();
    const res = await page.goto(brand.complianceUrls.optInUrl);
    expect(res?.status()).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await expect(page.getByRole('main').count()).resolves.toBe(1);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Ride news from Acme Bikes');

    // Every input has a label (input.labels), and the accessibility tree names each field.
    const inputs = await page.locator('input').evaluateAll((els) => els.map((e) => ({ id: e.id, labels: (e as HTMLInputElement).labels?.length ?? 0 })));
    expect(inputs.length).toBe(5);
    for (const i of inputs) expect(i.labels, i.id).toBeGreaterThan(0);
    for (const name of ['First name', 'Last name', 'Email (optional)']) expect(await page.getByRole('textbox', { name, exact: true }).count(), name).toBe(1);
    expect(await page.getByRole('textbox', { name: 'Mobile number' }).count()).toBe(1);
    const box = page.getByRole('checkbox', { name: /Msg & data rates may apply/ });
    expect(await box.count()).toBe(1);
    expect(await box.isChecked()).toBe(false);
    const consentShown = (await page.locator('label[for="consent"]').textContent())!;
    expect(consentShown).toContain('from Acme Bikes about service reminders and offers');
    expect(consentShown).toContain('Reply STOP to opt out, HELP for help.');
    expect(consentShown).toContain('Consent is not a condition of purchase.');

    // The inline style applied under the CSP (no violation), with the brand's accent on the button.
    expect(await page.getByRole('button', { name: 'Join' }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(11, 61, 145)');

    // Keyboard: Tab walks the fields in order (the consent label's links come after its box), each
    // focus visible (an outline); values are typed and the box ticked with Space.
    const order: string[] = [];
    const outlines: string[] = [];
    const typed: Record<string, string> = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '(415) 555-0123' };
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      const id = await focusedId(page);
      order.push(id);
      outlines.push(await page.evaluate(() => {
        const s = getComputedStyle(document.activeElement!);
        return `${s.outlineStyle} ${s.outlineWidth}`;
      }));
      if (typed[id]) await page.keyboard.type(typed[id]!);
      if (id === 'consent') await page.keyboard.press('Space');
    }
    expect(order).toEqual(['firstName', 'lastName', 'email', 'phone', 'consent', 'a:Privacy Policy', 'a:Messaging Terms', 'button:Join']);
    for (const o of outlines) expect(o).toBe('solid 3px');
    expect(await box.isChecked()).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'hosted-opt-in-filled.png'), fullPage: true });

    // Enter on the focused button submits; Post/Redirect/Get lands on the confirmation.
    await Promise.all([page.waitForURL(`**/p/${brandId}/opt-in/confirmed`), page.keyboard.press('Enter')]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you');
    await page.screenshot({ path: join(ARTIFACTS, 'hosted-opt-in-confirmed.png'), fullPage: true });
    // A refresh of the confirmation does not submit again.
    await page.reload();

    const [got] = await receiver.waitFor(1, 10_000);
    expect(got!.body).toMatchObject({
      type: 'lead.captured',
      brandId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+14155550123',
      consent: true,
      consentText: consentShown,
    });
    expect(got!.body.leadId).toMatch(/^lead_/);
    await svc.flushWebhooks();
    expect(receiver.received.filter((r) => r.body?.type === 'lead.captured')).toHaveLength(1);
    expect(await leadsOf(svc, brandId)).toHaveLength(1);

    expect(consoleErrors).toEqual([]);
    expect(offLoopback).toEqual([]);
    await page.close();
  }, 60_000);

  it('shows validation errors beside their fields, announced and linked, with the values kept', async () => {
    const brandId: string = (await createBrand(svc)).id;
    const { page, consoleErrors } = await openPage();
    await page.goto(`${svc.baseUrl}/p/${brandId}/opt-in`);
    await page.getByRole('textbox', { name: 'Last name' }).fill('Hopper');
    await page.getByRole('textbox', { name: 'Mobile number' }).fill('555');
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign up' }).click()]);
    expect(await page.getByRole('alert').count()).toBe(1);
    const phone = page.getByRole('textbox', { name: 'Mobile number' });
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    expect(await phone.inputValue()).toBe('555');
    // The error is part of the field's accessible description.
    expect(await phone.evaluate((el) => (el.getAttribute('aria-describedby') ?? '').split(' ').map((id: string) => document.getElementById(id)?.textContent).join(' '))).toContain('Enter a mobile number like');
    expect(await page.getByRole('textbox', { name: 'Last name' }).inputValue()).toBe('Hopper');
    expect(await page.getByRole('checkbox').isChecked()).toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, 'hosted-opt-in-errors.png'), fullPage: true });
    expect(await leadsOf(svc, brandId)).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.close();
  }, 60_000);

  it('shows a <script> in a brand name as text and runs nothing', async () => {
    const brandId: string = (await createBrand(svc, { legalName: '<script>document.title="pwned"</script>Evil', fields: {} })).id;
    const { page } = await openPage();
    await page.goto(`${svc.baseUrl}/p/${brandId}/opt-in`);
    // Had the script run, the title would be "pwned"; it is the brand name as text.
    expect(await page.title()).toBe('Sign up for texts from <script>document.title="pwned"</script>Evil');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Get text messages from <script>document.title="pwned"</script>Evil');
    await page.close();
  }, 60_000);
});
