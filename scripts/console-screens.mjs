// Screenshots of every console page at 1280 and 390 pixels wide, written to docs/console/
// (`npm run console:screens`, after a build). A fresh local service on loopback with a manual clock,
// data made through the API (a number, a conversation, a webhook endpoint whose first delivery
// failed, a verified domain and an email in the mail sandbox), and Debian's chromium driven by
// playwright-core. Nothing leaves the machine.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startService } from '../dist/server/main.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'console');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const WIDTHS = [1280, 390];

if (!existsSync(CHROMIUM)) {
  console.error(`Chromium is not installed at ${CHROMIUM}: run scripts/install-test-tools.sh or set CHROMIUM_PATH.`);
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'svc-console-screens-'));
const svc = await startService({ host: '127.0.0.1', port: 0, dataDir, clock: 'manual' });
const key = svc.bootstrap.liveKey;

async function call(method, path, body) {
  const res = await fetch(`${svc.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
const advance = (seconds) => call('POST', '/v1/sandbox/clock/advance', { seconds });

let browser;
try {
  // A number and a conversation.
  const found = await call('POST', '/v1/numbers/search', { areaCode: '415', limit: 5 });
  const number = await call('POST', '/v1/numbers/buy', { phoneNumber: found.data[0].phoneNumber });
  await call('PATCH', `/v1/numbers/${number.id}`, { label: 'Front desk' });
  // A webhook endpoint nobody answers on (a closed loopback port): its deliveries fail.
  const endpoint = await call('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['message.*'], description: 'Order updates' });
  for (const body of ['Hi, is my order ready?', 'Also: can I pick it up at 5?']) {
    await call('POST', '/v1/sandbox/inbound-messages', { from: '+14155550123', to: number.phoneNumber, body });
  }
  await call('POST', '/v1/sandbox/inbound-messages', { from: '+14155550188', to: number.phoneNumber, body: 'STOP' });
  await svc.deps.webhooks.flush();
  // A verified domain (its records published in the sandbox DNS) and an email in the mail sandbox.
  const domain = await call('POST', '/v1/domains', { domain: 'shop.example' });
  const byName = new Map();
  for (const r of domain.records) byName.set(r.name, [...(byName.get(r.name) ?? []), { type: r.type, value: r.value }]);
  for (const [name, records] of byName) await call('PUT', `/v1/sandbox/dns/${encodeURIComponent(name)}`, { records });
  await call('POST', `/v1/domains/${domain.id}/verify`);
  await call('POST', '/v1/emails', { from: 'Shop <hello@shop.example>', to: ['ada@example.com'], subject: 'Your order is ready', html: '<h1 style="color:#0550ae">Your order is ready</h1><p>Pick it up any time before 6 pm.</p>' });
  await advance(5);
  await call('POST', '/v1/keys', { name: 'ci', mode: 'test' });
  // An IVR on the number, and a call through it.
  await call('PUT', `/v1/numbers/${number.id}/route`, {
    destinations: [{ destinationType: 'pstn', destination: '+14155550199', label: 'Front desk' }],
    ivr: {
      enabled: true,
      greeting: { text: 'Press 1 for sales, 2 for support' },
      keys: [
        { digit: '1', label: 'Sales', action: { type: 'ring', destinations: [{ destinationType: 'pstn', destination: '+14155550198' }] } },
        { digit: '2', label: 'Support', action: { type: 'voicemail' } },
      ],
      fallback: { type: 'voicemail' },
    },
    voicemailEnabled: true,
  });
  const placed = await call('POST', '/v1/sandbox/calls', { from: '+14155550123', to: number.phoneNumber, scenario: { answer: { afterSecs: 2, durationSecs: 20 } } });
  await advance(60);
  // A brand and campaign (mock: approved at once).
  const brand = await call('POST', '/v1/brands', { legalName: 'Bayview Dental LLC', displayName: 'Bayview Dental', entityType: 'PRIVATE_PROFIT', ein: '12-3456789', website: 'https://bayviewdental.example', email: 'office@bayviewdental.example', phone: '+14155550100', street: '1 Bay St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US', mock: true });
  const campaign = await call('POST', '/v1/campaigns', {
    brandId: brand.id,
    name: 'Appointment reminders',
    useCase: 'ACCOUNT_NOTIFICATION',
    description: 'Bayview Dental sends appointment reminders to patients who asked for them on our website booking form.',
    optInDetails: 'Patients opt in on the web form at https://bayviewdental.example/book by checking an unchecked box.',
    sampleMessages: ['Bayview Dental: your cleaning is tomorrow at 10:00. Reply STOP to opt out.', 'Bayview Dental: we moved your appointment to Friday at 2pm. Reply HELP for help, STOP to opt out.'],
  });

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  mkdirSync(OUT, { recursive: true });
  const inbox = (await call('GET', '/v1/sandbox/mailbox')).data;

  const pages = [
    ['overview', '/console/'],
    ['messages', '/console/messages'],
    ['thread', `/console/messages/${encodeURIComponent('+14155550123')}`],
    ['events', '/console/events'],
    ['webhooks', '/console/webhooks'],
    ['deliveries', `/console/webhooks/${endpoint.id}`],
    ['numbers', '/console/numbers'],
    ['number-route', `/console/numbers/${number.id}`],
    ['calls', '/console/calls'],
    ['call', `/console/calls/${placed.id}`],
    ['email', '/console/email'],
    ['registration', '/console/registration'],
    ['campaign', `/console/registration/campaigns/${campaign.id}`],
    ['sandbox', '/console/sandbox'],
    ['mail-sandbox', `/console/email/inbox${inbox.length ? `?show=${inbox[0].id}` : ''}`],
    ['billing', '/console/billing'],
    ['keys', '/console/keys'],
  ];
  for (const width of WIDTHS) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const { url } = await call('POST', '/v1/console/sessions');
    await page.goto(url);
    if (width === WIDTHS[0]) await page.screenshot({ path: join(OUT, `sign-in-${width}.png`), fullPage: true });
    // The link asks first (login CSRF); its owner confirms.
    await Promise.all([page.waitForURL(`${svc.baseUrl}/console/`), page.getByRole('button', { name: /^Sign in to / }).click()]);
    for (const [name, path] of pages) {
      await page.goto(`${svc.baseUrl}${path}`);
      await page.screenshot({ path: join(OUT, `${name}-${width}.png`), fullPage: true });
      console.log(`wrote docs/console/${name}-${width}.png`);
    }
    await context.close();
  }
} finally {
  await browser?.close();
  await svc.close();
  rmSync(dataDir, { recursive: true, force: true });
}
