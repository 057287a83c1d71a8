// Flags → typed options for every registration verb (brands, campaigns, registrations, ports, the
// registration triggers), parsed through each command factory with a run function that records what
// the verb would get (the GitHub CLI's runF): nothing runs, nothing is sent.
import { describe, expect, it } from 'vitest';
import { verbs as brandVerbs } from '../src/cli/commands/brands/index.js';
import { registerOptionsOf, updateBrandOptionsOf, vetOptionsOf, type VetBrandFlags } from '../src/cli/commands/brands/options.js';
import { verbs as campaignVerbs } from '../src/cli/commands/campaigns/index.js';
import { createCampaignOptionsOf, updateCampaignOptionsOf } from '../src/cli/commands/campaigns/options.js';
import { verbs as registrationVerbs } from '../src/cli/commands/registrations/index.js';
import { draftOptionsOf, type DraftOptions } from '../src/cli/commands/registrations/options.js';
import { verbs as portVerbs } from '../src/cli/commands/ports/index.js';
import { createPortOptionsOf, type CreatePortFlags } from '../src/cli/commands/ports/options.js';
import type { AnyVerb } from '../src/cli/verb.js';
import { TRIGGERS } from '../src/cli/commands/trigger/registry.js';
import { optionsOf, refusal, verbNamed } from './helpers/verb-flags.js';

const registerCommand = verbNamed(brandVerbs, 'register');
const brandsList = verbNamed(brandVerbs, 'list');
const brandsGet = verbNamed(brandVerbs, 'get');
const brandsUpdate = verbNamed(brandVerbs, 'update');
const brandsResubmit = verbNamed(brandVerbs, 'resubmit');
const vetCommand = verbNamed(brandVerbs, 'vet');
const campaignsCreate = verbNamed(campaignVerbs, 'create');
const campaignsList = verbNamed(campaignVerbs, 'list');
const campaignsGet = verbNamed(campaignVerbs, 'get');
const campaignsUpdate = verbNamed(campaignVerbs, 'update');
const campaignsResubmit = verbNamed(campaignVerbs, 'resubmit');
const lintCommand = verbNamed(campaignVerbs, 'lint');
const draftCommand = verbNamed(registrationVerbs, 'draft');
const predictCommand = verbNamed(registrationVerbs, 'predict');
const registrationsSubmit = verbNamed(registrationVerbs, 'submit');
const checkCommand = verbNamed(portVerbs, 'check');
const portsCreate = verbNamed(portVerbs, 'create');
const attachCommand = verbNamed(portVerbs, 'attach');
const portsSubmit = verbNamed(portVerbs, 'submit');
const portsGet = verbNamed(portVerbs, 'get');
const portsList = verbNamed(portVerbs, 'list');
const portsCancel = verbNamed(portVerbs, 'cancel');

/** The options a run module works with: the flags as parsed, through the verb's own conversion. */
const through =
  <F, O>(verb: AnyVerb, convert: (flags: F) => O) =>
  async (argv: string[]): Promise<O> =>
    convert(await optionsOf<F>(verb, argv));
const registerOf = through(registerCommand, registerOptionsOf);
const updateBrandOf = through(brandsUpdate, updateBrandOptionsOf);
const vetOf = through<VetBrandFlags, ReturnType<typeof vetOptionsOf>>(vetCommand, vetOptionsOf);
const createCampaignOf = through(campaignsCreate, createCampaignOptionsOf);
const updateCampaignOf = through(campaignsUpdate, updateCampaignOptionsOf);
const draftOf = through<DraftOptions['fields'] & { file?: string }, DraftOptions>(draftCommand, draftOptionsOf);
const createPortOf = through<CreatePortFlags, ReturnType<typeof createPortOptionsOf>>(portsCreate, createPortOptionsOf);


