// `svc numbers` driven in-process against the real local service: search (dollars for people,
// cents for machines), buy with its confirmation, list/get by id or E.164, update with the address
// suggestion, release, assign and toll-free verification.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { fundAccount } from './helpers/money.js';
import { runSvc, type CliResult, type RunSvcOptions, expectOk } from './helpers/cli.js';
import { CliContext } from '../src/cli/context.js';
import { createTestIO } from '../src/output/io.js';
import type { Prompter } from '../src/cli/prompter.js';
import { runUpdate } from '../src/cli/commands/numbers/update.run.js';
import { runVerifyTollfree } from '../src/cli/commands/numbers/verify-tollfree.run.js';
import { runBuy } from '../src/cli/commands/numbers/buy.run.js';
import { reportError } from '../src/cli/main.js';
import { dollars } from '../src/cli/money.js';

let svc: TestService;
let tmp: string;

const ESC = '\u001b';
type RunOpts = Omit<RunSvcOptions, 'service'>;
const svcRun = (args: string[], opts: RunOpts = {}) => runSvc(args, { service: svc, ...opts });

const ok = expectOk;
const lines = (text: string) => text.split('\n').filter((l) => l !== '');

interface Available {
  phoneNumber: string;
  type: string;
  monthlyPriceCents: number;
  capabilities: { sms: boolean; mms: boolean; voice: boolean };
}

async function search(args: string[]): Promise<Available[]> {
  return JSON.parse(ok(await svcRun(['numbers', 'search', ...args, '-o', 'json'])).stdout);
}

/** Numbers of the account (any status but released, unless asked). */
async function owned(query = ''): Promise<string[]> {
  const r = await svc.call('GET', `/v1/numbers?limit=100${query}`);
  expect(r.status).toBe(200);
  return r.body.data.map((n: { phoneNumber: string }) => n.phoneNumber);
}

/** Buys the first 415 number passing `want` through the CLI, with --yes. */
async function buy(want: (n: Available) => boolean = (n) => n.capabilities.sms && n.capabilities.voice, searchArgs = ['--area-code', '415', '--limit', '100']): Promise<any> {
  const pick = (await search(searchArgs)).find(want);
  expect(pick).toBeDefined();
  return JSON.parse(ok(await svcRun(['numbers', 'buy', pick!.phoneNumber, '--yes', '-o', 'json'])).stdout);
}

beforeAll(async () => {
  svc = await startTestService();
  // This file buys and registers more than a new account's wallet covers (contract §11).
  await fundAccount(svc, svc.bootstrap.accountId);
  tmp = mkdtempSync(join(tmpdir(), 'svc-cli-numbers-'));
});

