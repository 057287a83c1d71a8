// Each `brands register` run keeps its own answers: a person's run at a real terminal (tmux) saves
// what was typed to the wizard's answers file; a later scripted run given its own --answers file
// leaves that file as it was, and its closing command names the user's file, not the wizard's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
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
  tmp = mkdtempSync(join(tmpdir(), 'svc-register-answers-'));
  env = { ...shellEnvFor(svc, tmp, BIN_PATH), PS1: 'READY$ ' };
});

afterAll(async () => {
  for (const t of open) t.close();
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const lastLines = (s: string, n = 3) => s.split('\n').slice(-n);

async function answer(t: Terminal, question: string, text: string): Promise<void> {
  // The active prompt starts with `?`; a choice lists its options below it.
  await t.until((s) => lastLines(s, 12).some((l) => l.includes(`? ${question}`)), 15_000, `the question "${question}"`);
  if (text) t.type(text);
  t.press('Enter');
}

/** Single-quoted for bash. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

// The campaign as flags, so the person types only the brand.
const CAMPAIGN_FLAGS = [
  '--campaign-name', 'Reminders',
  '--use-case', 'ACCOUNT_NOTIFICATION',
  '--description', 'Acme Dental texts appointment reminders to patients who asked for them.',
  '--opt-in-details', 'Patients opt in on the intake web form by ticking an unchecked box agreeing to receive appointment texts from Acme Dental; message and data rates may apply; reply STOP to opt out.',
  '--sample', 'Acme Dental: your appointment is tomorrow at 3pm. Reply STOP to opt out.',
  '--sample', 'Acme Dental: reply C to confirm your visit. Reply STOP to opt out, HELP for help.',
  '--privacy-policy-link', 'https://acmedental.example/privacy',
  '--terms-link', 'https://acmedental.example/terms',
].map(q).join(' ');

const HARBOR = {
  brand: { legalName: 'Harbor Bikes LLC', displayName: 'Harbor Bikes', entityType: 'PRIVATE_PROFIT', ein: '12-3456780', website: 'https://harborbikes.example', email: 'hi@harborbikes.example' },
  campaign: {
    name: 'Repair updates',
    useCase: 'ACCOUNT_NOTIFICATION',
    description: 'Harbor Bikes texts repair status updates to customers who asked for them at the counter.',
    optInDetails: 'Customers opt in at the counter by ticking an unchecked box on the repair ticket that says they agree to receive repair texts from Harbor Bikes; message and data rates may apply; reply STOP to opt out.',
    sampleMessages: ['Harbor Bikes: your bike is ready for pickup. Reply STOP to opt out.', 'Harbor Bikes: we found a worn chain; reply YES to replace it. Reply STOP to opt out, HELP for help.'],
    privacyPolicyLink: 'https://harborbikes.example/privacy',
    termsAndConditionsLink: 'https://harborbikes.example/terms',
  },
};

describe('brands register: an interactive run, then a scripted one with its own answers file', () => {
  it("leaves the interactive run's saved answers as they were and names the user's file in the closing command", async () => {
    const t = openTerminal(['bash', '--norc', '--noprofile'], { env, cwd: tmp, height: 50 });
    open.push(t);
    await t.until((s) => /READY\$ $/.test(s), 10_000, 'a shell prompt');
    t.type(`svc brands register --mock ${CAMPAIGN_FLAGS}`);
    t.press('Enter');
    await answer(t, 'Legal business name', 'Acme Dental LLC');
    await answer(t, 'Display name', 'Acme Dental');
    await answer(t, 'Entity type', ''); // PRIVATE_PROFIT, the first
    await answer(t, 'EIN', '12-3456789');
    await answer(t, 'Website', 'https://acmedental.example');
    await answer(t, 'Contact email', 'hello@acmedental.example');
    await answer(t, 'Contact phone', '+14155550100');
    await answer(t, 'Industry', 'HEALTHCARE');
    await answer(t, 'Country', 'US');
    await answer(t, 'Street address', '1 Main St');
    await answer(t, 'City', 'Springfield');
    await answer(t, 'State', 'IL');
    await answer(t, 'Postal code', '62701');
    let screen = await t.until((s) => lastLines(s, 6).some((l) => l.includes('? Register the test brand') || l.includes('? Approval is unlikely')), 20_000, 'the confirmation');
    if (lastLines(screen, 6).some((l) => l.includes('? Approval is unlikely'))) {
      t.press('Down');
      t.press('Enter');
      await t.until((s) => lastLines(s, 6).some((l) => l.includes('? Register the test brand')), 10_000, 'the confirmation');
    }
    t.type('y');
    t.press('Enter');
    screen = await t.until((s) => s.includes('the same without questions') && /READY\$ $/.test(s), 20_000, 'the equivalent command');
    const saved = join(tmp, 'config', 'wizards', 'brands-register-new.yaml');
    expect(screen).toContain(`--answers ${saved} `);
    const typed = readFileSync(saved, 'utf8');
    expect(parseYaml(typed).brand).toMatchObject({ legalName: 'Acme Dental LLC', vertical: 'HEALTHCARE', state: 'IL' });

    // A script, with a file of its own: nothing asked, the person's saved answers untouched.
    writeFileSync(join(tmp, 'harbor.yaml'), toYaml(HARBOR));
    t.press('C-l');
    await t.until((s) => /^READY\$ $/.test(s), 5_000, 'a clear screen');
    t.type('svc brands register --mock --answers harbor.yaml --yes --no-input; echo "exit=$?"');
    t.press('Enter');
    screen = await t.until((s) => /exit=\d+/.test(s), 20_000, 'the scripted run to end');
    const lines = screen.split('\n');
    const end = lines.findIndex((l) => /^exit=\d+/.test(l));
    expect(lines[end]).toBe('exit=0');
    expect(readFileSync(saved, 'utf8')).toBe(typed);
    expect(lines[end - 1]).toBe('  svc brands register --mock --answers harbor.yaml --yes');

    const brands = (await svc.call('GET', '/v1/brands', { key: svc.bootstrap.testKey })).body.data as Array<{ legalName: string }>;
    expect(brands.map((b) => b.legalName).sort()).toEqual(['Acme Dental LLC', 'Harbor Bikes LLC']);
  }, 120_000);
});
