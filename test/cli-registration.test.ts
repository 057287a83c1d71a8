// The 10DLC registration verbs end to end, in-process against a real service on loopback: drafting and
// linting a campaign, registering with the wizard from an answers file (CI: no prompt), the missing
// answers listed together, the brand and campaign verbs, the registry's verdicts through `svc
// trigger`, ports from check to submit and the carrier's verdict, and a lead from the hosted form.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { fundAccount } from './helpers/money.js';
import { runSvc, expectOk, assertBuilt, type RunSvcOptions } from './helpers/cli.js';
import { PRICES } from '../src/api/values/prices.js';

let svc: TestService;
let tmp: string;
const run = (args: string[], opts: Omit<RunSvcOptions, 'service'> = {}) => runSvc(args, { service: svc, ...opts, env: { CI: 'true', ...opts.env } });
const json = (text: string) => JSON.parse(text);
const file = (name: string, content: unknown): string => {
  const path = join(tmp, name);
  writeFileSync(path, typeof content === 'string' ? content : toYaml(content));
  return path;
};

const BRAND = { legalName: 'Acme Dental LLC', displayName: 'Acme Dental', entityType: 'PRIVATE_PROFIT', ein: '12-3456789', website: 'https://acmedental.example', email: 'hello@acmedental.example' };
const CAMPAIGN = {
  name: 'Appointment reminders',
  useCase: 'ACCOUNT_NOTIFICATION',
  description: 'Acme Dental sends appointment reminders and confirmations to patients who asked for them.',
  optInDetails: 'Patients opt in on the web form at https://acmedental.example/sms by ticking an unchecked box that says they agree to receive appointment texts from Acme Dental; message and data rates may apply; reply STOP to opt out.',
  sampleMessages: ['Acme Dental: your cleaning is tomorrow at 3pm. Reply STOP to opt out.', 'Acme Dental: your appointment is confirmed for Monday. Reply STOP to opt out, HELP for help.'],
  privacyPolicyLink: 'https://acmedental.example/privacy',
  termsAndConditionsLink: 'https://acmedental.example/terms',
  optoutKeywords: 'STOP',
  optoutMessage: 'Acme Dental: you are unsubscribed. No more messages will be sent.',
  helpKeywords: 'HELP',
  helpMessage: 'Acme Dental: call 415-555-0100 for help. Reply STOP to opt out.',
  embeddedLink: false,
  embeddedPhone: false,
};

beforeAll(async () => {
  assertBuilt();
  svc = await startTestService();
  // This file buys and registers more than a new account's wallet covers (contract §11).
  await fundAccount(svc, svc.bootstrap.accountId);
  tmp = mkdtempSync(join(tmpdir(), 'svc-cli-registration-'));
});

