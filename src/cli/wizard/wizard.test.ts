// The wizard machinery with scripted prompts (conventions 4): answers checked as given and re-asked,
// kept across an interruption and resumed, all missing answers in one error without a terminal,
// flags over the answers file, the whole body checked, and the equivalent command.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CliContext } from '../context.js';
import { createTestIO } from '../../output/io.js';
import { CancelledError, UsageError } from '../errors.js';
import type { Prompter } from '../prompter.js';
import { Wizard, type Question, type WizardOptions } from './wizard.js';
import { readAnswersFile } from './answers-files.js';
import { shellLine, shellQuote } from './shell-quote.js';
import { TOLLFREE_QUESTIONS } from '../commands/numbers/verify-tollfree.run.js';
import { VerifyTollfreeBody } from '../../api/schemas/numbers.js';
import { BRAND_QUESTIONS, REGISTER_QUESTIONS } from '../commands/brands/questions.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-wizard-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Step = string | Error;

/**
 * A prompter that answers from a script the way inquirer does: each typed answer goes through
 * `validate`, and a rejected one is followed by the next answer to the same question.
 */
function scripted(script: Step[], confirms: boolean[] = []) {
  const asked: string[] = [];
  const rejected: Array<{ flag: string; answer: string; reason: string }> = [];
  const confirmed: string[] = [];
  const next = (): string => {
    const step = script.shift();
    if (step === undefined) throw new Error('the script ran out of answers');
    if (step instanceof Error) throw step;
    return step;
  };
  const prompter: Prompter = {
    enabled: true,
    async input(_message, opts) {
      asked.push(opts.flag);
      for (;;) {
        const answer = next();
        const ok = opts.validate ? opts.validate(answer) : true;
        if (ok === true) return answer;
        rejected.push({ flag: opts.flag, answer, reason: ok });
      }
    },
    async password() {
      throw new Error('unexpected password prompt');
    },
    async confirm(message) {
      confirmed.push(message);
      const answer = confirms.shift();
      if (answer === undefined) throw new Error(`unexpected confirm: ${message}`);
      return answer;
    },
    async select(_message, choices, opts) {
      asked.push(opts.flag);
      const answer = next();
      if (!choices.some((c) => c.value === answer)) throw new Error(`${answer} is not offered`);
      return answer as never;
    },
  };
  return { prompter, asked, rejected, confirmed, left: script };
}

const refusing: Prompter = {
  enabled: false,
  input: async () => {
    throw new Error('prompted without a terminal');
  },
  password: async () => {
    throw new Error('prompted without a terminal');
  },
  confirm: async () => {
    throw new Error('prompted without a terminal');
  },
  select: async () => {
    throw new Error('prompted without a terminal');
  },
};

function context(prompter: Prompter, flags: CliContext['flags'] = {}, now?: () => Date) {
  const io = createTestIO({ stdinTTY: prompter.enabled, stderrTTY: prompter.enabled });
  const ctx = new CliContext({ io, env: { SVC_CONFIG_DIR: join(dir, 'config') }, homedir: dir, binPath: '', prompter, ...(now ? { now } : {}) }, flags);
  return { ctx, io };
}

const NUMBER = '+18885550123';
const options = (over: Partial<WizardOptions> = {}): WizardOptions => ({
  name: 'verify-tollfree',
  subject: NUMBER,
  title: `the toll-free verification of ${NUMBER}`,
  command: ['numbers', 'verify-tollfree', NUMBER],
  questions: TOLLFREE_QUESTIONS,
  flags: {},
  ...over,
});
const progressFile = () => join(dir, 'config', 'wizards', `verify-tollfree-${NUMBER}.partial.yaml`);

const GOOD = {
  businessName: 'Acme Dental',
  website: 'https://acme.example',
  useCase: 'appointment reminders',
  useCaseSummary: 'Reminders the day before each visit',
  sampleMessage: "Acme: see you at 3pm. Reply STOP to opt out. It's free",
  optInWorkflow: 'Patients tick a box on the intake form',
  monthlyVolume: '2,000',
};
const inOrder = (answers: Record<string, string>) => TOLLFREE_QUESTIONS.map((q) => answers[q.field]!);

