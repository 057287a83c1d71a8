// `svc routes get|apply|diff|edit` and `svc numbers greeting` in-process against the real local
// service on loopback (cli.md "Routes as code").
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { runSvc, expectOk, type RunSvcOptions } from './helpers/cli.js';
import { buy } from './messages-fixtures.js';

let svc: TestService;
let tmp: string;
beforeAll(async () => {
  svc = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-routes-cli-'));
});
afterAll(async () => {
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const svcRun = (args: string[], opts: Omit<RunSvcOptions, 'service'> = {}) => runSvc(args, { service: svc, ...opts });
const routeOf = (id: string) => `/v1/numbers/${id}/route`;

/** A route with every part: two destinations, settings, a notice and an IVR. */
const FULL = {
  ringMode: 'staged',
  recordCalls: true,
  voicemailEnabled: true,
  voicemailGreeting: 'Leave a message',
  destinations: [
    { destinationType: 'pstn', destination: '+14155550101', label: 'Front desk', stage: 0, ringTimeoutSecs: 20 },
    { destinationType: 'sip', destination: 'sip:alice@example.com', stage: 1 },
  ],
  noAnswerAction: { type: 'voicemail' },
  recordingNotice: { text: 'This call is recorded' },
  ivr: {
    enabled: true,
    greeting: { text: 'Press 1 for sales' },
    keys: [
      { digit: '1', label: 'Sales', action: { type: 'ring', destinations: [{ destinationType: 'pstn', destination: '+14155550102' }] } },
      { digit: '9', action: { type: 'voicemail' } },
    ],
  },
};

async function numberWithRoute(body: unknown = FULL): Promise<string> {
  const n = await buy(svc, { areaCode: '212' });
  if (body !== null) expect((await svc.call('PUT', routeOf(n.id), { body })).status).toBe(200);
  return n.id as string;
}

const file = (name: string, text: string) => {
  const path = join(tmp, name);
  writeFileSync(path, text);
  return path;
};

describe('svc routes get', () => {
  it('shows a summary on a terminal: settings, the ring set as a table, the IVR as a tree', async () => {
    const id = await numberWithRoute();
    const out = expectOk(await svcRun(['routes', 'get', id], { tty: true, env: { NO_COLOR: '1' } })).stdout;
    expect(out).toMatch(/ring mode\s+staged/);
    expect(out).toMatch(/voicemail\s+on, greeting "Leave a message"/);
    expect(out).toMatch(/STAGE\s+PRIORITY/i);
    expect(out).toMatch(/\+14155550101.*Front desk.*20s/);
    expect(out).toMatch(/├─ 1 Sales → ring \(simultaneous\): \+14155550102/);
    expect(out).toMatch(/└─ fallback → voicemail/);
  });

  it('says how to write a route when the number has none', async () => {
    const id = await numberWithRoute(null);
    const out = expectOk(await svcRun(['routes', 'get', id], { tty: true })).stdout;
    expect(out).toContain(`svc routes edit ${id}`);
    expect(JSON.parse(expectOk(await svcRun(['routes', 'get', id, '-o', 'json'])).stdout)).toEqual({ route: null, features: ['ivr', 'decisionWebhook', 'recordingNotice'] });
  });

  it('-o json is the API wrapper; -o yaml the PUT body without read-only fields', async () => {
    const id = await numberWithRoute();
    const json = JSON.parse(expectOk(await svcRun(['routes', 'get', id, '-o', 'json'])).stdout);
    expect(Object.keys(json)).toEqual(['route', 'features']);
    expect(json.route.id).toMatch(/^rte_/);
    const yaml = expectOk(await svcRun(['routes', 'get', id, '-o', 'yaml'])).stdout;
    expect(yaml).not.toMatch(/\bid:|priority:|features:|voicemailGreetingAudioUrl:|^destinationType:/m);
    expect(yaml).toMatch(/^destinations:/m);
  });
});

describe('svc routes apply and diff', () => {
  it('round-trips: get -o yaml, then diff says no change (exit 0) and apply saves the same route', async () => {
    const id = await numberWithRoute();
    const before = (await svc.call('GET', routeOf(id))).body.route;
    const path = file('round.yaml', expectOk(await svcRun(['routes', 'get', id, '-o', 'yaml'])).stdout);
    const diff = await svcRun(['routes', 'diff', id, '-f', path]);
    expect(diff).toMatchObject({ code: 0, stdout: 'no changes\n' });
    const applied = JSON.parse(expectOk(await svcRun(['routes', 'apply', id, '-f', path, '-o', 'json'])).stdout);
    const strip = (r: any) => JSON.parse(JSON.stringify(r, (k, v) => (k === 'id' ? undefined : v)));
    expect(strip(applied.route)).toEqual(strip(before));
    expect(expectOk(await svcRun(['routes', 'get', id, '-o', 'yaml'])).stdout).toBe(readFileSync(path, 'utf8'));
  });

  it('diff: a plan of +/~/- lines per part with a closing count, exit 1; omitted defaults are no change', async () => {
    const id = await numberWithRoute();
    const doc = {
      ...FULL,
      recordCalls: false,
      destinations: [{ ...FULL.destinations[0], ringTimeoutSecs: 30 }, { destinationType: 'pstn', destination: '+14155550109', label: 'Back office' }],
      ivr: { ...FULL.ivr, keys: [FULL.ivr.keys[0], { digit: '0', action: { type: 'repeat' } }] },
    };
    const res = await svcRun(['routes', 'diff', id, '-f', file('plan.json', JSON.stringify(doc))]);
    expect(res.code, res.stderr).toBe(1);
    const lines = res.stdout.split('\n');
    expect(lines).toContain('~ recordCalls: true → false');
    expect(lines).toContain('~ destinations["Front desk"].ringTimeoutSecs: 20 → 30');
    expect(lines.some((l) => l.startsWith('+ destinations["Back office"]: '))).toBe(true);
    expect(lines.some((l) => l.startsWith('- destinations["sip:alice@example.com"]: '))).toBe(true);
    expect(lines.some((l) => l.startsWith('+ ivr.keys["0"]: '))).toBe(true);
    expect(lines.some((l) => l.startsWith('- ivr.keys["9"]: '))).toBe(true);
    expect(lines).toContain('2 to add, 2 to change, 2 to remove');
    // FULL omits enabled, callerIdMode, stage of the sip entry, the IVR's timeouts: their defaults.
    expect(await svcRun(['routes', 'diff', id, '-f', file('same.json', JSON.stringify(FULL))])).toMatchObject({ code: 0, stdout: 'no changes\n' });
  });

  it('diff against a number with no route adds everything; a missing number is exit 4', async () => {
    const id = await numberWithRoute(null);
    const res = await svcRun(['routes', 'diff', id, '-f', file('new.json', JSON.stringify({ destinationType: 'pstn', destination: '+14155550101' }))]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('+ destinations["+14155550101"]: ');
    expect((await svcRun(['routes', 'diff', 'num_doesnotexist', '-f', file('x.json', '{}')])).code).toBe(4);
  });

  it('apply names every problem by YAML path and line (exit 2) and sends nothing', async () => {
    const id = await numberWithRoute();
    const before = (await svc.call('GET', routeOf(id))).body;
    const bad = file('bad.yaml', 'ringMode: loud\ndestinations:\n  - destinationType: pstn\n    destination: "+14155550101"\n    stage: 9\n');
    const res = await svcRun(['routes', 'apply', id, '-f', bad]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`${bad}:1: ringMode: `);
    expect(res.stderr).toContain(`${bad}:5: destinations[0].stage: `);
    expect(res.stderr).toContain('2 problems');
    const broken = await svcRun(['routes', 'apply', id, '-f', file('broken.yaml', 'ringMode: [\n')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/broken\.yaml:\d+: \(yaml\): /);
    expect((await svc.call('GET', routeOf(id))).body).toEqual(before);
  });

  it('apply reads stdin, prints the saved route; --dry-run prints the change and sends nothing', async () => {
    const id = await numberWithRoute(null);
    const doc = JSON.stringify({ destinations: [{ destinationType: 'pstn', destination: '+14155550101', label: 'Desk' }] });
    const dry = await svcRun(['routes', 'apply', id, '-f', '-', '--dry-run'], { stdin: doc });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('+ destinations["Desk"]: ');
    expect(dry.stdout).toMatch(/PUT .*\/route/);
    expect((await svc.call('GET', routeOf(id))).body.route).toBeNull();
    const yaml = expectOk(await svcRun(['routes', 'apply', id, '-f', '-', '-o', 'yaml'], { stdin: doc })).stdout;
    expect(yaml).toContain('label: Desk');
    expect((await svc.call('GET', routeOf(id))).body.route.destinations[0].label).toBe('Desk');
  });

  it("the service's own checks come back as a validation error (exit 2) naming the field", async () => {
    const id = await numberWithRoute(null);
    const res = await svcRun(['routes', 'apply', id, '-f', file('webrtc.json', JSON.stringify({ destinations: [{ destinationType: 'webrtc', destination: 'dev_nope' }] }))]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('destinations');
  });
});