afterAll(async () => {
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('registrations draft and predict, campaigns lint', () => {
  it('drafts a campaign from business info that names the business in every sample', async () => {
    const res = expectOk(await run(['registrations', 'draft', '--legal-name', 'Acme Dental LLC', '--description', 'Dental clinic sending appointment reminders', '--website', 'https://acmedental.example', '--opt-in-channel', 'web form', '-o', 'json']));
    const draft = json(res.stdout);
    expect(draft.sampleMessages.length).toBeGreaterThanOrEqual(2);
    for (const s of draft.sampleMessages) expect(s).toMatch(/Acme Dental/);
    expect(typeof draft.optInDetails).toBe('string');
  });

  it('draft without a description: exit 2 naming the flag, nothing sent', async () => {
    const res = await run(['registrations', 'draft', '--legal-name', 'Acme']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--description');
  });

  it('lint prints each check pass/fail with its suggestion; exit 1 below high, 0 at high', async () => {
    const bad = file('bad-campaign.yaml', { name: 'Promos', useCase: 'MARKETING', description: 'deals', optInDetails: 'they sign up', sampleMessages: ['Big sale today!'] });
    const res = await run(['campaigns', 'lint', '-f', bad]);
    expect(res.code).toBe(1);
    const lines = res.stdout.split('\n').filter(Boolean);
    const fails = lines.filter((l) => l.startsWith('fail  '));
    expect(fails.length).toBeGreaterThan(0);
    const suggestions = lines.filter((l) => l.trim().startsWith('suggestion: '));
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.length).toBe(fails.length); // contract §7: one suggestion per failed check
    expect(lines.at(-1)).toMatch(/^score \d+\/100, approval (low|medium)/);

    const good = file('good-registration.yaml', { brand: BRAND, campaign: CAMPAIGN });
    const predicted = json(expectOk(await run(['registrations', 'predict', '-f', good, '-o', 'json'])).stdout);
    expect(predicted.checks.length).toBeGreaterThan(0);
    const lint = await run(['campaigns', 'lint', '-f', good]);
    expect(lint.code).toBe(predicted.band === 'high' ? 0 : 1);
    expect(predicted.band).toBe('high');
    expect(lint.stdout.split('\n').filter((l) => /^(pass|fail)  /.test(l)).length).toBe(predicted.checks.length);
  });

  it('lint reads stdin with -f -', async () => {
    const res = await run(['campaigns', 'lint', '-f', '-'], { stdin: toYaml({ brand: BRAND, campaign: CAMPAIGN }) });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('approval high');
  });
});

describe('brands register without a terminal', () => {
  it('lists every missing answer with its flag in one usage error (exit 2), nothing registered', async () => {
    const before = (await svc.call('GET', '/v1/brands', { key: svc.bootstrap.liveKey })).body.data.length;
    const res = await run(['brands', 'register', '--entity-type', 'PUBLIC_PROFIT']);
    expect(res.code).toBe(2);
    for (const flag of ['--legal-name', '--ein', '--campaign-name', '--use-case', '--description', '--opt-in-details', '--sample']) expect(res.stderr).toContain(`  ${flag}: required`);
    expect(res.stderr).toContain('7 answers are missing');
    expect((await svc.call('GET', '/v1/brands', { key: svc.bootstrap.liveKey })).body.data.length).toBe(before);
  });

  it('no EIN is asked for a sole proprietor', async () => {
    const res = await run(['brands', 'register', '--entity-type', 'SOLE_PROPRIETOR', '--legal-name', 'Ada Lovelace']);
    expect(res.code).toBe(2);
    expect(res.stderr).not.toContain('--ein');
    expect(res.stderr).toContain('--campaign-name: required');
  });

  it('--mock --answers completes without a prompt: an approved test brand, no price, and the equivalent command with --yes', async () => {
    const answers = file('mock-answers.yaml', { brand: BRAND, campaign: CAMPAIGN });
    const env = { SVC_CONFIG_DIR: join(tmp, 'mock-config') };
    const res = expectOk(await run(['brands', 'register', '--mock', '--answers', answers, '--yes', '-o', 'json'], { env }));
    const reg = json(res.stdout);
    expect(reg.brand).toMatchObject({ legalName: BRAND.legalName, mock: true, status: 'approved' });
    expect(reg.campaign.brandId).toBe(reg.brand.id);
    expect(res.stderr).not.toContain('$');
    // cli.md: the equivalent command is printed at the end whatever the answers came from;
    // given a file of the user's, it names that file and writes none of its own.
    const printed = /the same without questions:\n {2}(.+)\n/.exec(res.stderr)?.[1];
    expect(printed).toBe(`svc brands register --mock --answers ${answers} --yes`);
    expect(existsSync(join(tmp, 'mock-config', 'wizards', 'brands-register-new.yaml'))).toBe(false);
    // It runs as printed, asking nothing (no terminal, and --yes answers the confirmation).
    const again = expectOk(await run([...printed!.split(' ').slice(1), '-o', 'json'], { env }));
    expect(json(again.stdout).brand).toMatchObject({ legalName: BRAND.legalName, mock: true, status: 'approved' });
  });

  it('an industry outside the registry\'s verticals is refused before anything is sent (exit 2 naming --vertical and the closest); a spelling of one is sent as the registry spells it', async () => {
    const realty = async () => ((await svc.call('GET', '/v1/brands', { key: svc.bootstrap.liveKey })).body.data as Array<{ legalName: string }>).filter((b) => b.legalName === 'Vertical Realty LLC');
    expect(await realty()).toEqual([]);
    const answers = file('vertical-answers.yaml', { brand: { ...BRAND, legalName: 'Vertical Realty LLC' }, campaign: CAMPAIGN });
    const typo = await run(['brands', 'register', '--mock', '--answers', answers, '--vertical', 'real estat', '--yes', '--no-input']);
    expect(typo.code, typo.stderr).toBe(2);
    expect(typo.stderr).toMatch(/--vertical: "real estat" must be one of the registry's verticals; did you mean REAL_ESTATE\?/);
    // An address given as the industry, in the answers file: the same refusal, the file's key named by its flag.
    const address = file('vertical-address.yaml', { brand: { ...BRAND, legalName: 'Vertical Realty LLC', vertical: '123 Main St' }, campaign: CAMPAIGN });
    const wrong = await run(['brands', 'register', '--mock', '--answers', address, '--yes', '--no-input']);
    expect(wrong.code, wrong.stderr).toBe(2);
    expect(wrong.stderr).toMatch(/--vertical: "123 Main St" must be one of the registry's verticals; did you mean [A-Z_]+\?/);
    expect(await realty()).toEqual([]);

    const ok = expectOk(await run(['brands', 'register', '--mock', '--answers', answers, '--vertical', 'real estate', '--yes', '--no-input', '-o', 'json']));
    expect(json(ok.stdout).brand).toMatchObject({ legalName: 'Vertical Realty LLC', vertical: 'REAL_ESTATE' });
    // The API itself keeps any string (spec: Registration inputs), and its description lists the registry's values.
    const direct = await svc.call('POST', '/v1/brands', { key: svc.bootstrap.liveKey, body: { legalName: 'Free Text Vertical LLC', vertical: 'Dentistry', mock: true } });
    expect(direct.status, direct.text).toBe(201);
    expect(direct.body.vertical).toBe('Dentistry');
    const openapi = (await svc.call('GET', '/openapi.json', { key: null })).body;
    const ref: string = openapi.paths['/v1/brands'].post.requestBody.content['application/json'].schema.$ref;
    const vertical = openapi.components.schemas[ref.split('/').pop()!].properties.vertical;
    expect(vertical.description).toMatch(/REAL_ESTATE.*stores the string it is given/);
  });

  it('--mock --resume finds the answers a run without --mock saved', async () => {
    const config = join(tmp, 'resume-config');
    // What an interrupted `svc brands register` (no --mock) leaves: the brand answers typed so far.
    mkdirSync(join(config, 'wizards'), { recursive: true });
    writeFileSync(join(config, 'wizards', 'brands-register-new.partial.yaml'), toYaml({ brand: { ...BRAND, legalName: 'Resumed Dental LLC' } }));
    const campaign = file('resume-campaign.yaml', { campaign: CAMPAIGN });
    const res = expectOk(await run(['brands', 'register', '--mock', '--resume', '--answers', campaign, '--yes', '-o', 'json'], { env: { SVC_CONFIG_DIR: config } }));
    expect(res.stderr).toContain('resuming 6 saved answers');
    expect(json(res.stdout).brand).toMatchObject({ legalName: 'Resumed Dental LLC', mock: true, status: 'approved' });
    // The resumed answers are in no file the user has: the command carries them as flags beside theirs.
    const printed = /the same without questions:\n {2}(.+)\n/.exec(res.stderr)?.[1];
    expect(printed).toContain(`svc brands register --mock --answers ${campaign} --legal-name 'Resumed Dental LLC' `);
    expect(existsSync(join(config, 'wizards', 'brands-register-new.partial.yaml'))).toBe(false);
  });

  it('a live registration from flags and a file: the price confirmed with --yes, both submitted', async () => {
    const answers = file('campaign-only.yaml', { campaign: CAMPAIGN });
    const noYes = await run(['brands', 'register', '--answers', answers, ...brandFlags('Beta Bakery LLC')]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    expect(noYes.stderr).toContain('Approval prediction');
    const res = expectOk(await run(['brands', 'register', '--answers', answers, ...brandFlags('Beta Bakery LLC'), '--yes', '-o', 'json']));
    const reg = json(res.stdout);
    expect(reg.brand).toMatchObject({ legalName: 'Beta Bakery LLC', status: 'submitted', mock: false });
    expect(reg.campaign.status).toBe('draft');
    // The flags given stay flags in the equivalent command, which ends with --yes.
    expect(res.stderr).toMatch(/the same without questions:\n {2}svc brands register --answers \S+ --legal-name 'Beta Bakery LLC' .*--email hi@acmedental\.example --yes\n/);
    expect(noYes.stderr).toContain(`$${(PRICES.brandRegistration + PRICES.campaignRegistration) / 100}.00`);
  });
});

function brandFlags(name: string): string[] {
  return ['--legal-name', name, '--entity-type', 'PRIVATE_PROFIT', '--ein', '98-7654321', '--website', 'https://acmedental.example', '--email', 'hi@acmedental.example'];
}

describe('brands and campaigns verbs with the registry through svc trigger', () => {
  it('update, reject, resubmit, approve, vet; campaigns create, list, update, decide, resubmit', async () => {
    const reg = json(expectOk(await run(['registrations', 'submit', '-f', file('reg.yaml', { brand: { ...BRAND, legalName: 'Gamma Gym LLC' }, campaign: CAMPAIGN }), '--yes', '-o', 'json'])).stdout);
    const id = reg.brand.id as string;
    expect(reg.brand.status).toBe('submitted');

    const ids = expectOk(await run(['brands', 'list', '--status', 'submitted', '-o', 'ids'])).stdout.split('\n').filter(Boolean);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toContain(id);
    expect(json(expectOk(await run(['brands', 'get', id, '-o', 'json'])).stdout).legalName).toBe('Gamma Gym LLC');
    expect((await run(['brands', 'update', id])).code).toBe(2);

    const rejected = json(expectOk(await run(['trigger', 'brand.decision', '--brand', id, '--decision', 'rejected', '--reason', 'EIN does not match', '-o', 'json'])).stdout);
    expect(rejected).toMatchObject({ status: 'rejected', rejectionReason: 'EIN does not match' });
    expect(json(expectOk(await run(['brands', 'update', id, '--display-name', 'Gamma', '-o', 'json'])).stdout).displayName).toBe('Gamma');
    expect(json(expectOk(await run(['brands', 'resubmit', id, '-o', 'json'])).stdout).status).toBe('submitted');
    expect(json(expectOk(await run(['trigger', 'brand.decision', '--brand', id, '--decision', 'approved', '-o', 'json'])).stdout).status).toBe('approved');
    const vetNoYes = await run(['brands', 'vet', id, '--provider', 'AEGIS']);
    expect(vetNoYes.code).toBe(2);
    const vetted = json(expectOk(await run(['brands', 'vet', id, '--provider', 'AEGIS', '--yes', '-o', 'json'])).stdout);
    expect(vetted.vettingProvider).toBe('AEGIS');

    // The registration's draft campaign was submitted when the brand was approved.
    const first = json(expectOk(await run(['campaigns', 'get', reg.campaign.id, '-o', 'json'])).stdout);
    expect(first.status).toBe('submitted');

    const created = json(expectOk(await run(['campaigns', 'create', '--brand', id, '-f', file('c.yaml', CAMPAIGN), '--name', 'Second', '-o', 'json'])).stdout);
    expect(created).toMatchObject({ brandId: id, name: 'Second', status: 'submitted' });
    const listed = expectOk(await run(['campaigns', 'list', '--brand', id, '-o', 'ids'])).stdout.split('\n').filter(Boolean);
    expect(listed.length).toBe(2);
    expect(listed).toEqual(expect.arrayContaining([created.id, reg.campaign.id]));
    const rejectedCampaign = json(expectOk(await run(['trigger', 'campaign.decision', '--campaign', created.id, '--decision', 'rejected', '--reason', 'samples unclear', '-o', 'json'])).stdout);
    expect(rejectedCampaign).toMatchObject({ status: 'rejected', lastRejectionReason: 'samples unclear' });
    const updated = json(expectOk(await run(['campaigns', 'update', created.id, '--sample', 'Acme Dental: see you soon. Reply STOP to opt out.', '--sample', 'Acme Dental: booked. Reply STOP to opt out.', '-o', 'json'])).stdout);
    expect(updated.sampleMessages).toHaveLength(2);
    const again = json(expectOk(await run(['campaigns', 'resubmit', created.id, '-o', 'json'])).stdout);
    expect(again).toMatchObject({ status: 'submitted', remediationAttempts: 1 });
    expect(json(expectOk(await run(['trigger', 'campaign.decision', '--campaign', created.id, '--decision', 'approved', '-o', 'json'])).stdout).status).toBe('approved');
  });

  it('campaigns create without a brand names --brand (exit 2)', async () => {
    const res = await run(['campaigns', 'create', '-f', file('c2.yaml', CAMPAIGN)]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--brand');
  });
});

describe('ports', () => {
  it('check, create, attach, submit with its price, the carrier approves; another is cancelled', async () => {
    const check = expectOk(await run(['ports', 'check', '+14155730123', '-o', 'json']));
    const rows = json(check.stdout);
    expect(rows.length).toBe(1);
    expect(rows[0]).toMatchObject({ phoneNumber: '+14155730123' });
    const portable = rows[0].portable as boolean;
    expect(portable).toBe(true);

    const create = ['ports', 'create', '--number', '+14155730123', '--authorized-name', 'Ada Lovelace', '--account-number', '991234', '--pin', '4321', '--street', '1 Market St', '--city', 'San Francisco', '--state', 'CA', '--zip', '94105', '--idempotency-key', 'port-cli-1', '-o', 'json'];
    const port = json(expectOk(await run(create)).stdout);
    expect(port).toMatchObject({ status: 'draft', phoneNumbers: ['+14155730123'] });
    // The same key: the same request, not a second one.
    expect(json(expectOk(await run(create)).stdout).id).toBe(port.id);

    const early = await run(['ports', 'submit', port.id, '--yes']);
    expect(early.code).toBe(5);
    const loa = file('loa.pdf', '%PDF-1.4 letter of authorization');
    const bill = file('bill.pdf', '%PDF-1.4 a bill');
    expectOk(await run(['ports', 'attach', port.id, '--type', 'loa', loa]));
    const withBill = json(expectOk(await run(['ports', 'attach', port.id, '--type', 'bill', bill, '-o', 'json'])).stdout);
    expect(withBill.documents.map((d: { type: string }) => d.type).sort()).toEqual(['bill', 'loa']);
    expect(withBill.documents.find((d: { type: string }) => d.type === 'loa').sizeBytes).toBe('%PDF-1.4 letter of authorization'.length);

    const noYes = await run(['ports', 'submit', port.id]);
    expect(noYes.code).toBe(2);
    expect(noYes.stderr).toContain('--yes');
    const submitted = json(expectOk(await run(['ports', 'submit', port.id, '--yes', '-o', 'json'])).stdout);
    expect(submitted.status).toBe('submitted');
    const decided = json(expectOk(await run(['trigger', 'port.decision', '--port', port.id, '--decision', 'approved', '-o', 'json'])).stdout);
    expect(decided.status).toBe('foc_scheduled');
    expect(json(expectOk(await run(['ports', 'get', port.id, '-o', 'json'])).stdout).focDate).not.toBeNull();

    const other = json(expectOk(await run(['ports', 'create', '-f', file('port.yaml', { phoneNumbers: ['+14155730124'], authorizedName: 'Ada', accountNumber: '1', serviceAddress: { street: '1 Market St', city: 'San Francisco', state: 'CA', zip: '94105' } }), '-o', 'json'])).stdout);
    expect(json(expectOk(await run(['ports', 'cancel', other.id, '-o', 'json'])).stdout).status).toBe('canceled');
    const listed = expectOk(await run(['ports', 'list', '-o', 'ids'])).stdout.split('\n').filter(Boolean);
    expect(listed.length).toBe(2);
    expect(listed).toEqual(expect.arrayContaining([port.id, other.id]));
  });

  it('create with a missing field names its flag; attach of a missing file is a usage error', async () => {
    const res = await run(['ports', 'create', '--number', '+14155730125', '--authorized-name', 'Ada']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--account-number');
    const attach = await run(['ports', 'attach', 'port_x', '--type', 'loa', join(tmp, 'nope.pdf')]);
    expect(attach.code).toBe(2);
    expect(attach.stderr).toContain('ENOENT');
  });
});

describe('trigger lead.captured', () => {
  it("posts the brand's hosted opt-in form and prints the lead.captured event", async () => {
    const reg = json(expectOk(await run(['registrations', 'submit', '-f', file('lead-reg.yaml', { brand: { ...BRAND, legalName: 'Delta Deli LLC' }, campaign: CAMPAIGN }), '--mock', '--yes', '-o', 'json'])).stdout);
    const res = expectOk(await run(['trigger', 'lead.captured', '--brand', reg.brand.id, '--first-name', 'Grace', '--phone', '+14155550188', '-o', 'json']));
    const event = json(res.stdout);
    expect(event.type).toBe('lead.captured');
    expect(event).toMatchObject({ brandId: reg.brand.id, firstName: 'Grace', lastName: 'Lovelace', phone: '+14155550188', consent: true });
    expect(event.consentText).toContain(BRAND.displayName);
    const unticked = json(expectOk(await run(['trigger', 'lead.captured', '--brand', reg.brand.id, '--no-consent', '-o', 'json'])).stdout);
    expect(unticked.consent).toBe(false);
    expect(unticked.eventId).not.toBe(event.eventId);
  });
});