describe('wizard on a terminal', () => {
  it('checks each answer with the API schema as it is given and asks the same question again', async () => {
    const s = scripted([GOOD.businessName, 'acme dot com', 'ftp://acme.example', GOOD.website, ...inOrder(GOOD).slice(2, 6), 'lots', '0', GOOD.monthlyVolume]);
    const { ctx } = context(s.prompter);
    const wizard = await Wizard.start(ctx, options());
    const body = wizard.check(VerifyTollfreeBody, await wizard.ask());
    expect(s.rejected).toEqual([
      { flag: '--website', answer: 'acme dot com', reason: 'must be an http(s) URL' },
      { flag: '--website', answer: 'ftp://acme.example', reason: 'must be an http(s) URL' },
      { flag: '--monthly-volume', answer: 'lots', reason: 'must be a number' },
      { flag: '--monthly-volume', answer: '0', reason: 'must be at least 1' },
    ]);
    // One question at a time, each once: the rejected ones were asked again, not from the start.
    expect(s.asked).toEqual(TOLLFREE_QUESTIONS.map((q) => q.flag));
    expect(body).toEqual({ ...GOOD, monthlyVolume: 2000 });
    expect(s.left).toEqual([]);
  });

  it('a required answer left empty is re-asked; an optional one may be skipped', async () => {
    const s = scripted(['   ', GOOD.businessName, '', ...inOrder(GOOD).slice(2)]);
    const { ctx } = context(s.prompter);
    const wizard = await Wizard.start(ctx, options());
    const body = wizard.check(VerifyTollfreeBody, await wizard.ask());
    expect(s.rejected).toEqual([{ flag: '--business-name', answer: '   ', reason: 'required' }]);
    expect(body.website).toBeUndefined();
  });

  it('keeps the answers after Ctrl-C (0600) and resumes them: offered with yes by default, then only the rest is asked', async () => {
    const first = scripted([GOOD.businessName, GOOD.website, GOOD.useCase, new CancelledError()]);
    const run1 = context(first.prompter);
    const w1 = await Wizard.start(run1.ctx, options({ flags: { useCaseSummary: 'from a flag' } }));
    await expect(w1.ask()).rejects.toBeInstanceOf(CancelledError);
    expect(run1.io.err()).toContain(progressFile());
    expect(statSync(progressFile()).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'config', 'wizards')).mode & 0o777).toBe(0o700);
    const saved = await readAnswersFile(progressFile(), TOLLFREE_QUESTIONS, 'saved');
    expect(Object.fromEntries(saved)).toEqual({ businessName: GOOD.businessName, website: GOOD.website, useCase: GOOD.useCase, useCaseSummary: 'from a flag' });

    const second = scripted(inOrder(GOOD).slice(4), [true]);
    const run2 = context(second.prompter);
    const w2 = await Wizard.start(run2.ctx, options());
    expect(second.confirmed).toHaveLength(1);
    expect(second.confirmed[0]).toContain('Resume');
    const body = w2.check(VerifyTollfreeBody, await w2.ask());
    expect(second.asked).toEqual(['--sample-message', '--opt-in-workflow', '--monthly-volume']);
    expect(body.useCaseSummary).toBe('from a flag');
    await w2.finish();
    expect(existsSync(progressFile())).toBe(false);
  });

  it('--resume takes the saved answers without asking; "no" to the offer starts afresh and drops them', async () => {
    const first = scripted([GOOD.businessName, new CancelledError()]);
    await expect((await Wizard.start(context(first.prompter).ctx, options())).ask()).rejects.toBeInstanceOf(CancelledError);

    const resumed = scripted(inOrder(GOOD).slice(1));
    const run = context(resumed.prompter);
    const w = await Wizard.start(run.ctx, options({ resume: true }));
    expect(resumed.confirmed).toEqual([]);
    expect((await w.ask()).businessName).toBe(GOOD.businessName);
    expect(resumed.asked[0]).toBe('--website');
    expect(run.io.err()).toContain('resuming 1 saved answer');

    const fresh = scripted(inOrder(GOOD), [false]);
    const w2 = await Wizard.start(context(fresh.prompter).ctx, options());
    expect(fresh.confirmed).toHaveLength(1);
    expect(existsSync(progressFile())).toBe(false);
    await w2.ask();
    expect(fresh.asked[0]).toBe('--business-name');
    expect(existsSync(progressFile())).toBe(true); // written again as the fresh run goes
  });

  it('offers to resume in words: what, when it started, how far it went', async () => {
    const morning = new Date(2026, 10, 27, 8, 32, 7);
    let now = morning;
    const first = scripted([GOOD.businessName, GOOD.website, new CancelledError()]);
    await expect((await Wizard.start(context(first.prompter, {}, () => now).ctx, options({ flags: { useCase: GOOD.useCase } }))).ask()).rejects.toBeInstanceOf(CancelledError);
    now = new Date(2026, 10, 27, 9, 15, 0);
    const later = scripted([], [true]);
    await Wizard.start(context(later.prompter, {}, () => now).ctx, options());
    expect(later.confirmed).toEqual([`Resume the toll-free verification of ${NUMBER} you started at 08:32 (3 of 7 answered)?`]);
    now = new Date(2026, 10, 28, 10, 0, 0);
    const nextDay = scripted([], [true]);
    await Wizard.start(context(nextDay.prompter, {}, () => now).ctx, options());
    expect(nextDay.confirmed).toEqual([`Resume the toll-free verification of ${NUMBER} you started on 2026-11-27 at 08:32 (3 of 7 answered)?`]);
  });

  it('--resume with nothing saved is a usage error naming --resume', async () => {
    await expect(Wizard.start(context(scripted([]).prompter).ctx, options({ resume: true }))).rejects.toThrow(/--resume: no answers saved/);
  });

  it('an invalid answer from a flag or the file is said and asked again, not fatal', async () => {
    const s = scripted([GOOD.website]);
    const run = context(s.prompter);
    const w = await Wizard.start(run.ctx, options({ flags: { ...GOOD, website: 'acme.example' } }));
    expect((await w.ask()).website).toBe(GOOD.website);
    expect(s.asked).toEqual(['--website']);
    expect(run.io.err()).toContain('--website: "acme.example" must be an http(s) URL');
  });
});