describe('brands', () => {
  it('register: brand and campaign flags by API name, samples repeatable, the wizard switches', async () => {
    const o = await registerOf([
      '--legal-name', 'Acme Dental LLC', '--entity-type', 'PRIVATE_PROFIT', '--ein', '12-3456789', '--website', 'https://acme.example',
      '--campaign-name', 'Reminders', '--use-case', 'ACCOUNT_NOTIFICATION', '--sample', 'one', '--sample', 'two', '--embedded-link', 'false',
      '--answers', 'a.yaml', '--resume', '--mock', '--idempotency-key', 'reg-1',
    ]);
    expect(o.brand).toEqual({ legalName: 'Acme Dental LLC', entityType: 'PRIVATE_PROFIT', ein: '12-3456789', website: 'https://acme.example' });
    expect(o.campaign).toEqual({ name: 'Reminders', useCase: 'ACCOUNT_NOTIFICATION', sampleMessages: 'one\ntwo', embeddedLink: 'false' });
    expect(o).toMatchObject({ answers: 'a.yaml', resume: true, mock: true, idempotencyKey: 'reg-1' });
    const bare = await registerOf([]);
    expect(bare).toEqual({ brand: {}, campaign: {}, answers: undefined, resume: undefined, mock: undefined, idempotencyKey: undefined });
  });

  it('register: an entity type outside the enum is refused', async () => {
    expect(await refusal(registerCommand, ['--entity-type', 'LLC'])).toBe('commander.invalidArgument');
  });

  it('list, get, resubmit', async () => {
    expect(await optionsOf(brandsList, ['--status', 'approved', '--limit', '5', '--all'])).toEqual({ status: 'approved', limit: '5', all: true });
    expect(await refusal(brandsList, ['--status', 'pending'])).toBe('commander.invalidArgument');
    expect(await optionsOf(brandsGet, ['b1'])).toEqual({ brand: 'b1' });
    expect(await optionsOf(brandsResubmit, ['b1'])).toEqual({ brand: 'b1' });
  });

  it('update: field flags and a file', async () => {
    expect(await updateBrandOf(['b1', '--ein', '98-7654321', '--display-name', 'Acme', '-f', 'page.yaml'])).toEqual({
      brand: 'b1',
      fields: { ein: '98-7654321', displayName: 'Acme' },
      file: 'page.yaml',
    });
  });

  it('vet: provider required, class defaults to the first', async () => {
    expect(await vetOf(['b1', '--provider', 'AEGIS'])).toEqual({ brand: 'b1', provider: 'AEGIS', vettingClass: 'STANDARD' });
    expect(await vetOf(['b1', '--provider', 'WMC', '--class', 'ENHANCED'])).toMatchObject({ vettingClass: 'ENHANCED' });
    expect(await refusal(vetCommand, ['b1'])).toBe('commander.missingMandatoryOptionValue');
  });
});

describe('campaigns', () => {
  it('create: --name here, samples and booleans by API name, --brand and -f', async () => {
    expect(await createCampaignOf(['--brand', 'b1', '--name', 'Reminders', '--sample', 's1', '--sample', 's2', '--number-pool', 'true', '-f', 'c.yaml'])).toEqual({
      brand: 'b1',
      fields: { name: 'Reminders', sampleMessages: 's1\ns2', numberPool: 'true' },
      file: 'c.yaml',
    });
  });

  it('list, get, update, resubmit, lint', async () => {
    expect(await optionsOf(campaignsList, ['--status', 'dca_review', '--brand', 'b1'])).toEqual({ status: 'dca_review', brand: 'b1' });
    expect(await optionsOf(campaignsGet, ['c1'])).toEqual({ campaign: 'c1' });
    expect(await updateCampaignOf(['c1', '--privacy-policy-link', 'https://a.example/p'])).toEqual({ campaign: 'c1', fields: { privacyPolicyLink: 'https://a.example/p' }, file: undefined });
    expect(await optionsOf(campaignsResubmit, ['c1'])).toEqual({ campaign: 'c1' });
    expect(await optionsOf(lintCommand, ['-f', '-'])).toEqual({ file: '-' });
    expect(await refusal(lintCommand, [])).toBe('commander.missingMandatoryOptionValue');
  });
});

describe('registrations', () => {
  it('draft, predict, submit', async () => {
    expect(await draftOf(['--legal-name', 'Acme', '--description', 'Dental clinic', '--opt-in-channel', 'web form'])).toEqual({
      fields: { legalName: 'Acme', description: 'Dental clinic', optInChannel: 'web form' },
      file: undefined,
    });
    expect(await optionsOf(predictCommand, ['-f', 'r.yaml'])).toEqual({ file: 'r.yaml' });
    expect(await optionsOf(registrationsSubmit, ['-f', 'r.yaml', '--mock', '--idempotency-key', 'k1'])).toEqual({ file: 'r.yaml', mock: true, idempotencyKey: 'k1' });
    expect(await refusal(registrationsSubmit, [])).toBe('commander.missingMandatoryOptionValue');
  });
});

