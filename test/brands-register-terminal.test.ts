// The `brands register` wizard as a person meets it, at a real terminal (tmux): an empty legal name
// said and asked again, the EIN asked for a private company, malformed answers refused as typed,
// Ctrl-C keeping the answers, a later run with --mock offering them back, the draft offered and
// accepted, the approval prediction shown in columns, the confirmation, the equivalent command
// printed (and run: it asks nothing), and the brand registered at the API.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Types an answer the wizard must refuse as typed: the reason shows under the prompt, which stays. */
async function refused(t: Terminal, question: string, text: string, reason: RegExp): Promise<void> {
  await answer(t, question, text);
  await t.until((s) => lastLines(s, 4).some((l) => reason.test(l)), 10_000, `"${text}" refused at "${question}"`);
  for (let i = 0; i < text.length; i++) t.press('BSpace');
}

/** The prediction's check lines as shown (indented in the notice): `pass  <id>  <label>`. */
const checkLines = (screen: string) => screen.split('\n').filter((l) => /^\s*(pass|fail) {2}\S/.test(l));

describe('brands register at a terminal', () => {
  it('refuses malformed answers as typed, resumes after Ctrl-C under --mock, drafts, predicts in columns, confirms and prints a command that asks nothing', async () => {
    const t = openTerminal(['bash', '--norc', '--noprofile'], { env, height: 50 });
    open.push(t);
    await t.until((s) => /READY\$ $/.test(s), 10_000, 'a shell prompt');
    // Started without --mock: the answers are kept for the registration, whichever way it ends.
    t.type('svc brands register');
    t.press('Enter');
    await answer(t, 'Legal business name', '');
    await t.until((s) => lastLines(s, 4).some((l) => l.includes('required')), 10_000, 'an empty legal name refused');
    expect(t.screen()).not.toContain('Display name');
    await answer(t, 'Legal business name', 'Acme Dental LLC');
    await answer(t, 'Display name', 'Acme Dental');
    // A choice: PRIVATE_PROFIT is the first; it needs an EIN (contract §7).
    await answer(t, 'Entity type', '');
    // The API's formats refuse each malformed answer as it is typed (contract §7).
    await refused(t, 'EIN', '12345', /US EIN/);
    await answer(t, 'EIN', '12-3456789');
    await refused(t, 'Website', 'not a url', /http\(s\) URL/);
    await answer(t, 'Website', 'https://acmedental.example');
    await refused(t, 'Contact email', 'notanemail', /mailbox address/);
    await answer(t, 'Contact email', 'hello@acmedental.example');
    await refused(t, 'Contact phone', '555', /E\.164/);
    t.press('C-c');
    await t.until((s) => s.includes('your answers so far are saved') && /READY\$ $/.test(s), 10_000, 'the interruption');
    const progress = join(tmp, 'config', 'wizards', 'brands-register-new.partial.yaml');
    expect(parseYaml(readFileSync(progress, 'utf8'))).toEqual({
      brand: { legalName: 'Acme Dental LLC', displayName: 'Acme Dental', entityType: 'PRIVATE_PROFIT', ein: '12-3456789', website: 'https://acmedental.example', email: 'hello@acmedental.example' },
    });

    t.press('C-l');
    await t.until((s) => /^READY\$ $/.test(s), 5_000, 'a clear screen');
    // With --mock the same saved answers are offered, in words (13 brand + 7 campaign questions asked).
    t.type('svc brands register --mock');
    t.press('Enter');
    await t.until((s) => /\? Resume the registration you started (on \d{4}-\d\d-\d\d )?at \d\d:\d\d \(6 of 20 answered\)\?/.test(s), 10_000, 'the resume offer');
    t.press('Enter'); // yes, the default
    for (const q of ['Contact phone', 'Industry']) await answer(t, q, '');
    // The country is asked before the state and postal code, which are checked against it.
    await answer(t, 'Country', 'US');
    for (const q of ['Street address', 'City']) await answer(t, q, '');
    await refused(t, 'State', 'California', /two-letter code.*when country is US/);
    await answer(t, 'State', 'CA');
    await answer(t, 'Postal code', '');
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
    // The prediction's columns line up — every label starts in the same column.
    const checks = checkLines(screen);
    expect(checks.length).toBeGreaterThan(10);
    expect(new Set(checks.map((l) => /^\s*(?:pass|fail) {2}\S+ +/.exec(l)![0].length)).size).toBe(1);
    if (lastLines(screen, 6).some((l) => l.includes('? Approval is unlikely'))) {
      t.press('Down');
      t.press('Enter');
      screen = await t.until((s) => lastLines(s, 6).some((l) => l.includes('? Register the test brand')), 10_000, 'the confirmation');
    }
    expect(screen).not.toContain('$19.00');
    t.type('y');
    t.press('Enter');
    screen = await t.until((s) => s.includes('the same without questions') && /READY\$ $/.test(s), 20_000, 'the equivalent command');
    const answersFile = join(tmp, 'config', 'wizards', 'brands-register-new.yaml');
    const command = `svc brands register --mock --answers ${answersFile} --yes`;
    expect(screen).toContain(command);
    expect(existsSync(progress)).toBe(false);
    const saved = parseYaml(readFileSync(answersFile, 'utf8'));
    expect(saved.brand).toMatchObject({ legalName: 'Acme Dental LLC', entityType: 'PRIVATE_PROFIT', ein: '12-3456789', country: 'US', state: 'CA' });
    expect(saved.campaign.sampleMessages.length).toBeGreaterThanOrEqual(2);

    const brands = async () => (await svc.call('GET', '/v1/brands', { key: svc.bootstrap.testKey })).body.data;
    expect(await brands()).toHaveLength(1);
    expect((await brands())[0]).toMatchObject({ legalName: 'Acme Dental LLC', mock: true, status: 'approved' });

    // The printed command, typed at the same terminal, registers again without a question.
    t.press('C-l');
    await t.until((s) => /^READY\$ $/.test(s), 5_000, 'a clear screen');
    t.type(command);
    t.press('Enter');
    screen = await t.until((s) => s.includes('the same without questions') && /READY\$ $/.test(s), 20_000, 'the command run to its end');
    expect(screen.split('\n').some((l) => l.startsWith('? '))).toBe(false);
    expect(await brands()).toHaveLength(2);
    // A whole registration typed by a person, twice over: far beyond the default per-test bound.
  }, 120_000);
});