describe('wizard without a terminal', () => {
  it('never prompts and lists every missing or invalid answer in one usage error, each with its flag', async () => {
    const { ctx } = context(refusing);
    const w = await Wizard.start(ctx, options({ flags: { businessName: 'Acme', website: 'acme.example', monthlyVolume: 'lots' } }));
    const err = (await w.ask().catch((e: unknown) => e)) as UsageError;
    expect(err).toBeInstanceOf(UsageError);
    expect(err.flag).toBe('--website');
    const lines = err.message.split('\n');
    expect(lines[0]).toBe('6 answers are missing or invalid (give them as flags or in --answers FILE; prompting is off: no terminal, --no-input or CI):');
    expect(lines.slice(1)).toEqual([
      '  --website: "acme.example" must be an http(s) URL',
      '  --use-case: required (Use case (e.g. appointment reminders))',
      '  --use-case-summary: required (Use case summary)',
      '  --sample-message: required (Sample message (include opt-out words, e.g. "Reply STOP to opt out"))',
      '  --opt-in-workflow: required (How recipients opt in)',
      '  --monthly-volume: "lots" must be a number',
    ]);
  });

  it('names saved answers it did not use, with --resume', async () => {
    await expect((await Wizard.start(context(scripted([GOOD.businessName, new CancelledError()]).prompter).ctx, options())).ask()).rejects.toBeInstanceOf(CancelledError);
    const w = await Wizard.start(context(refusing).ctx, options());
    await expect(w.ask()).rejects.toThrow(/add --resume to use them/);
    const resumed = await Wizard.start(context(refusing).ctx, options({ resume: true, flags: { ...GOOD, businessName: undefined } }));
    expect((await resumed.ask()).businessName).toBe(GOOD.businessName);
  });
});

