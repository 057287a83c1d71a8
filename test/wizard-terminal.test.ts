// The verify-tollfree wizard as a person meets it, at a real terminal (tmux): one question at a
// time, a bad website said and asked again, Ctrl-C keeping the answers, --resume finishing the
// run, the equivalent command printed, and the number pending at the API.
import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
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
let tollfree: string;
const open: Terminal[] = [];

beforeAll(async () => {
  assertBuilt();
  svc = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-wizard-term-'));
  env = { ...shellEnvFor(svc, tmp, BIN_PATH), PS1: 'READY$ ' };
  const found = await svc.call('POST', '/v1/numbers/search', { body: { type: 'tollfree', limit: 1 }, key: svc.bootstrap.testKey });
  expect(found.status).toBe(200);
  const bought = await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: found.body.data[0].phoneNumber }, key: svc.bootstrap.testKey });
  expect(bought.status).toBe(201);
  tollfree = bought.body.phoneNumber;
});

afterAll(async () => {
  for (const t of open) t.close();
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const status = async () => (await svc.call('GET', `/v1/numbers/${encodeURIComponent(tollfree)}`, { key: svc.bootstrap.testKey })).body.tfvStatus;

/** Waits for `question` on the last lines, types the answer and presses Enter. */
async function answer(t: Terminal, question: string, text: string): Promise<void> {
  await t.until((s) => s.split('\n').slice(-3).some((l) => l.includes(question)), 15_000, `the question "${question}"`);
  t.type(text);
  t.press('Enter');
}

describe('numbers verify-tollfree at a terminal', () => {
  it('re-asks a bad answer, keeps the answers over Ctrl-C, resumes with --resume and prints the equivalent command', async () => {
    const t = openTerminal(['bash', '--norc', '--noprofile'], { env });
    open.push(t);
    await t.until((s) => /READY\$ $/.test(s), 10_000, 'a shell prompt');

    t.type(`svc numbers verify-tollfree ${tollfree}`);
    t.press('Enter');
    await answer(t, 'Business name', 'Acme Dental');
    await answer(t, 'Business website', 'acme dot com');
    // Checked as given with the API's schema: the reason, and the same question again.
    await t.until((s) => s.includes('must be an http(s) URL'), 10_000, 'the website rejected');
    expect(t.screen()).not.toContain('Use case');
    t.press('C-u'); // inquirer leaves the rejected text to edit
    await answer(t, 'Business website', 'https://acme.example');
    await answer(t, 'Use case (e.g.', 'appointment reminders');
    await t.until((s) => s.includes('Use case summary'), 10_000, 'the fourth question');
    t.press('C-c');
    await t.until((s) => s.includes('your answers so far are saved') && /READY\$ $/.test(s), 10_000, 'the interruption');
    t.type('echo "exit=$?"');
    t.press('Enter');
    await t.until((s) => s.includes('exit=130'), 5_000, 'exit 130');

    const progress = join(tmp, 'config', 'wizards', `verify-tollfree-${tollfree}.partial.yaml`);
    expect(statSync(progress).mode & 0o777).toBe(0o600);
    expect(parseYaml(readFileSync(progress, 'utf8'))).toEqual({ businessName: 'Acme Dental', website: 'https://acme.example', useCase: 'appointment reminders' });
    expect(await status()).toBe('unverified');

    t.press('C-l');
    await t.until((s) => /^READY\$ $/.test(s), 5_000, 'a clear screen');
    t.type(`svc numbers verify-tollfree ${tollfree} --resume`);
    t.press('Enter');
    await t.until((s) => s.includes('resuming 3 saved answers'), 10_000, 'the answers resumed');
    // Only the rest is asked.
    await answer(t, 'Use case summary', 'Reminders the day before each visit');
    await answer(t, 'Sample message', `Acme: see you at 3pm, it's "booked". Reply STOP to opt out.`);
    await answer(t, 'How recipients opt in', 'Patients tick a box on the intake form');
    await answer(t, 'Messages per month', '2,000');
    const screen = await t.until((s) => s.includes('the same without questions') && /READY\$ $/.test(s), 20_000, 'the equivalent command');
    expect(screen).not.toContain('Business name');

    const answersFile = join(tmp, 'config', 'wizards', `verify-tollfree-${tollfree}.yaml`);
    expect(screen).toContain(`svc numbers verify-tollfree ${tollfree} --answers ${answersFile}`);
    expect(screen).toContain('pending');
    expect(await status()).toBe('pending');
    expect(existsSync(progress)).toBe(false);
    expect(parseYaml(readFileSync(answersFile, 'utf8'))).toMatchObject({ businessName: 'Acme Dental', sampleMessage: `Acme: see you at 3pm, it's "booked". Reply STOP to opt out.`, monthlyVolume: '2,000' });
  });
});
