// `svc opt-outs list` and the refused `svc messages send` (contract §4, "Opt-out keywords"), driven
// in-process against the real local service: a consumer texts STOP through `svc trigger`, the list
// shows it, and a send to them exits 8 saying who opted out of what, when and with which word.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { expectOk, runSvc, type RunSvcOptions } from './helpers/cli.js';
import { buy, messageCount } from './messages-fixtures.js';
import { EXIT } from '../src/cli/exit-codes.js';

const CONSUMER = '+14155550141';
const OTHER_CONSUMER = '+14155550142';

let svc: TestService;
let mine: string;
let other: string;
let stoppedAt: string;

type RunOpts = Omit<RunSvcOptions, 'service'>;
const svcRun = (args: string[], opts: RunOpts = {}) => runSvc(args, { service: svc, key: svc.bootstrap.testKey, ...opts });
const lines = (text: string) => text.split('\n').filter((l) => l !== '');

beforeAll(async () => {
  svc = await startTestService();
  mine = (await buy(svc, { key: svc.bootstrap.testKey })).phoneNumber;
  other = (await buy(svc, { key: svc.bootstrap.testKey, areaCode: '212' })).phoneNumber;
  expectOk(await svcRun(['trigger', 'message.received', '--to', mine, '--from', CONSUMER, '--body', 'STOP']));
  stoppedAt = new Date(svc.now()).toISOString();
  await svc.advanceJobs(1);
  expectOk(await svcRun(['trigger', 'message.received', '--to', other, '--from', OTHER_CONSUMER, '--body', ' unsubscribe ']));
});
afterAll(async () => {
  await svc?.stop();
});

describe('svc opt-outs list', () => {
  it('prints the opt-outs newest first: tab-separated when piped, the API shape with -o json', async () => {
    const piped = lines(expectOk(await svcRun(['opt-outs', 'list'])).stdout).map((l) => l.split('\t'));
    // id, from, phoneNumber, keyword, createdAt
    expect(piped.map((cells) => cells.slice(1, 4))).toEqual([
      [other, OTHER_CONSUMER, 'UNSUBSCRIBE'],
      [mine, CONSUMER, 'STOP'],
    ]);
    expect(piped[1]![0]).toMatch(/^opt_/);
    expect(piped[1]![4]).toBe(stoppedAt);

    const json = JSON.parse(expectOk(await svcRun(['opt-outs', 'list', '-o', 'json'])).stdout);
    expect(json.map((o: any) => Object.keys(o).sort())).toEqual([
      ['createdAt', 'from', 'id', 'keyword', 'numberId', 'phoneNumber'],
      ['createdAt', 'from', 'id', 'keyword', 'numberId', 'phoneNumber'],
    ]);
  });

  it('--from and --phone-number narrow it; a malformed number is a usage error naming the flag (exit 2)', async () => {
    const ids = async (args: string[]) => JSON.parse(expectOk(await svcRun(['opt-outs', 'list', ...args, '-o', 'json'])).stdout).map((o: any) => o.phoneNumber);
    expect(await ids(['--from', mine])).toEqual([CONSUMER]);
    expect(await ids(['--phone-number', OTHER_CONSUMER])).toEqual([OTHER_CONSUMER]);
    expect(await ids(['--from', mine, '--phone-number', OTHER_CONSUMER])).toEqual([]);

    const bad = await svcRun(['opt-outs', 'list', '--phone-number', '4155550141']);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toContain('--phone-number');
  });

  it('says so on a terminal when there are none; piped, prints nothing', async () => {
    expect(expectOk(await svcRun(['opt-outs', 'list', '--from', '+15005550006'])).stdout).toBe('');
    expect(expectOk(await svcRun(['opt-outs', 'list', '--from', '+15005550006'], { tty: true })).stderr).toContain('no opt-outs found');
  });
});

describe('svc messages send to a consumer who opted out', () => {
  it('exits 8, says who opted out of which number, when and with which word; nothing is sent', async () => {
    const before = await messageCount(svc);
    const res = await svcRun(['messages', 'send', '--from', mine, '--to', CONSUMER, '--body', 'sale today']);
    expect(res.code).toBe(EXIT.unsupported);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('error: channel_unsupported:');
    expect(res.stderr).toContain(`${CONSUMER} opted out of ${mine} at ${stoppedAt} with STOP`);
    expect(res.stderr).toContain(`svc opt-outs list --from ${mine}`);
    expect(await messageCount(svc)).toBe(before);

    // -o json: the API's envelope, details as the contract gives them.
    const json = await svcRun(['messages', 'send', '--from', mine, '--to', CONSUMER, '--body', 'sale today', '-o', 'json']);
    expect(json.code).toBe(EXIT.unsupported);
    expect(JSON.parse(json.stderr).error).toMatchObject({ code: 'channel_unsupported', details: { reason: 'opted_out', keyword: 'STOP', at: stoppedAt } });
  });

  it('sends from another number, and after the consumer texts START', async () => {
    expectOk(await svcRun(['messages', 'send', '--from', other, '--to', CONSUMER, '--body', 'hi']));
    expectOk(await svcRun(['trigger', 'message.received', '--to', mine, '--from', CONSUMER, '--body', 'start']));
    expectOk(await svcRun(['messages', 'send', '--from', mine, '--to', CONSUMER, '--body', 'welcome back']));
    const left = JSON.parse(expectOk(await svcRun(['opt-outs', 'list', '-o', 'json'])).stdout);
    expect(left.map((o: any) => o.phoneNumber)).toEqual([OTHER_CONSUMER]);
  });
});