describe('answers from flags and a file', () => {
  it('merges the file (API or flag names) with flags, flags winning, and asks only for the rest', async () => {
    const file = join(dir, 'answers.yaml');
    writeFileSync(file, ['businessName: From File', 'use-case: reminders', 'monthlyVolume: 300', 'sample-message: "Hi. Reply STOP"', ''].join('\n'));
    const s = scripted(['Checkbox', 'Summary']);
    const { ctx } = context(s.prompter);
    const w = await Wizard.start(ctx, options({ answersFile: { path: file, flag: '--answers' }, flags: { businessName: 'From Flag', website: '' } }));
    const body = w.check(VerifyTollfreeBody, await w.ask());
    expect(s.asked).toEqual(['--use-case-summary', '--opt-in-workflow']);
    expect(body).toEqual({ businessName: 'From Flag', useCase: 'reminders', useCaseSummary: 'Checkbox', sampleMessage: 'Hi. Reply STOP', optInWorkflow: 'Summary', monthlyVolume: 300 });
  });

  it('an unknown key in the file is a usage error naming the flag the file came from', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'businessName: Acme\nfavouriteColour: blue\n');
    await expect(Wizard.start(context(refusing).ctx, options({ answersFile: { path: file, flag: '--from-file' } }))).rejects.toThrow(/--from-file: unknown field "favouriteColour"/);
  });

  it('sections: nested answers (brand: {…}) by API path, choices from the enum, asked section by section', async () => {
    const Body = z.strictObject({
      brand: z.strictObject({ legalName: z.string().trim().min(1), entityType: z.enum(['private_profit', 'non_profit']) }),
      campaign: z.strictObject({ useCase: z.string().min(1), sampleCount: z.number().int().min(1) }).refine((c) => c.sampleCount < 5 || c.useCase !== 'x', { message: 'useCase x takes fewer samples', path: ['sampleCount'] }),
    });
    const questions: Question[] = [
      { field: 'brand.legalName', flag: '--legal-name', message: 'Legal name', kind: 'text', schema: Body.shape.brand.shape.legalName },
      { field: 'brand.entityType', flag: '--entity-type', message: 'Entity type', kind: 'choice', schema: Body.shape.brand.shape.entityType },
      { field: 'campaign.useCase', flag: '--use-case', message: 'Use case', kind: 'text', schema: z.string().min(1) },
      { field: 'campaign.sampleCount', flag: '--sample-count', message: 'Samples', kind: 'number', schema: z.number().int().min(1) },
    ];
    const file = join(dir, 'reg.yaml');
    writeFileSync(file, 'brand:\n  legalName: Acme LLC\ncampaign:\n  useCase: x\n');
    const s = scripted(['non_profit', '7']);
    const { ctx } = context(s.prompter);
    const w = await Wizard.start(ctx, { name: 'brands-register', subject: 'new', title: 'the registration', command: ['brands', 'register'], questions, flags: {}, answersFile: { path: file, flag: '--answers' } });
    await w.ask(questions.slice(0, 2));
    expect(s.asked).toEqual(['--entity-type']);
    const all = await w.ask(questions.slice(2));
    expect(all).toEqual({ brand: { legalName: 'Acme LLC', entityType: 'non_profit' }, campaign: { useCase: 'x', sampleCount: 7 } });
    // A rule across fields, from the API's schema, said with the flags.
    expect(() => w.check(Body, all)).toThrow('--sample-count: --use-case x takes fewer samples');
  });
});