afterAll(async () => {
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A context on a pretend terminal whose prompts are answered by `answers` (conventions 4: prompts are injected). */
function terminalContext(answers: Partial<Pick<Prompter, 'input' | 'confirm'>>): { ctx: CliContext; io: ReturnType<typeof createTestIO> } {
  const io = createTestIO({ stdoutTTY: false, stderrTTY: true, stdinTTY: true });
  const unexpected = async (): Promise<never> => {
    throw new Error('unexpected prompt');
  };
  const prompter: Prompter = { enabled: true, input: answers.input ?? unexpected, password: unexpected, confirm: answers.confirm ?? unexpected, select: unexpected };
  const env = { SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.bootstrap.liveKey, SVC_CONFIG_DIR: join(tmp, 'cfg') };
  const ctx = new CliContext({ io, env, homedir: tmp, binPath: '', prompter }, {});
  return { ctx, io };
}

describe('numbers search', () => {
  it('-o json keeps the API fields, monthlyPriceCents included', async () => {
    const found = await search(['--area-code', '415']);
    expect(found.length).toBe(20);
    for (const n of found) {
      expect(n.phoneNumber).toMatch(/^\+1415\d{7}$/);
      expect(n).toMatchObject({ type: 'local', monthlyPriceCents: expect.any(Number) });
    }
  });

  it('on a terminal: a table with the price in dollars', async () => {
    const res = ok(await svcRun(['numbers', 'search', '--area-code', '415', '--limit', '3'], { tty: true }));
    expect(res.stdout).toContain('monthly');
    expect(res.stdout).toContain(dollars((await search(['--area-code', '415', '--limit', '1']))[0]!.monthlyPriceCents));
    expect(res.stdout).toMatch(/\$\d+\.\d\d/);
    expect(res.stdout).not.toContain('monthlyPriceCents');
    expect(res.stdout).toContain('sms');
  });

  it('piped: tab-separated rows with the price in cents, no colour; csv, ndjson and ids too', async () => {
    const res = ok(await svcRun(['numbers', 'search', '--area-code', '415', '--limit', '3']));
    expect(res.stdout).not.toContain(ESC);
    const rows = lines(res.stdout).map((l) => l.split('\t'));
    expect(rows).toHaveLength(3);
    // phoneNumber, type, locality, region, capabilities.sms, .mms, .voice, monthlyPriceCents
    for (const r of rows) {
      expect(r[0]).toMatch(/^\+1415/);
      expect(r.at(-1)).toMatch(/^\d+$/);
    }
    const csv = lines(ok(await svcRun(['numbers', 'search', '--area-code', '415', '--limit', '3', '-o', 'csv'])).stdout);
    expect(csv[0]).toContain('monthlyPriceCents');
    expect(csv[0]).toContain('capabilities.sms');
    const nd = lines(ok(await svcRun(['numbers', 'search', '--area-code', '415', '--limit', '3', '-o', 'ndjson'])).stdout).map((l) => JSON.parse(l));
    expect(nd[0].monthlyPriceCents).toEqual(expect.any(Number));
    const ids = lines(ok(await svcRun(['numbers', 'search', '--area-code', '415', '--limit', '3', '-o', 'ids'])).stdout);
    expect(ids).toEqual(nd.map((n) => n.phoneNumber));
  });

  it('filters: --type tollfree, --contains, --capability (repeatable), --locality', async () => {
    const tf = await search(['--type', 'tollfree', '--limit', '5']);
    // every() of an empty list is true: each filter must find something for its check to mean anything.
    expect(tf.length).toBeGreaterThan(0);
    expect(tf.every((n) => n.type === 'tollfree')).toBe(true);
    const contains = await search(['--area-code', '415', '--contains', '7']);
    expect(contains.length).toBeGreaterThan(0);
    expect(contains.every((n) => n.phoneNumber.slice(2).includes('7'))).toBe(true);
    const mmsVoice = await search(['--area-code', '415', '--capability', 'mms', '--capability', 'voice', '--limit', '50']);
    expect(mmsVoice.length).toBeGreaterThan(0);
    expect(mmsVoice.every((n) => n.capabilities.mms && n.capabilities.voice)).toBe(true);
    const city = await search(['--area-code', '415', '--locality', 'San Francisco', '--limit', '5']);
    expect(city.length).toBeGreaterThan(0);
  });

  it('local validation is exit 2 naming the flag', async () => {
    for (const [args, flag] of [
      [['numbers', 'search'], '--area-code'],
      [['numbers', 'search', '--area-code', '41'], '--area-code'],
      [['numbers', 'search', '--area-code', '415', '--contains', 'abc'], '--contains'],
      [['numbers', 'search', '--area-code', '415', '--contains', '12345678'], '--contains'],
      [['numbers', 'search', '--area-code', '415', '--capability', 'fax'], '--capability'],
      [['numbers', 'search', '--area-code', '415', '--limit', '101'], '--limit'],
      [['numbers', 'search', '--type', 'mobile'], '--type'],
    ] as const) {
      const res = await svcRun([...args]);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toContain(flag);
    }
    // A city alone: the error names the flag and that city's area codes (contract §5).
    const austin = await svcRun(['numbers', 'search', '--locality', 'Austin']);
    expect(austin.code).toBe(2);
    expect(austin.stderr).toBe('error: --area-code: required for local numbers; area codes for Austin: 512, 737\n');
    ok(await svcRun(['numbers', 'search', '--area-code', '512', '--locality', 'Austin']));
  });
});

describe('numbers buy', () => {
  it('--yes buys the number (status idle)', async () => {
    const n = await buy();
    expect(n).toMatchObject({ id: expect.stringMatching(/^num_/), status: 'idle', type: 'local' });
    expect(await owned()).toContain(n.phoneNumber);
    // A bought number is no longer for sale.
    expect((await search(['--area-code', '415', '--limit', '100'])).map((x) => x.phoneNumber)).not.toContain(n.phoneNumber);
  });

  it('without --yes and without a terminal: exit 2 naming --yes, nothing bought', async () => {
    const pick = (await search(['--area-code', '415', '--limit', '1']))[0]!;
    const res = await svcRun(['numbers', 'buy', pick.phoneNumber]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--yes');
    // The confirmation it could not ask shows the monthly price.
    expect(res.stderr).toContain(`${dollars(pick.monthlyPriceCents)}/month`);
    expect(await owned()).not.toContain(pick.phoneNumber);
    expect((await search(['--area-code', '415', '--limit', '1']))[0]!.phoneNumber).toBe(pick.phoneNumber);
  });

  it('on a terminal the confirmation shows the price; declining buys nothing (exit 1: declined, not interrupted)', async () => {
    const pick = (await search(['--area-code', '415', '--limit', '1']))[0]!;
    const asked: string[] = [];
    const { ctx, io } = terminalContext({
      confirm: async (message) => {
        asked.push(message);
        return false;
      },
    });
    try {
      const err = await runBuy(ctx, { phoneNumber: pick.phoneNumber }).then(() => undefined, (e: unknown) => e);
      expect(reportError(err, ctx)).toBe(1);
      expect(io.err()).toContain('not confirmed; nothing was changed');
    } finally {
      await ctx.close();
    }
    expect(asked).toEqual([`Buy ${pick.phoneNumber} (local, San Francisco, CA) for ${dollars(pick.monthlyPriceCents)}/month?`]);
    expect(await owned()).not.toContain(pick.phoneNumber);
  });

  it('a number not for sale (taken, reserved, unknown area) is exit 5 and nothing is bought', async () => {
    const before = (await owned()).length;
    const taken = await buy();
    const again = await svcRun(['numbers', 'buy', taken.phoneNumber, '--yes']);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('not available');
    for (const e164 of ['+14155550100', '+19995551234', '+442079460000']) {
      const res = await svcRun(['numbers', 'buy', e164, '--yes']);
      expect(res.code, e164).toBe(5);
    }
    expect((await owned()).length).toBe(before + 1);
  });

  it('toll-free numbers are priced as toll-free; a malformed number is exit 2', async () => {
    const tf = (await search(['--type', 'tollfree', '--limit', '1']))[0]!;
    const res = await svcRun(['numbers', 'buy', tf.phoneNumber]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`tollfree`);
    expect(res.stderr).toContain(dollars(tf.monthlyPriceCents));
    const bad = await svcRun(['numbers', 'buy', '4155551234', '--yes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('<number>');
  });

  it('--dry-run prints the purchase and buys nothing', async () => {
    const pick = (await search(['--area-code', '415', '--limit', '1']))[0]!;
    const res = ok(await svcRun(['numbers', 'buy', pick.phoneNumber, '--dry-run']));
    expect(res.stdout).toContain('/v1/numbers/buy');
    expect(await owned()).not.toContain(pick.phoneNumber);
  });
});

describe('numbers list and get', () => {
  it('list: piped TSV, -o json/ndjson/csv/ids, filters', async () => {
    const tf = await buy((n) => n.type === 'tollfree', ['--type', 'tollfree', '--limit', '5']);
    const piped = ok(await svcRun(['numbers', 'list']));
    expect(piped.stdout).not.toContain(ESC);
    const rows = lines(piped.stdout).map((l) => l.split('\t'));
    expect(rows.map((r) => r[1])).toContain(tf.phoneNumber);
    expect(rows[0]![0]).toMatch(/^num_/);
    const json = JSON.parse(ok(await svcRun(['numbers', 'list', '-o', 'json'])).stdout);
    expect(json.length).toBe(rows.length);
    const nd = lines(ok(await svcRun(['numbers', 'list', '-o', 'ndjson'])).stdout);
    expect(nd.length).toBe(rows.length);
    const csv = lines(ok(await svcRun(['numbers', 'list', '-o', 'csv'])).stdout);
    expect(csv[0]).toMatch(/^id,phoneNumber,type,status/);
    expect(csv.join('\n')).not.toContain('[object Object]');
    const tfIds = lines(ok(await svcRun(['numbers', 'list', '--type', 'tollfree', '-o', 'ids'])).stdout);
    expect(tfIds).toEqual([tf.id]);
    expect((await svcRun(['numbers', 'list', '--status', 'gone'])).code).toBe(2);
    const byCampaign = ok(await svcRun(['numbers', 'list', '--campaign', 'no-such-campaign', '-o', 'json']));
    expect(JSON.parse(byCampaign.stdout)).toEqual([]);
  });

  it('get: by id or E.164; unknown is exit 4; a malformed E.164 is exit 2', async () => {
    const n = await buy();
    const byId = JSON.parse(ok(await svcRun(['numbers', 'get', n.id])).stdout);
    const byE164 = JSON.parse(ok(await svcRun(['numbers', 'get', n.phoneNumber])).stdout);
    expect(byId.id).toBe(n.id);
    expect(byE164.id).toBe(n.id);
    const table = ok(await svcRun(['numbers', 'get', n.phoneNumber], { tty: true }));
    expect(table.stdout).toContain(n.phoneNumber);
    expect((await svcRun(['numbers', 'get', 'num_nope'])).code).toBe(4);
    expect((await svcRun(['numbers', 'get', '+14155559999'])).code).toBe(4);
    const bad = await svcRun(['numbers', 'get', '+1-415']);
    expect(bad.code).toBe(2);
  });
});

describe('numbers update', () => {
  it('--label, --clear-label, --caller-id-name', async () => {
    const n = await buy();
    const labelled = JSON.parse(ok(await svcRun(['numbers', 'update', n.phoneNumber, '--label', 'Front desk'])).stdout);
    expect(labelled.label).toBe('Front desk');
    const cleared = JSON.parse(ok(await svcRun(['numbers', 'update', n.id, '--clear-label'])).stdout);
    expect(cleared.label).toBeNull();
    const cnam = JSON.parse(ok(await svcRun(['numbers', 'update', n.id, '--caller-id-name', 'ACME DENTAL'])).stdout);
    expect(cnam.callerIdName).toEqual({ name: 'ACME DENTAL', status: 'pending' });
  });

  it('local validation is exit 2 naming the flag, nothing changed', async () => {
    const n = await buy();
    for (const [args, flag] of [
      [[], '--label'],
      [['--label', 'a', '--clear-label'], '--clear-label'],
      [['--label', 'x'.repeat(65)], '--label'],
      [['--caller-id-name', 'A VERY LONG NAME INDEED'], '--caller-id-name'],
      [['--emergency-street', '1 Market St', '--emergency-city', 'San Francisco', '--emergency-state', 'CA'], '--emergency-zip'],
      [['--emergency-street', '1 Market St', '--emergency-city', 'San Francisco', '--emergency-state', 'California', '--emergency-zip', '94105'], '--emergency-state'],
      [['--emergency-zip', '94105', '--no-emergency'], '--no-emergency'],
    ] as const) {
      const res = await svcRun(['numbers', 'update', n.id, ...args]);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toContain(flag);
    }
    const after = (await svc.call('GET', `/v1/numbers/${n.id}`)).body;
    expect(after.label).toBeNull();
    expect(after.callerIdName.status).toBe('off');
  });

  it('an emergency address turns E911 on; --no-emergency turns it off', async () => {
    const n = await buy((x) => x.capabilities.voice && x.capabilities.sms);
    const addr = ['--emergency-street', '1 Market St', '--emergency-street2', 'Floor 3', '--emergency-city', 'San Francisco', '--emergency-state', 'ca', '--emergency-zip', '94105'];
    const on = JSON.parse(ok(await svcRun(['numbers', 'update', n.phoneNumber, ...addr])).stdout);
    expect(on.emergency).toMatchObject({ enabled: true, status: 'pending', address: { street: '1 Market St', street2: 'Floor 3', city: 'San Francisco', state: 'CA', zip: '94105' } });
    const off = JSON.parse(ok(await svcRun(['numbers', 'update', n.phoneNumber, '--no-emergency'])).stdout);
    expect(off.emergency).toMatchObject({ enabled: false, status: 'off' });
    const back = JSON.parse(ok(await svcRun(['numbers', 'update', n.phoneNumber, '--emergency'])).stdout);
    expect(back.emergency).toMatchObject({ enabled: true, status: 'pending' });
  });

  it('a ZIP that does not fit the state: exit 8 and the suggested address printed (no terminal)', async () => {
    const n = await buy((x) => x.capabilities.voice && x.capabilities.sms);
    const res = await svcRun(['numbers', 'update', n.id, '--emergency-street', '1 Market St', '--emergency-city', 'San Francisco', '--emergency-state', 'NY', '--emergency-zip', '94105']);
    expect(res.code).toBe(8);
    expect(res.stderr).toContain('error: address_suggestion');
    expect(res.stderr).toContain('  suggested address: 1 Market St, San Francisco, CA 94105');
    expect(res.stderr).toContain('--emergency-state CA');
    expect(res.stderr).not.toContain('{'); // the address in words, never raw JSON
    expect(res.stdout).toBe('');
    expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body.emergency.enabled).toBe(false);
    // -o json: the error envelope on stderr is JSON only.
    const json = await svcRun(['numbers', 'update', n.id, '-o', 'json', '--emergency-street', '1 Market St', '--emergency-city', 'San Francisco', '--emergency-state', 'NY', '--emergency-zip', '94105']);
    expect(json.code).toBe(8);
    expect(JSON.parse(json.stderr).error.details.suggested.state).toBe('CA');
  });

  it('on a terminal the suggested address is offered, and accepting resubmits it', async () => {
    const n = await buy((x) => x.capabilities.voice && x.capabilities.sms);
    const asked: string[] = [];
    for (const answer of [false, true]) {
      const { ctx, io } = terminalContext({
        confirm: async (message, o) => {
          asked.push(message);
          // An emergency address is where help is sent: the correction is never the default.
          expect(o.default).toBe(false);
          return answer;
        },
      });
      const opts = {
        number: n.phoneNumber,
        clearLabel: false,
        clearCallerIdName: false,
        label: 'HQ',
        address: { street: '1 Market St', city: 'San Francisco', state: 'NY', zip: '94105' },
      };
      try {
        if (!answer) {
          // Declined: the error stands (exit 8), nothing changed.
          const err = await runUpdate(ctx, opts).then(() => undefined, (e: unknown) => e);
          expect(reportError(err, ctx)).toBe(8);
          expect(io.err()).toContain('1 Market St, San Francisco, CA 94105');
          expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body.label).toBeNull();
        } else {
          await runUpdate(ctx, opts);
          const updated = JSON.parse(io.out());
          expect(updated.label).toBe('HQ');
          expect(updated.emergency).toMatchObject({ enabled: true, address: { state: 'CA', zip: '94105' } });
        }
      } finally {
        await ctx.close();
      }
    }
    expect(asked).toHaveLength(2);
  });
});

describe('numbers release and assign', () => {
  it('release: asks (exit 2 naming --yes without a terminal), --yes releases, again is exit 5', async () => {
    const n = await buy();
    const refused = await svcRun(['numbers', 'release', n.phoneNumber]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expect(await owned()).toContain(n.phoneNumber);
    const released = JSON.parse(ok(await svcRun(['numbers', 'release', n.phoneNumber, '--yes'])).stdout);
    expect(released).toMatchObject({ id: n.id, status: 'released', releasedAt: expect.any(String) });
    expect(await owned()).not.toContain(n.phoneNumber);
    expect(await owned('&status=released')).toContain(n.phoneNumber);
    const again = await svcRun(['numbers', 'release', n.id, '--yes']);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('error: conflict');
    // By E.164, a released number still resolves (the latest one released).
    expect(JSON.parse(ok(await svcRun(['numbers', 'get', n.phoneNumber])).stdout).status).toBe('released');
    const list = JSON.parse(ok(await svcRun(['numbers', 'list', '--status', 'released', '-o', 'json'])).stdout);
    expect(list.map((x: { id: string }) => x.id)).toContain(n.id);
  });

  it('assign: --campaign or --detach, exactly one; unknown campaign 4; toll-free 8', async () => {
    const n = await buy();
    expect((await svcRun(['numbers', 'assign', n.id])).code).toBe(2);
    const both = await svcRun(['numbers', 'assign', n.id, '--campaign', 'c1', '--detach']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--detach');
    const detached = JSON.parse(ok(await svcRun(['numbers', 'assign', n.phoneNumber, '--detach'])).stdout);
    expect(detached).toMatchObject({ status: 'idle', campaignId: null });
    const unknown = await svcRun(['numbers', 'assign', n.id, '--campaign', '00000000-0000-4000-8000-000000000000']);
    expect(unknown.code).toBe(4);
    const tf = await buy((x) => x.type === 'tollfree', ['--type', 'tollfree', '--limit', '5']);
    const tollfree = await svcRun(['numbers', 'assign', tf.id, '--detach']);
    expect(tollfree.code).toBe(8);
    expect(tollfree.stderr).toContain('error: channel_unsupported');
  });
});

describe('numbers verify-tollfree', () => {
  const flags = [
    '--business-name', 'Acme Dental',
    '--website', 'https://acme.example',
    '--use-case', 'appointment reminders',
    '--use-case-summary', 'Reminders the day before each visit',
    '--sample-message', 'Acme: see you tomorrow at 3pm. Reply STOP to opt out.',
    '--opt-in-workflow', 'Patients tick a box on the intake form',
    '--monthly-volume', '2000',
  ];
  const tollfreeNumber = () => buy((x) => x.type === 'tollfree', ['--type', 'tollfree', '--limit', '10']);
  const advance = async (seconds: number) => expect((await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds } })).status).toBe(200);

  it('with flags: tfvStatus pending, verified by the carrier 72 h later', async () => {
    const n = await tollfreeNumber();
    const res = JSON.parse(ok(await svcRun(['numbers', 'verify-tollfree', n.phoneNumber, ...flags])).stdout);
    expect(res.tfvStatus).toBe('pending');
    await advance(72 * 3600 + 60);
    expect(JSON.parse(ok(await svcRun(['numbers', 'get', n.id])).stdout).tfvStatus).toBe('verified');
  });

  it('--from-file (YAML): flags override the file', async () => {
    const n = await tollfreeNumber();
    const file = join(tmp, 'tfv.yaml');
    // The file lacks the website and opt-out words: the carrier would reject it...
    writeFileSync(
      file,
      [
        'businessName: Acme Dental',
        'use-case: appointment reminders',
        'useCaseSummary: Reminders the day before each visit',
        'sampleMessage: "see you tomorrow"',
        'optInWorkflow: Patients tick a box',
        'monthlyVolume: 500',
        '',
      ].join('\n'),
    );
    // ...but the flags fix both.
    const res = ok(await svcRun(['numbers', 'verify-tollfree', n.id, '--from-file', file, '--website', 'https://acme.example', '--sample-message', 'Reply STOP to opt out']));
    expect(JSON.parse(res.stdout).tfvStatus).toBe('pending');
    await advance(72 * 3600 + 60);
    expect(JSON.parse(ok(await svcRun(['numbers', 'get', n.id])).stdout).tfvStatus).toBe('verified');
  });

  it('--from-file (JSON) as is: rejected by the carrier for the missing website', async () => {
    const n = await tollfreeNumber();
    const file = join(tmp, 'tfv.json');
    writeFileSync(
      file,
      JSON.stringify({
        businessName: 'Acme',
        useCase: 'alerts',
        useCaseSummary: 'Alerts',
        sampleMessage: 'Alert! Reply STOP to opt out',
        optInWorkflow: 'web form',
        monthlyVolume: 100,
      }),
    );
    ok(await svcRun(['numbers', 'verify-tollfree', n.id, '--from-file', file]));
    await advance(72 * 3600 + 60);
    const after = JSON.parse(ok(await svcRun(['numbers', 'get', n.id])).stdout);
    expect(after.tfvStatus).toBe('rejected');
    expect(after.tfvRejectionReason).toContain('website');
  });

  it('missing fields without a terminal: exit 2 naming the flags, nothing submitted', async () => {
    const n = await tollfreeNumber();
    const res = await svcRun(['numbers', 'verify-tollfree', n.id, '--business-name', 'Acme']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--use-case');
    expect(res.stderr).toContain('--monthly-volume');
    const vol = await svcRun(['numbers', 'verify-tollfree', n.id, ...flags.slice(0, -1), 'lots']);
    expect(vol.code).toBe(2);
    expect(vol.stderr).toContain('--monthly-volume');
    const file = join(tmp, 'bad.yaml');
    writeFileSync(file, 'businessName: Acme\nfavouriteColour: blue\n');
    const unknown = await svcRun(['numbers', 'verify-tollfree', n.id, '--from-file', file]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('favouriteColour');
    // --from-file is the older name of --answers: one of them.
    const both = await svcRun(['numbers', 'verify-tollfree', n.id, '--from-file', file, '--answers', file]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--from-file is another name for --answers');
    writeFileSync(file, 'businessName: [unclosed\n');
    expect((await svcRun(['numbers', 'verify-tollfree', n.id, '--from-file', file])).code).toBe(2);
    expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body.tfvStatus).toBe('unverified');
  });

  it('on a terminal, missing fields are asked for (the website too), and flags are not asked again', async () => {
    const n = await tollfreeNumber();
    const asked: string[] = [];
    const answers: Record<string, string> = {
      '--website': 'https://acme.example',
      '--use-case-summary': 'Reminders the day before',
      '--opt-in-workflow': 'Intake form checkbox',
      '--monthly-volume': '1,500',
    };
    const { ctx, io } = terminalContext({
      input: async (_message, o) => {
        asked.push(o.flag);
        return answers[o.flag] ?? '';
      },
    });
    try {
      await runVerifyTollfree(ctx, {
        number: n.phoneNumber,
        fields: { businessName: 'Acme', useCase: 'reminders', sampleMessage: 'See you soon. Reply STOP to opt out' },
      });
    } finally {
      await ctx.close();
    }
    expect(asked).toEqual(['--website', '--use-case-summary', '--opt-in-workflow', '--monthly-volume']);
    expect(JSON.parse(io.out()).tfvStatus).toBe('pending');
    await advance(72 * 3600 + 60);
    expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body.tfvStatus).toBe('verified');
  });

  it('--answers with flags: every missing or invalid answer in one error, each with its flag; then accepted', async () => {
    const n = await tollfreeNumber();
    const file = join(tmp, 'answers.yaml');
    writeFileSync(file, 'businessName: Acme Dental\nwebsite: acme.example\nmonthly-volume: 2000\n');
    const res = await svcRun(['numbers', 'verify-tollfree', n.id, '--answers', file, '--use-case', 'reminders']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('4 answers are missing or invalid');
    for (const flag of ['--website: "acme.example" must be an http(s) URL', '--use-case-summary: required', '--sample-message: required', '--opt-in-workflow: required']) expect(res.stderr).toContain(flag);
    expect((await svc.call('GET', `/v1/numbers/${n.id}`)).body.tfvStatus).toBe('unverified');
    const fixed = ['--website', 'https://acme.example', '--use-case-summary', 'Reminders', '--sample-message', 'Reply STOP to opt out', '--opt-in-workflow', 'Form'];
    const done = ok(await svcRun(['numbers', 'verify-tollfree', n.id, '--answers', file, '--use-case', 'reminders', ...fixed]));
    expect(JSON.parse(done.stdout).tfvStatus).toBe('pending');
  });

  it('a local number is exit 5', async () => {
    const n = await buy();
    const res = await svcRun(['numbers', 'verify-tollfree', n.id, ...flags]);
    expect(res.code).toBe(5);
  });
});

describe('help', () => {
  it('every numbers verb has --help with an example', async () => {
    for (const verb of ['search', 'buy', 'list', 'get', 'update', 'release', 'assign', 'verify-tollfree']) {
      const res = ok(await svcRun(['numbers', verb, '--help']));
      expect(res.stdout, verb).toContain(`$ svc numbers ${verb}`);
    }
  });
});
