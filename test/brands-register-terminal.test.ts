// The `brands register` wizard as a person meets it, at a real terminal (tmux): an empty legal name
// said and asked again, the EIN asked for a private company, Ctrl-C keeping the answers, --resume
// picking them up, the draft offered and accepted, the approval prediction shown, the confirmation,
// the equivalent command printed, and the brand registered at the API.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
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
  tmp = mkdtempSync(join(tmpdir(), 'svc-register-term-'));
  env = { ...shellEnvFor(svc, tmp, BIN_PATH), PS1: 'READY$ ' };
});

afterAll(async () => {
  for (const t of open) t.close();
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const lastLines = (s: string, n = 3) => s.split('\n').slice(-n);

async function answer(t: Terminal, question: string, text: string): Promise<void> {
  // The active prompt starts with `?` (an answered one with ✔); a choice lists its options below it.
  await t.until((s) => lastLines(s, 12).some((l) => l.includes(`? ${question}`)), 15_000, `the question "${question}"`);
  if (text) t.type(text);
  t.press('Enter');
}

describe('brands register at a terminal', () => {
  it('asks, re-asks, resumes after Ctrl-C, drafts, predicts, confirms and prints the command', async () => {
    const t = openTerminal(['bash', '--norc', '--noprofile'], { env, height: 50 });
    open.push(t);
    await t.until((s) => /READY\$ $/.test(s), 10_000, 'a shell prompt');
    t.type('svc brands register --mock');
    t.press('Enter');
    await answer(t, 'Legal business name', '');
    await t.until((s) => lastLines(s, 4).some((l) => l.includes('required')), 10_000, 'an empty legal name refused');
    expect(t.screen()).not.toContain('Display name');
    await answer(t, 'Legal business name', 'Acme Dental LLC');
    await answer(t, 'Display name', 'Acme Dental');
    // A choice: PRIVATE_PROFIT is the first; it needs an EIN (contract §7).
    await answer(t, 'Entity type', '');
    await answer(t, 'EIN', '12-3456789');
    await answer(t, 'Website', 'https://acmedental.example');
    await answer(t, 'Contact email', 'hello@acmedental.example');
    await t.until((s) => lastLines(s).some((l) => l.includes('Contact phone')), 10_000, 'the phone question');
    t.press('C-c');
    await t.until((s) => s.includes('your answers so far are saved') && /READY\$ $/.test(s), 10_000, 'the interruption');
    const progress = join(tmp, 'config', 'wizards', 'brands-register-mock.partial.yaml');
    expect(parseYaml(readFileSync(progress, 'utf8'))).toEqual({
      brand: { legalName: 'Acme Dental LLC', displayName: 'Acme Dental', entityType: 'PRIVATE_PROFIT', ein: '12-3456789', website: 'https://acmedental.example', email: 'hello@acmedental.example' },
    });

    t.press('C-l');
    await t.until((s) => /^READY\$ $/.test(s), 5_000, 'a clear screen');
    t.type('svc brands register --mock --resume');
    t.press('Enter');
    await t.until((s) => s.includes('resuming 6 saved answers'), 10_000, 'the answers resumed');
    for (const q of ['Contact phone', 'Industry', 'Street address', 'City', 'State', 'Postal code', 'Country']) await answer(t, q, '');
    await answer(t, 'The campaign', ''); // the first choice: a draft
    await answer(t, 'What does your business do', 'Dental clinic sending appointment reminders and confirmations to patients');
    await answer(t, 'How do people opt in', '');
    await t.until((s) => s.includes('Draft campaign:') && lastLines(s, 8).some((l) => l.includes('? Use this draft?')), 15_000, 'the draft offered');
    expect(t.screen()).toMatch(/- Acme Dental/);
    t.press('Enter'); // accept
    // Campaign details the draft left out are still offered (Enter skips); then the prediction.
    for (let i = 0; i < 10; i++) {
      const s = await t.until((x) => x.includes('Approval prediction') || lastLines(x).some((l) => l.startsWith('?') && l.includes('(Enter to skip)')), 15_000, 'a question or the prediction');
      if (s.includes('Approval prediction')) break;
      t.press('Enter');
    }
    let screen = await t.until((s) => lastLines(s, 6).some((l) => l.includes('? Register the test brand') || l.includes('? Approval is unlikely')), 15_000, 'the confirmation');
    expect(screen).toMatch(/score \d+\/100, approval (high|medium|low)/);
    if (lastLines(screen, 6).some((l) => l.includes('? Approval is unlikely'))) {
      t.press('Down');
      t.press('Enter');
      screen = await t.until((s) => lastLines(s, 6).some((l) => l.includes('? Register the test brand')), 10_000, 'the confirmation');
    }
    expect(screen).not.toContain('$19.00');
    t.type('y');
    t.press('Enter');
    screen = await t.until((s) => s.includes('the same without questions') && /READY\$ $/.test(s), 20_000, 'the equivalent command');
    const answersFile = join(tmp, 'config', 'wizards', 'brands-register-mock.yaml');
    expect(screen).toContain(`svc brands register --mock --answers ${answersFile}`);
    expect(existsSync(progress)).toBe(false);
    const saved = parseYaml(readFileSync(answersFile, 'utf8'));
    expect(saved.brand).toMatchObject({ legalName: 'Acme Dental LLC', entityType: 'PRIVATE_PROFIT', ein: '12-3456789' });
    expect(saved.campaign.sampleMessages.length).toBeGreaterThanOrEqual(2);

    const brands = (await svc.call('GET', '/v1/brands', { key: svc.bootstrap.testKey })).body.data;
    expect(brands.length).toBe(1);
    expect(brands[0]).toMatchObject({ legalName: 'Acme Dental LLC', mock: true, status: 'approved' });
  });
});