describe('the brands register questions (contract §7 formats)', () => {
  it('refuses each malformed brand answer as it is typed, and the state and postal code against the country asked before them', async () => {
    const script = [
      'Acme Dental LLC', '', 'PRIVATE_PROFIT',
      '12345', '12-3456789',
      'not a url', 'https://acmedental.example',
      'notanemail', 'hello@acmedental.example',
      '555', '+14155550100',
      '', // vertical
      'USA', 'US',
      '1 Main St', 'Springfield',
      'Illinois', 'IL',
      '6270', '62701',
    ];
    const s = scripted(script);
    const { ctx } = context(s.prompter);
    const w = await Wizard.start(ctx, { name: 'brands-register', subject: 'new', title: 'the registration', command: ['brands', 'register'], questions: REGISTER_QUESTIONS, flags: {} });
    const answers = await w.ask(BRAND_QUESTIONS);
    expect(s.rejected.map((r) => [r.flag, r.answer])).toEqual([
      ['--ein', '12345'],
      ['--website', 'not a url'],
      ['--email', 'notanemail'],
      ['--phone', '555'],
      ['--country', 'USA'],
      ['--state', 'Illinois'],
      ['--postal-code', '6270'],
    ]);
    expect(s.rejected.find((r) => r.flag === '--state')!.reason).toMatch(/two-letter code.*when country is US/);
    expect(s.asked.indexOf('--country')).toBeLessThan(s.asked.indexOf('--state'));
    expect(answers.brand).toMatchObject({ ein: '12-3456789', website: 'https://acmedental.example', country: 'US', state: 'IL', postalCode: '62701' });
  });

  it('without a terminal, lists the malformed answers with their flags, the US rule included', async () => {
    const flags = { 'brand.legalName': 'Acme', 'brand.website': 'acme', 'brand.country': 'US', 'brand.state': 'Illinois', 'brand.postalCode': '62701' };
    const w = await Wizard.start(context(refusing).ctx, { name: 'brands-register', subject: 'new', title: 'the registration', command: ['brands', 'register'], questions: REGISTER_QUESTIONS, flags });
    const err = (await w.ask().catch((e: unknown) => e)) as UsageError;
    expect(err.message).toContain('--website: "acme" must be an http(s) URL');
    expect(err.message).toMatch(/--state: "Illinois" must be a two-letter code/);
    expect(err.message).not.toContain('--postal-code');
  });
});

