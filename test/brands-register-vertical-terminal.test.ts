// The brand's industry at a real terminal (tmux): an answer that is not one of the registry's
// verticals (a street address typed one question early) is refused at the prompt, naming the closest
// vertical, and asked again; "retail" is then taken and the brand registered as RETAIL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { assertBuilt, BIN_PATH } from './helpers/cli.js';
import { openTerminal, shellEnvFor, type Terminal } from './helpers/terminal.js';

let svc: TestService;
let tmp: string;
let env: Record<string, string>;
const open: Terminal[] = [];

beforeAll(async () => {
  assertBuilt();
  svc = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-register-vertical-'));
  env = { ...shellEnvFor(svc, tmp, BIN_PATH), PS1: 'READY$ ' };
});

afterAll(async () => {
  for (const t of open) t.close();
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const lastLines = (s: string, n = 3) => s.split('\n').slice(-n);
const activePrompt = (s: string, question: string) => lastLines(s, 12).some((l) => l.includes(`? ${question}`));

async function answer(t: Terminal, question: string, text: string): Promise<void> {
  // The active prompt starts with `?` (an answered one with ✔); a choice lists its options below it.
  await t.until((s) => activePrompt(s, question), 15_000, `the question "${question}"`);
  if (text) t.type(text);
  t.press('Enter');
}

/** Single-quoted for bash. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

// The campaign as flags, so the person types only the brand.
const CAMPAIGN_FLAGS = [
  '--campaign-name', 'Order updates',
  '--use-case', 'ACCOUNT_NOTIFICATION',
  '--description', 'Corner Shop texts order status updates to customers who asked for them at checkout.',
  '--opt-in-details', 'Customers opt in at checkout on the web by ticking an unchecked box agreeing to receive order texts from Corner Shop; message and data rates may apply; reply STOP to opt out.',
  '--sample', 'Corner Shop: your order has shipped. Reply STOP to opt out.',
  '--sample', 'Corner Shop: your order is ready for pickup. Reply STOP to opt out, HELP for help.',
  '--privacy-policy-link', 'https://cornershop.example/privacy',
  '--terms-link', 'https://cornershop.example/terms',
].map(q).join(' ');

const REFUSAL = /must be one of the registry's verticals; did you mean ([A-Z_]+)\?/;

describe('brands register at a terminal: the industry', () => {
  it('refuses a street address at the prompt naming the closest vertical, asks again, and registers "retail" as RETAIL', async () => {
    const t = openTerminal(['bash', '--norc', '--noprofile'], { env, height: 50 });
    open.push(t);
    await t.until((s) => /READY\$ $/.test(s), 10_000, 'a shell prompt');
    t.type(`svc brands register --mock ${CAMPAIGN_FLAGS}`);
    t.press('Enter');
    await answer(t, 'Legal business name', 'Corner Shop LLC');
    await answer(t, 'Display name', 'Corner Shop');
    await answer(t, 'Entity type', ''); // PRIVATE_PROFIT, the first
    await answer(t, 'EIN', '12-3456789');
    await answer(t, 'Website', 'https://cornershop.example');
    await answer(t, 'Contact email', 'hello@cornershop.example');
    await answer(t, 'Contact phone', '+14155550100');

    const address = '123 Main St';
    await answer(t, 'Industry', address);
    const screen = await t.until((s) => lastLines(s, 6).some((l) => REFUSAL.test(l)), 10_000, 'the address refused at the industry question');
    const line = lastLines(screen, 6).find((l) => REFUSAL.test(l))!;
    // The nearest by edit distance (REAL_ESTATE, RETAIL and the rest are further from "123_MAIN_ST").
    expect(REFUSAL.exec(line)![1]).toBe('ENTERTAINMENT');
    // The question stays, with the answer to correct; the next one is not asked.
    expect(activePrompt(screen, 'Industry')).toBe(true);
    expect(screen).not.toContain('? Country');
    for (let i = 0; i < address.length; i++) t.press('BSpace');
    t.type('retail');
    t.press('Enter');

    await answer(t, 'Country', 'US');
    await answer(t, 'Street address', '123 Main St');
    await answer(t, 'City', 'Springfield');
    await answer(t, 'State', 'IL');
    await answer(t, 'Postal code', '62701');
    let end = await t.until((s) => lastLines(s, 6).some((l) => l.includes('? Register the test brand') || l.includes('? Approval is unlikely')), 20_000, 'the confirmation');
    if (lastLines(end, 6).some((l) => l.includes('? Approval is unlikely'))) {
      t.press('Down');
      t.press('Enter');
      end = await t.until((s) => lastLines(s, 6).some((l) => l.includes('? Register the test brand')), 10_000, 'the confirmation');
    }
    t.type('y');
    t.press('Enter');
    await t.until((s) => s.includes('the same without questions') && /READY\$ $/.test(s), 20_000, 'the registration to end');

    const brands = (await svc.call('GET', '/v1/brands', { key: svc.bootstrap.testKey })).body.data as Array<{ legalName: string; vertical: string | null; street: string | null }>;
    expect(brands).toHaveLength(1);
    expect(brands[0]).toMatchObject({ legalName: 'Corner Shop LLC', vertical: 'RETAIL', street: '123 Main St' });
  }, 120_000);
});
