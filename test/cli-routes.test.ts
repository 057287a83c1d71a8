// `svc routes get|apply|diff|edit` and `svc numbers greeting` in-process against the real local
// service on loopback (cli.md "Routes as code").
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { fundAccount } from './helpers/money.js';
import { runSvc, expectOk, type RunSvcOptions } from './helpers/cli.js';
import { buy } from './messages-fixtures.js';
import { editWhileChangedElsewhere, scriptedEditor as sharedScriptedEditor, type EditorStep } from './helpers/scripted-editor.js';

let svc: TestService;
let tmp: string;
beforeAll(async () => {
  svc = await startTestService();
  // This file buys and registers more than a new account's wallet covers (contract §11).
  await fundAccount(svc, svc.bootstrap.accountId);
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

// --- the editor loop --------------------------------------------------------------------------

/** The shared scripted $EDITOR (test/helpers/scripted-editor.ts), in this file's temp dir. */
const scriptedEditor = (steps: EditorStep[]) => sharedScriptedEditor(tmp, steps);

const edit = (id: string, editor: string, extra: string[] = [], env: Record<string, string | undefined> = {}) =>
  svcRun(['routes', 'edit', id, ...extra], { tty: true, env: { EDITOR: editor, NO_COLOR: '1', EDIT_NUMBER: id, ...env } });

describe('svc routes edit', () => {
  it('saved unchanged: `no changes`, exit 0, nothing sent; the header names fields and bounds', async () => {
    const id = await numberWithRoute();
    const before = (await svc.call('GET', routeOf(id))).body;
    const ed = scriptedEditor([() => undefined]);
    const res = await edit(id, ed.editor);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('no changes');
    expect((await svc.call('GET', routeOf(id))).body).toEqual(before);
    const shown = ed.seen(0);
    expect(shown).toContain('ringMode: simultaneous|sequential|staged (default simultaneous)');
    expect(shown).toContain('ringTimeoutSecs: 5-120 (default 25)');
    expect(shown).toContain('keys: 1-12 of');
    expect(shown).toContain('label: Front desk');
  });

  it('a number with no route gets a commented template ($VISUAL before $EDITOR)', async () => {
    const id = await numberWithRoute(null);
    const ed = scriptedEditor([() => undefined]);
    const res = await edit(id, 'false', [], { VISUAL: ed.editor });
    expect(res.code, res.stderr).toBe(0);
    expect(ed.seen(0)).toContain('# This number has no call route yet');
    expect((await svc.call('GET', routeOf(id))).body.route).toBeNull();
  });

  it('saved empty: cancelled, exit 1, nothing sent', async () => {
    const id = await numberWithRoute();
    const before = (await svc.call('GET', routeOf(id))).body;
    const res = await edit(id, scriptedEditor([() => '']).editor);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('cancelled');
    expect((await svc.call('GET', routeOf(id))).body).toEqual(before);
  });

  it('an invalid edit re-opens with the errors at the top (naming the line of that file) and above the line; the fix is shown and sent, no stale error on stderr', async () => {
    const id = await numberWithRoute();
    const ed = scriptedEditor([(t) => t.replace('ringMode: staged', 'ringMode: loud'), (t) => t.replace('ringMode: loud', 'ringMode: sequential')]);
    const res = await edit(id, ed.editor, ['--yes']);
    expect(res.code, res.stderr).toBe(0);
    // The fixed problem is not left on the terminal above the plan.
    expect(res.stderr).not.toMatch(/error: line \d+/);
    const second = ed.seen(1).split('\n');
    expect(second[0]).toMatch(/^# error: not sent: 1 problem/);
    const at = second.findIndex((l) => l === 'ringMode: loud');
    expect(second[1]).toBe(`# error:   line ${at + 1}: ringMode: ${second[1]!.split(': ringMode: ')[1]}`);
    expect(second[at - 1]).toMatch(/^# error: ringMode: /);
    expect(res.stdout).toContain('~ ringMode: "staged" → "sequential"');
    expect(res.stdout).toContain('0 to add, 1 to change, 0 to remove');
    expect((await svc.call('GET', routeOf(id))).body.route.ringMode).toBe('sequential');
  });

  it("the service's own check re-opens the editor too (a webrtc device that does not exist)", async () => {
    const id = await numberWithRoute();
    const ed = scriptedEditor([
      (t) => t.replace('destinationType: sip\n    destination: sip:alice@example.com', 'destinationType: webrtc\n    destination: dev_missing'),
      (t) => t.replace('destinationType: webrtc', 'destinationType: sip').replace('destination: dev_missing', 'destination: sip:bob@example.com'),
    ]);
    const res = await edit(id, ed.editor, ['--yes']);
    expect(res.code, res.stderr).toBe(0);
    expect(ed.seen(1)).toMatch(/# error: .*destinations\[1\]/);
    expect((await svc.call('GET', routeOf(id))).body.route.destinations[1].destination).toBe('sip:bob@example.com');
  });

  it('giving up after an error keeps the text in a file and prints the apply command (exit 1)', async () => {
    const id = await numberWithRoute();
    const ed = scriptedEditor([(t) => t.replace('ringMode: staged', 'ringMode: loud'), () => undefined]);
    const res = await edit(id, ed.editor, ['--yes']);
    expect(res.code).toBe(1);
    const kept = /svc routes apply \S+ -f (\S+)/.exec(res.stderr)?.[1];
    expect(kept, res.stderr).toBeDefined();
    const text = readFileSync(kept!, 'utf8');
    expect(text).toContain('ringMode: loud');
    expect(text).not.toContain('# error: ');
    rmSync(join(kept!, '..'), { recursive: true, force: true });
  });

  it('--yes: a change made on the service while the editor is open is said, planned against, and refused unread (exit 5): nothing overwritten, the edit kept', async () => {
    const id = await numberWithRoute();
    const ed = scriptedEditor([editWhileChangedElsewhere]);
    const res = await edit(id, ed.editor, ['--yes'], {
      OTHER_ROUTE: JSON.stringify({ ...FULL, voicemailGreeting: 'Changed elsewhere' }),
      EDIT_FROM: 'Leave a message',
      EDIT_TO: 'We will call you back',
    });
    expect(res.code, res.stderr).toBe(5);
    expect(res.stderr).toContain(`the route of ${id} changed on the service while you were editing; the plan below is against the route saved now`);
    expect(res.stderr).toContain('--yes confirms unread; nothing was overwritten');
    // The base of the plan is the route saved now, not the one the editor was given.
    expect(ed.seen(0)).toContain('Leave a message');
    expect(res.stdout).toContain('~ voicemailGreeting: "Changed elsewhere" → "We will call you back"');
    expect(res.stdout).not.toContain('"Leave a message" →');
    const route = (await svc.call('GET', routeOf(id))).body.route;
    expect(route.voicemailGreeting).toBe('Changed elsewhere');
    const kept = /svc routes apply \S+ -f (\S+)/.exec(res.stderr)?.[1];
    expect(kept, res.stderr).toBeDefined();
    expect(readFileSync(kept!, 'utf8')).toContain('We will call you back');
    rmSync(join(kept!, '..'), { recursive: true, force: true });
  });

  it('--dry-run reads the route, shows the change and the PUT, and sends nothing', async () => {
    const id = await numberWithRoute();
    const before = (await svc.call('GET', routeOf(id))).body;
    const res = await edit(id, scriptedEditor([(t) => t.replace('ringMode: staged', 'ringMode: sequential')]).editor, ['--dry-run']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('~ ringMode: "staged" → "sequential"');
    expect(res.stdout).toMatch(/PUT .*\/route/);
    expect((await svc.call('GET', routeOf(id))).body).toEqual(before);
  });

  it('refuses without a terminal, with --no-input or CI (exit 2), naming apply', async () => {
    const id = await numberWithRoute();
    for (const run of [
      () => svcRun(['routes', 'edit', id], { env: { EDITOR: 'false' } }),
      () => edit(id, 'false', ['--no-input']),
      () => edit(id, 'false', [], { CI: 'true' }),
    ]) {
      const res = await run();
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`svc routes apply ${id} -f`);
    }
  });
});

describe('svc numbers greeting', () => {
  const MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(64, 1)]);
  const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVE'), Buffer.alloc(64, 2)]);

  it('uploads with the type from the extension or --content-type and prints the new URL', async () => {
    const id = await numberWithRoute();
    const mp3 = join(tmp, 'hello.mp3');
    writeFileSync(mp3, MP3);
    const res = expectOk(await svcRun(['numbers', 'greeting', id, mp3]));
    const url = res.stdout.trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/.+\.mp3$/);
    const fetched = await fetch(url);
    expect(fetched.headers.get('content-type')).toContain('audio/mpeg');
    expect(Buffer.from(await fetched.arrayBuffer())).toEqual(MP3);
    expect((await svc.call('GET', routeOf(id))).body.route.voicemailGreetingAudioUrl).toBe(url);

    const bin = join(tmp, 'hello.bin');
    writeFileSync(bin, WAV);
    const json = JSON.parse(expectOk(await svcRun(['numbers', 'greeting', id, bin, '--content-type', 'audio/wav', '-o', 'json'])).stdout);
    expect(json.greetingAudioUrl).toMatch(/\.wav$/);
    expect(json.greetingAudioUrl).not.toBe(url);
  });

  it('an unknown extension without --content-type is a usage error naming the flag', async () => {
    const id = await numberWithRoute();
    const res = await svcRun(['numbers', 'greeting', id, file('x.bin', 'abc')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--content-type');
  });
});