describe('ports', () => {
  it('check takes several numbers', async () => {
    expect(await optionsOf(checkCommand, ['+14155550123', '+14155550124'])).toEqual({ numbers: ['+14155550123', '+14155550124'] });
  });

  it('create: repeated --number, the address, a file, an idempotency key', async () => {
    const argv = ['--number', '+14155550123', '--number', '+14155550124', '--authorized-name', 'Ada', '--account-number', '991', '--pin', '1234', '--street', '1 Market St', '--city', 'San Francisco', '--state', 'CA', '--zip', '94105', '-f', 'p.yaml', '--idempotency-key', 'p-1'];
    expect(await createPortOf(argv)).toEqual({
      numbers: ['+14155550123', '+14155550124'],
      authorizedName: 'Ada',
      accountNumber: '991',
      pin: '1234',
      address: { street: '1 Market St', street2: undefined, city: 'San Francisco', state: 'CA', zip: '94105' },
      file: 'p.yaml',
      idempotencyKey: 'p-1',
    });
  });

  it('attach needs --type loa|bill and a file', async () => {
    expect(await optionsOf(attachCommand, ['port_1', '--type', 'loa', 'loa.pdf'])).toEqual({ port: 'port_1', type: 'loa', file: 'loa.pdf' });
    expect(await refusal(attachCommand, ['port_1', '--type', 'invoice', 'x.pdf'])).toBe('commander.invalidArgument');
    expect(await refusal(attachCommand, ['port_1', 'x.pdf'])).toBe('commander.missingMandatoryOptionValue');
  });

  it('submit, get, list, cancel', async () => {
    expect(await optionsOf(portsSubmit, ['port_1'])).toEqual({ port: 'port_1' });
    expect(await optionsOf(portsGet, ['port_1'])).toEqual({ port: 'port_1' });
    expect(await optionsOf(portsCancel, ['port_1'])).toEqual({ port: 'port_1' });
    expect(await optionsOf(portsList, ['--status', 'foc_scheduled'])).toEqual({ status: 'foc_scheduled' });
  });
});

describe('registration triggers', () => {
  /** Parses `svc trigger <type> …` through its verb, with a recorder for its run function. */
  async function triggerOptions(type: string, argv: string[]): Promise<unknown> {
    expect(TRIGGERS[type]).toBeDefined();
    return optionsOf(TRIGGERS[type]!, argv);
  }

  it('are listed with the others', () => {
    expect(Object.keys(TRIGGERS)).toEqual(expect.arrayContaining(['lead.captured', 'brand.decision', 'campaign.decision', 'port.decision']));
  });

  it('lead.captured: form fields with defaults, consent on unless --no-consent', async () => {
    expect(await triggerOptions('lead.captured', ['--brand', 'b1'])).toEqual({ brand: 'b1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+14155550123', consent: true });
    expect(await triggerOptions('lead.captured', ['--brand', 'b1', '--first-name', 'Grace', '--no-consent'])).toMatchObject({ firstName: 'Grace', consent: false });
  });

  it('decisions: id, verdict from the allowed list, reason', async () => {
    expect(await triggerOptions('brand.decision', ['--brand', 'b1', '--decision', 'rejected', '--reason', 'EIN mismatch'])).toEqual({ brand: 'b1', decision: 'rejected', reason: 'EIN mismatch' });
    expect(await triggerOptions('campaign.decision', ['--campaign', 'c1', '--decision', 'approved'])).toEqual({ campaign: 'c1', decision: 'approved' });
    expect(await triggerOptions('port.decision', ['--port', 'port_1', '--decision', 'approved', '--foc-date', '2030-01-02T00:00:00Z'])).toEqual({ port: 'port_1', decision: 'approved', focDate: '2030-01-02T00:00:00Z' });
    await expect(triggerOptions('brand.decision', ['--brand', 'b1', '--decision', 'maybe'])).rejects.toMatchObject({ code: 'commander.invalidArgument' });
  });
});