// The price is checked before it is asked about: a wallet that cannot pay the whole registration
// (brand + campaign, one request) is said at once, in commands, and nothing is asked or charged.
describe('brands register at a terminal, the wallet short of the price', () => {
  it('says what to top up with `svc billing top-up`, never asks to register, and charges nothing', async () => {
    const answers = join(tmp, 'harbor.yaml');
    writeFileSync(answers, toYaml({
      brand: { legalName: 'Harbor Bikes LLC', displayName: 'Harbor Bikes', entityType: 'PRIVATE_PROFIT', ein: '12-3456780', website: 'https://harborbikes.example', email: 'hi@harborbikes.example' },
      campaign: {
        name: 'Repair updates',
        useCase: 'ACCOUNT_NOTIFICATION',
        description: 'Harbor Bikes texts repair status updates to customers who asked for them at the counter.',
        optInDetails: 'Customers opt in at the counter by ticking an unchecked box on the repair ticket that says they agree to receive repair texts from Harbor Bikes; message and data rates may apply; reply STOP to opt out.',
        sampleMessages: ['Harbor Bikes: your bike is ready for pickup. Reply STOP to opt out.', 'Harbor Bikes: we found a worn chain; reply YES to replace it. Reply STOP to opt out, HELP for help.'],
        privacyPolicyLink: 'https://harborbikes.example/privacy',
        termsAndConditionsLink: 'https://harborbikes.example/terms',
        optoutKeywords: 'STOP',
        optoutMessage: 'Harbor Bikes: you are unsubscribed. No more messages will be sent.',
        helpKeywords: 'HELP',
        helpMessage: 'Harbor Bikes: call 415-555-0100 for help. Reply STOP to opt out.',
        embeddedLink: false,
        embeddedPhone: false,
      },
    }));
    const set = await svc.call('PUT', '/v1/sandbox/wallet', { body: { balanceCents: 1651 } });
    expect(set.status, set.text).toBe(200);
    const before = (await svc.call('GET', '/v1/billing')).body;
    expect(before.wallet).toMatchObject({ balanceCents: 1651, hasCard: false });

    const t = openTerminal(['bash', '--norc', '--noprofile'], { env: { ...env, SVC_API_KEY: svc.bootstrap.liveKey }, height: 50 });
    open.push(t);
    await t.until((s) => /READY\$ $/.test(s), 10_000, 'a shell prompt');
    t.type(`svc brands register --answers ${answers}; echo "exit=$?"`);
    t.press('Enter');
    // The brand details the file left out are offered (Enter skips), then the prediction.
    for (let i = 0; i < 30; i++) {
      const s = await t.until((x) => x.includes('Approval prediction') || /exit=\d/.test(x) || lastLines(x).some((l) => l.startsWith('?') && l.includes('(Enter to skip)')), 15_000, 'a question or the prediction');
      if (s.includes('Approval prediction') || /exit=\d/.test(s)) break;
      t.press('Enter');
    }
    const screen = await t.until((s) => /exit=\d/.test(s) || lastLines(s, 6).some((l) => l.includes('? Register') || l.includes('? Approval is unlikely')), 20_000, 'the end of the command');
    expect(screen).not.toContain('? Register');
    expect(screen).toContain('exit=7');
    expect(screen).toContain('the wallet holds $16.51 (auto-recharge is off): add at least $2.49 with `svc billing top-up 2.49`');
    expect(screen).toContain('registering Harbor Bikes LLC (brand $4.00 + campaign $15.00) costs $19.00');
    expect(screen).not.toContain('/v1/');
    expect((await svc.call('GET', '/v1/billing')).body.wallet.balanceCents).toBe(1651);
    expect((await svc.call('GET', '/v1/brands')).body.data.filter((b: { legalName: string }) => b.legalName === 'Harbor Bikes LLC')).toEqual([]);
  }, 120_000);
});