describe('the equivalent command', () => {
  it('printed at the end on stderr: the answers file it wrote plus the flags given, shell-quoted', async () => {
    const s = scripted(inOrder(GOOD).slice(1, 6));
    const run = context(s.prompter, { profile: 'work' });
    const w = await Wizard.start(run.ctx, options({ flags: { businessName: "Bob's Dental & Co", monthlyVolume: '2000' } }));
    w.check(VerifyTollfreeBody, await w.ask());
    const done = await w.finish();
    const answersFile = join(dir, 'config', 'wizards', `verify-tollfree-${NUMBER}.yaml`);
    expect(done.answersFile).toBe(answersFile);
    expect(done.command).toBe(`svc --profile work numbers verify-tollfree ${NUMBER} --answers ${shellQuote(answersFile)} --business-name 'Bob'\\''s Dental & Co' --monthly-volume 2000`);
    expect(run.io.err()).toContain(`the same without questions:\n  ${done.command}\n`);
    expect(statSync(answersFile).mode & 0o777).toBe(0o600);
    // The file holds what was typed, by API name, and reads back as an answers file.
    const back = await readAnswersFile(answersFile, TOLLFREE_QUESTIONS, '--answers');
    expect(Object.fromEntries(back)).toEqual({ website: GOOD.website, useCase: GOOD.useCase, useCaseSummary: GOOD.useCaseSummary, sampleMessage: GOOD.sampleMessage, optInWorkflow: GOOD.optInWorkflow });
    expect(readFileSync(answersFile, 'utf8')).toMatch(/^# answers to svc numbers verify-tollfree/);
  });

  it('nothing asked (all from flags): no file written, the command still printed, with the unattended flags', async () => {
    const run = context(refusing);
    const w = await Wizard.start(run.ctx, options({ flags: GOOD, unattended: ['--yes'] }));
    await w.ask();
    const done = await w.finish();
    expect(done.answersFile).toBeUndefined();
    expect(done.command).toBe(
      `svc numbers verify-tollfree ${NUMBER} --business-name 'Acme Dental' --website https://acme.example --use-case 'appointment reminders' ` +
        `--use-case-summary 'Reminders the day before each visit' --sample-message 'Acme: see you at 3pm. Reply STOP to opt out. It'\\''s free' ` +
        `--opt-in-workflow 'Patients tick a box on the intake form' --monthly-volume 2,000 --yes`,
    );
    expect(run.io.err()).toBe(`the same without questions:\n  ${done.command}\n`);
  });

  it('every answer from the user\'s answers file: the command names that file, then --yes, and writes none of its own', async () => {
    const file = join(dir, 'mine.yaml');
    writeFileSync(file, Object.entries(GOOD).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n'));
    const run = context(refusing);
    const w = await Wizard.start(run.ctx, options({ answersFile: { path: file, flag: '--answers' }, unattended: ['--yes'] }));
    await w.ask();
    const done = await w.finish();
    expect(done.command).toBe(`svc numbers verify-tollfree ${NUMBER} --answers ${shellQuote(file)} --yes`);
    expect(done.answersFile).toBeUndefined();
    expect(existsSync(join(dir, 'config', 'wizards', `verify-tollfree-${NUMBER}.yaml`))).toBe(false);
  });

  it('the user\'s file with answers typed at the prompts: the file, then what was typed as flags (a replaced answer too)', async () => {
    const file = join(dir, 'part.yaml');
    // website is refused as it stands and skipped at the prompt: the command must drop it too.
    writeFileSync(file, ['businessName: Acme Dental', 'website: acme.example', 'useCase: reminders', 'monthlyVolume: 300', ''].join('\n'));
    const s = scripted(['', 'Summary', "Hi. Reply STOP", 'Checkbox']);
    const run = context(s.prompter);
    const w = await Wizard.start(run.ctx, options({ answersFile: { path: file, flag: '--from-file' } }));
    const body = w.check(VerifyTollfreeBody, await w.ask());
    expect(body.website).toBeUndefined();
    const done = await w.finish();
    expect(done.command).toBe(`svc numbers verify-tollfree ${NUMBER} --answers ${shellQuote(file)} --website '' --use-case-summary Summary --sample-message 'Hi. Reply STOP' --opt-in-workflow Checkbox`);
    expect(done.answersFile).toBeUndefined();
    expect(existsSync(progressFile())).toBe(false);
  });

  it('a scripted run leaves the progress of an interrupted run it did not resume, and the interactive answers file', async () => {
    await expect((await Wizard.start(context(scripted([GOOD.businessName, new CancelledError()]).prompter).ctx, options())).ask()).rejects.toBeInstanceOf(CancelledError);
    const progress = readFileSync(progressFile(), 'utf8');
    const own = join(dir, 'config', 'wizards', `verify-tollfree-${NUMBER}.yaml`);
    writeFileSync(own, 'businessName: Typed Earlier\n');
    const file = join(dir, 'mine.yaml');
    writeFileSync(file, Object.entries(GOOD).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n'));
    const w = await Wizard.start(context(refusing).ctx, options({ answersFile: { path: file, flag: '--answers' } }));
    await w.ask();
    await w.finish();
    expect(readFileSync(progressFile(), 'utf8')).toBe(progress);
    expect(readFileSync(own, 'utf8')).toBe('businessName: Typed Earlier\n');
  });

  it('shell quoting', () => {
    expect(shellLine(['svc', 'a b', "it's", '', 'https://x.example/a?b=1', '+1888'])).toBe(`svc 'a b' 'it'\\''s' '' 'https://x.example/a?b=1' +1888`);
  });
});
