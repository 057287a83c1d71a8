/// <reference lib="dom" />
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { TestService } from './service.js';
import { mintLink } from '../console-fixtures.js';

// The console in a real browser (Debian's chromium driven by playwright-core): launching
// it, a page that records console errors and requests to other origins, a session opened with the
// one-time link, axe-core run in the page. Shared by the console's browser tests.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The machine's network is closed: without these flags Chromium reaches for Google's hosts at start.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One browser for a test file. No browser is a FAILURE, never a skip. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: run scripts/install-test-tools.sh (Debian package "chromium") or set CHROMIUM_PATH. This test must run; it does not skip.`);
  }
  try {
    return await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
  } catch (err) {
    throw new Error(`Chromium at ${CHROMIUM} could not be launched: ${(err as Error).message}`);
  }
}

export interface Watched {
  page: Page;
  consoleErrors: string[];
  offOrigin: string[];
}

/**
 * A page (in a context of its own: its own cookie jar, as two browsers would be) that records
 * console errors (a CSP refusal is one) and any request to another origin that reached the network:
 * every request of the page and its frames passes the route below, which lets the service's own
 * through and records (and aborts) the rest. Not the `request` event: Chromium also reports there,
 * now and then, a request its CSP refused before sending it (seen as a flake of the email frame's
 * test, with the hostile pixel listed though it was never fetched).
 */
export async function openPage(browser: Browser, svc: TestService): Promise<Watched> {
  const page = await (await browser.newContext()).newPage();
  const consoleErrors: string[] = [];
  const offOrigin: string[] = [];
  page.on('console', (m) => {
    // The console's error pages (401, 404) are logged as failed resources by the browser; they are asserted where expected.
    if (m.type() === 'error' && !/status of 40[134]/.test(m.text())) consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'about:' || url.protocol === 'data:' || url.origin === svc.baseUrl) return await route.continue();
    offOrigin.push(route.request().url());
    return await route.abort();
  });
  return { page, consoleErrors, offOrigin };
}

/** Opens a console session in a fresh page with a one-time link (minted with `key`, default the bootstrap key). */
export async function signIn(browser: Browser, svc: TestService, key?: string): Promise<Watched> {
  const w = await openPage(browser, svc);
  const { url } = await mintLink(svc, key);
  await w.page.goto(url);
  // The link asks first (login CSRF): its owner confirms with the button.
  await Promise.all([w.page.waitForURL(`${svc.baseUrl}/console/`), w.page.getByRole('button', { name: /^Sign in to / }).click()]);
  return w;
}

/** axe-core run in the page (evaluated over the DevTools protocol: the page's CSP stays as it is). */
export async function seriousAxeIssues(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'], iframes: false });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}

/** A live section's stream is open (console.js marks it). */
export const waitListening = (page: Page) => page.waitForSelector('#live[data-listening="true"]', { timeout: 10_000 });
