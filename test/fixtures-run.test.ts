// `svc fixtures run` end to end (cli.md "Fixtures and state"): the built CLI as a child
// process against the real local service (manual clock: fixtures move it with `clock:` steps).
// Every shipped example runs green; references, repeat, waits and expect; a bad reference refused
// before any request; --cleanup leaves the account as it was. Needs `npm run build`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { assertBuilt, BIN_PATH, expectOk, REPO_ROOT, runSvcProcess } from './helpers/cli.js';
import { openTerminal, shellEnvFor } from './helpers/terminal.js';
import { approvedCampaign } from './registration-fixtures.js';

let svc: TestService;
let dir: string;
/** An approved (mock, free) campaign: the scenario's live sends need one. */
let campaignId: string;

beforeAll(async () => {
  assertBuilt();
  svc = await startTestService();
  dir = mkdtempSync(join(tmpdir(), 'svc-fixtures-'));
  campaignId = (await approvedCampaign(svc)).id;
});

afterAll(async () => {
  await svc?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Test keys send without a 10DLC campaign and move no money: a fixture's scenario, not billing. */
const run = (args: string[]) => runSvcProcess(['fixtures', 'run', ...args], { service: svc, key: svc.bootstrap.testKey, timeoutMs: 60_000 });
/**
 * A fixture with a `clock:` step runs with the live key: the sandbox clock is shared by every
 * account and its advance runs their renewals, so a test key may not move it (contract §2).
 */
const runLive = (args: string[]) => runSvcProcess(['fixtures', 'run', ...args], { service: svc, key: svc.bootstrap.liveKey, timeoutMs: 60_000 });
/** The scenario below, run live with the campaign its sends need. */
const runScenario = (args: string[]) => runLive([...args, '--param', `campaign=${campaignId}`]);
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const ndjson = (text: string) => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, any>);
const list = async (path: string) => {
  const res = await svc.call('GET', `${path}?limit=100`, { key: svc.bootstrap.testKey });
  expect(res.status).toBe(200);
  return res.body.data as Array<Record<string, any>>;
};
/** What an account holds: its numbers still owned, its webhook endpoints, its domains. */
const holdings = async () => ({
  numbers: (await list('/v1/numbers')).filter((n) => n.status !== 'released').map((n) => n.id).sort(),
  webhooks: (await list('/v1/webhooks')).map((w) => w.id).sort(),
  domains: (await list('/v1/domains')).map((d) => d.id).sort(),
});

describe('the shipped examples run green', () => {
  // The examples with a `clock:` step run as their headers say (the default, live profile).
  const withClock = new Set(['email-domain', 'ivr-voicemail']);
  for (const name of ['sms-auto-responder', 'email-domain', 'ivr-voicemail', 'mock-10dlc']) {
    it(`examples/${name}.yaml`, async () => {
      const res = expectOk(await (withClock.has(name) ? runLive : run)([join(REPO_ROOT, 'examples', `${name}.yaml`), '-o', 'ndjson']));
      const steps = ndjson(res.stdout);
      expect(steps.length).toBeGreaterThan(2);
      for (const s of steps) expect(s, JSON.stringify(s)).toMatchObject({ ok: true });
    });
  }
});

const SCENARIO = `
params: { areaCode: "415", greeting: hi, campaign: none }
steps:
  - name: found
    request: { method: POST, path: /v1/numbers/search, body: { areaCode: "\${params.areaCode}", capabilities: [sms], limit: 1 } }
  - name: number
    request: { method: POST, path: /v1/numbers/buy, body: { phoneNumber: "\${found.data.0.phoneNumber}" } }
    expect: { status: 201, body: { status: idle, phoneNumber: "\${found.data.0.phoneNumber}" } }
  - name: assigned
    request: { method: POST, path: "/v1/numbers/\${number.id}/assign", body: { campaignId: "\${params.campaign}" } }
  - name: hello
    repeat: 3
    request: { method: POST, path: /v1/messages, body: { from: "\${number.phoneNumber}", to: "+1415555010\${i}", body: "\${params.greeting} \${i} from \${env.FIXTURE_SENDER|a fixture}" } }
    expect: { body: { direction: outbound } }
  - clock: 1m
  - name: delivered
    wait: { type: message.status, match: { status: delivered }, count: 3, timeout: 10s }
  - name: lastDelivered
    wait: { type: message.status, match: { status: delivered, messageId: "\${hello.id}" }, timeout: 10s }
  - name: last
    request: { method: GET, path: "/v1/messages/\${hello.id}" }
    expect: { status: 200, body: { to: "+14155550102", body: "\${params.greeting} 2 from \${env.FIXTURE_SENDER|a fixture}" } }
`;

describe('a scenario with references, repeat, a wait and expect', () => {
  it('runs every step in order; --param overrides the file; one NDJSON record per step', async () => {
    const res = expectOk(await runScenario([file('scenario.yaml', SCENARIO), '--param', 'greeting=hello', '-o', 'ndjson']));
    const steps = ndjson(res.stdout);
    expect(steps.map((s) => s.step)).toEqual(['found', 'number', 'assigned', 'hello', 'step5', 'delivered', 'lastDelivered', 'last']);
    expect(steps.every((s) => s.ok === true && typeof s.ms === 'number')).toBe(true);
    expect(steps[1]).toMatchObject({ kind: 'request', status: 201, id: expect.stringMatching(/^num_/) });
    expect(steps[3]!.action).toMatch(/^3× POST \/v1\/messages → 201$/);
    const number = steps[1]!.id as string;
    const phone = (await svc.call('GET', `/v1/numbers/${number}`, { key: svc.bootstrap.testKey })).body.phoneNumber;
    const sent = (await list('/v1/messages')).filter((m) => m.from === phone);
    expect(sent.map((m) => m.body).sort()).toEqual(['hello 0 from a fixture', 'hello 1 from a fixture', 'hello 2 from a fixture']);
  });

  it('on a terminal-less pipe: one tab-separated line per step (name, what it did, id, ms)', async () => {
    const res = expectOk(await runScenario([file('scenario2.yaml', SCENARIO)]));
    const lines = res.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(lines.length).toBe(8);
    expect(lines[1]![0]).toBe('number');
    expect(lines[1]![2]).toMatch(/^num_/);
    expect(Number(lines[1]![3])).toBeGreaterThanOrEqual(0);
  });

  it('an expect that does not hold stops the run there, names the step, exit 1', async () => {
    const res = await runScenario([file('expect.yaml', SCENARIO.replace('to: "+14155550102"', 'to: "+14155550109"'))]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('step last failed (GET /v1/messages/');
    expect(res.stderr).toMatch(/step last: expect\.body\.to: expected "\+14155550109", got "\+14155550102"/);
  });

  it("an API error stops the run with that error's exit code (not_found: 4), the step named, later steps not run", async () => {
    const before = await holdings();
    const fixture = file('missing.yaml', `
steps:
  - name: ghost
    request: { method: GET, path: /v1/numbers/num_doesnotexist }
  - name: found
    request: { method: POST, path: /v1/numbers/search, body: { areaCode: "415", limit: 1 } }
  - name: number
    request: { method: POST, path: /v1/numbers/buy, body: { phoneNumber: "\${found.data.0.phoneNumber}" } }
`);
    const res = await run([fixture]);
    expect(res.code).toBe(4);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('step ghost failed (GET /v1/numbers/num_doesnotexist)');
    expect(res.stderr).toContain('error: not_found');
    expect(await holdings()).toEqual(before);
  });

  it('an expected refusal (expect: {status: 404}) is a pass', async () => {
    const res = expectOk(await run([file('refusal.yaml', 'steps:\n  - name: ghost\n    request: { method: GET, path: /v1/numbers/num_doesnotexist }\n    expect: { status: 404, body: { error: { code: not_found } } }\n'), '-o', 'ndjson']));
    expect(ndjson(res.stdout)).toEqual([expect.objectContaining({ step: 'ghost', ok: true, status: 404 })]);
  });
});

describe('references are all checked before the first request', () => {
  it('a bad reference: exit 2 naming the step and the reference; nothing sent, the account unchanged', async () => {
    const before = await holdings();
    const eventsBefore = (await svc.call('GET', '/v1/events?order=desc&limit=1', { key: svc.bootstrap.testKey })).body.data;
    const fixture = file('bad-ref.yaml', `
steps:
  - name: found
    request: { method: POST, path: /v1/numbers/search, body: { areaCode: "415", limit: 1 } }
  - name: number
    request: { method: POST, path: /v1/numbers/buy, body: { phoneNumber: "\${found.data.0.phoneNumber}" } }
  - name: hook
    request: { method: POST, path: /v1/webhooks, body: { url: "http://127.0.0.1:9/x", events: ["\${params.kind}"] } }
  - name: text
    request: { method: POST, path: /v1/messages, body: { from: "\${numbr.phoneNumber}", to: "+14155550100", body: "\${env.SVC_FIXTURE_UNSET_VAR}" } }
`);
    const res = await run([fixture]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('nothing was sent');
    expect(res.stderr).toContain('step hook: ${params.kind}: no parameter "kind"');
    expect(res.stderr).toContain('step text: ${numbr.phoneNumber}: no step named "numbr"');
    expect(res.stderr).toContain('step text: ${env.SVC_FIXTURE_UNSET_VAR}: SVC_FIXTURE_UNSET_VAR is not set');
    expect(res.stdout).toBe('');
    expect(await holdings()).toEqual(before);
    expect((await svc.call('GET', '/v1/events?order=desc&limit=1', { key: svc.bootstrap.testKey })).body.data).toEqual(eventsBefore);
  });

  it('a bad file: exit 2 naming the place in the file', async () => {
    const res = await run([file('bad-shape.yaml', 'steps:\n  - name: a\n    request: { method: FETCH, path: v1/numbers }\n  - name: w\n    wait: { type: message.nope }\n')]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('steps[0] (a).request.method: must be one of GET, POST, PUT, PATCH, DELETE');
    expect(res.stderr).toContain('steps[0] (a).request.path: must be a path starting with /');
    expect(res.stderr).toContain('steps[1] (w).wait.type: no event type message.nope in the catalog');
  });
});

const VERBS = `
params: { areaCode: "415" }
steps:
  - name: found
    svc: numbers search --area-code \${params.areaCode} --capability sms --limit 1
  - name: number
    svc: numbers buy \${found.0.phoneNumber} --yes
    expect: { body: { status: idle, phoneNumber: "\${found.0.phoneNumber}" } }
  - name: hello
    repeat: 12
    svc: messages send --from \${number.phoneNumber} --to +14155550123 --body "hi \${i} from \${env.FIXTURE_SENDER|a fixture}" --wait
    expect: { body: { direction: outbound } }
  - name: hook
    svc: [webhooks, create, --url, "http://127.0.0.1:9/hook", --events, "message.*"]
  - name: ghost
    svc: numbers get num_doesnotexist
    expect: { exit: 4 }
  - name: last
    request: { method: GET, path: "/v1/messages/\${hello.id}" }
    expect: { body: { to: "+14155550123", body: "hi 11 from a fixture", status: delivered } }
`;

describe('a count of events (expect: {count} on a wait)', () => {
  const SENDS = (extra: string) => `
steps:
  - name: found
    request: { method: POST, path: /v1/numbers/search, body: { areaCode: "415", capabilities: [sms], limit: 1 } }
  - name: number
    request: { method: POST, path: /v1/numbers/buy, body: { phoneNumber: "\${found.data.0.phoneNumber}" } }
  - name: texts
    repeat: 2
    request: { method: POST, path: /v1/sandbox/inbound-messages, body: { from: "+14155550100", to: "\${number.phoneNumber}", body: "count \${i}" } }
${extra}`;

  it('exactly N passes; none in the timeout passes; more than expected fails, naming the extra events', async () => {
    const ok = expectOk(await run([file('count-ok.yaml', SENDS(`
  - name: two
    wait: { type: message.received, match: { to: "\${number.phoneNumber}" }, timeout: 10s }
    expect: { count: 2 }
  - name: none
    wait: { type: message.received, match: { to: "\${number.phoneNumber}", from: "+14155550199" }, timeout: 1s }
    expect: { count: 0 }
`)), '-o', 'ndjson']));
    const steps = ndjson(ok.stdout);
    expect(steps.slice(-2)).toEqual([
      expect.objectContaining({ step: 'two', ok: true, action: '2 message.received events' }),
      expect.objectContaining({ step: 'none', ok: true, action: 'no message.received events in 1s' }),
    ]);
    const tooMany = await run([file('count-many.yaml', SENDS(`
  - name: one
    wait: { type: message.received, match: { to: "\${number.phoneNumber}" }, timeout: 10s }
    expect: { count: 1 }
`))]);
    expect(tooMany.code).toBe(1);
    expect(tooMany.stderr).toMatch(/step one: expect\.count: expected exactly 1 message\.received event matching \{"to":"\+1415\d{7}"\} since the run began, got 2 \(evt_\w+ beyond\)/);
  });

  it('a wait that times out fails with what it saw, exit 1', async () => {
    const res = await run([file('count-timeout.yaml', SENDS(`
  - name: three
    wait: { type: message.received, match: { to: "\${number.phoneNumber}" }, count: 3, timeout: 1s }
`))]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/step three: timed out after 1s: 2 of 3 message\.received events matching \{"to":"\+1415\d{7}"\} since the run began/);
  });
});

describe('svc: steps (a CLI verb with its flags)', () => {
  it('runs verbs with references, repeat and expect; their JSON output is the result; --cleanup undoes what they created', async () => {
    const before = await holdings();
    const res = expectOk(await run([file('verbs.yaml', VERBS), '--cleanup', '-o', 'ndjson']));
    const lines = ndjson(res.stdout);
    const during = lines.filter((l) => l.kind !== 'cleanup');
    expect(during.map((l) => l.step)).toEqual(['found', 'number', 'hello', 'hook', 'ghost', 'last']);
    for (const l of during) expect(l, JSON.stringify(l)).toMatchObject({ ok: true });
    expect(during[1]).toMatchObject({ kind: 'svc', id: expect.stringMatching(/^num_/), action: expect.stringMatching(/^svc numbers buy \+1415\d{7} --yes → exit 0$/) });
    expect(during[2]!.action).toMatch(/^12× svc messages send --from \+1415\d{7} --to \+14155550123 --body 'hi 11 from a fixture' --wait → exit 0$/);
    expect(during[4]!.action).toBe('svc numbers get num_doesnotexist → exit 4');
    // The verbs' own requests were seen: the number and the endpoint are undone, newest first.
    const undo = lines.filter((l) => l.kind === 'cleanup').map((l) => l.action.replace(/ → .*/, ''));
    expect(undo).toEqual([`DELETE /v1/webhooks/${during[3]!.id}`, `POST /v1/numbers/${during[1]!.id}/release`]);
    // Twelve sends left behind: one line, not twelve; twelve waiting verbs share the run's one Ctrl-C.
    expect(res.stderr).toMatch(/^not undone: 12 messages \(msg_\w+, msg_\w+, msg_\w+ and 9 more\): a sent message cannot be unsent$/m);
    expect(res.stderr).not.toContain('MaxListenersExceededWarning');
    expect(await holdings()).toEqual(before);
  });

  it('a verb that fails stops the run with its exit code, its error in words, the step named', async () => {
    const res = await run([file('verb-fails.yaml', 'steps:\n  - name: ghost\n    svc: numbers get num_doesnotexist\n  - name: never\n    svc: numbers list\n')]);
    expect(res.code).toBe(4);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('error: not_found:');
    expect(res.stderr).toContain('step ghost failed (svc numbers get num_doesnotexist)');
    expect(res.stderr).not.toContain('{"error"');
    const scripted = await run([file('verb-fails2.yaml', 'steps:\n  - name: ghost\n    svc: numbers get num_doesnotexist\n'), '-o', 'ndjson']);
    expect(scripted.code).toBe(4);
    expect(ndjson(scripted.stdout)).toEqual([expect.objectContaining({ step: 'ghost', ok: false, error: expect.objectContaining({ code: 'not_found', exit: 4 }) })]);
  });

  it("acts in a step's --subaccount, and --cleanup undoes it there", async () => {
    const sub = await svc.call('POST', '/v1/subaccounts', { key: svc.bootstrap.testKey, body: { name: `fixture-sub-${Date.now()}` } });
    expect(sub.status).toBe(201);
    const subNumbers = async () => {
      const r = await svc.call('GET', '/v1/numbers?limit=100', { key: svc.bootstrap.testKey, headers: { 'Service-Subaccount': sub.body.id } });
      expect(r.status).toBe(200);
      return (r.body.data as Array<Record<string, any>>).filter((n) => n.status !== 'released').map((n) => n.id);
    };
    const res = expectOk(await run([file('verb-sub.yaml', `
steps:
  - name: found
    svc: numbers search --area-code 212 --limit 1
  - name: number
    svc: numbers buy \${found.0.phoneNumber} --yes --subaccount ${sub.body.id}
`), '-o', 'ndjson']));
    const bought = ndjson(res.stdout)[1]!.id as string;
    expect(await subNumbers()).toEqual([bought]);
    const again = expectOk(await run([file('verb-sub2.yaml', `
steps:
  - name: found
    svc: numbers search --area-code 212 --limit 1
  - name: number
    svc: numbers buy \${found.0.phoneNumber} --yes --subaccount ${sub.body.id}
`), '--cleanup', '-o', 'ndjson']));
    const undo = ndjson(again.stdout).filter((l) => l.kind === 'cleanup');
    expect(undo.length).toBe(1);
    expect(undo[0]!.action).toMatch(/^POST \/v1\/numbers\/num_\w+\/release → 200$/);
    expect(await subNumbers()).toEqual([bought]);
  });

  it('--cleanup suspends a sub-account the run created (the API deletes none), after undoing what was made in it', async () => {
    const res = expectOk(await run([file('verb-new-sub.yaml', `
steps:
  - name: sub
    svc: subaccounts create --name "fixture client \${env.FIXTURE_RUN|x}"
  - name: found
    svc: numbers search --area-code 212 --limit 1
  - name: number
    svc: numbers buy \${found.0.phoneNumber} --subaccount \${sub.id}
`), '--cleanup', '-o', 'ndjson']));
    const lines = ndjson(res.stdout);
    const subId = lines[0]!.id as string;
    expect(subId).toBeTruthy();
    const undo = lines.filter((l) => l.kind === 'cleanup').map((l) => l.action);
    expect(undo).toEqual([
      expect.stringMatching(/^POST \/v1\/numbers\/num_\w+\/release → 200$/),
      `PATCH /v1/subaccounts/${subId} {"status":"suspended"} → 200`,
    ]);
    expect(res.stderr).not.toContain('not undone: sub-account');
    const after = await svc.call('GET', `/v1/subaccounts/${subId}`, { key: svc.bootstrap.testKey });
    expect(after.body.status).toBe('suspended');
  });

  it("a step's words are checked by the verb's own parser before anything is sent (exit 2, the account unchanged)", async () => {
    const before = await holdings();
    const res = await run([file('verb-bad.yaml', `
steps:
  - name: found
    svc: numbers search --area-code 415 --limit 1
  - name: number
    svc: numbers buy \${found.0.phoneNumber} --yess
  - name: typo
    svc: numbers by +14155550100
  - name: bare
    svc: numbers get
`)]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('nothing was sent');
    expect(res.stderr).toContain("step number: svc numbers buy '${found.0.phoneNumber}' --yess: unknown option '--yess'");
    expect(res.stderr).toContain("step typo: svc numbers by +14155550100: unknown command 'by'");
    expect(res.stderr).toContain("step bare: svc numbers get: missing required argument");
    expect(await holdings()).toEqual(before);
  });
});

describe('what a QA pass found, fixed', () => {
  /** `svc fixtures run FILE --cleanup -o ndjson` as a child process, to be interrupted with SIGINT. */
  function spawnRun(fixture: string) {
    const child = spawn(process.execPath, [BIN_PATH, 'fixtures', 'run', fixture, '--cleanup', '-o', 'ndjson'], {
      env: { PATH: process.env.PATH, HOME: dir, SVC_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1', SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.bootstrap.testKey, SVC_DATA_DIR: svc.dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const seen = { stdout: '', stderr: '' };
    child.stdout.setEncoding('utf8').on('data', (d: string) => (seen.stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (seen.stderr += d));
    const closed = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    return { child, seen, closed };
  }

  it('a repeated svc: step stops at Ctrl-C between runs (exit 130), and --cleanup removes what it made', async () => {
    // Active keys (a deleted key stays listed, revoked).
    const keysNow = async () => ((await svc.call('GET', '/v1/keys?limit=100', { key: svc.bootstrap.testKey })).body.data as Array<{ revokedAt: string | null }>).filter((k) => k.revokedAt === null).length;
    const before = await keysNow();
    const fixture = file('repeat-keys.yaml', 'steps:\n  - name: keys\n    repeat: 1000\n    svc: keys create --name qa-k${i} --mode test\n');
    const { child, seen, closed } = spawnRun(fixture);
    // Some keys made, far from all 1000.
    for (let i = 0; i < 100 && (await keysNow()) < before + 5; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await keysNow()).toBeGreaterThanOrEqual(before + 5);
    child.kill('SIGINT');
    const code = await closed;
    const { stdout, stderr } = seen;
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/interrupted: step keys \(svc keys create --name qa-k\d+ --mode test, i=\d+\) stopped/);
    const undone = ndjson(stdout).filter((l) => l.kind === 'cleanup');
    expect(undone.length).toBeGreaterThanOrEqual(5);
    expect(undone.length).toBeLessThan(1000);
    expect(await keysNow()).toBe(before);
  }, 60_000);

  it('Ctrl-C during --cleanup stops it and lists what is left, ids included (exit 130)', async () => {
    const fixture = file('many-cleanup.yaml', 'steps:\n  - name: keys\n    repeat: 300\n    request: { method: POST, path: /v1/keys, body: { name: "qa-c${i}", mode: test } }\n  - name: fail\n    request: { method: GET, path: /v1/numbers/num_nope }\n');
    const { child, seen, closed } = spawnRun(fixture);
    let pressed = false;
    child.stdout.on('data', () => {
      if (!pressed && (seen.stdout.match(/"kind":"cleanup"/g) ?? []).length >= 5) {
        pressed = true;
        child.kill('SIGINT');
      }
    });
    const code = await closed;
    const { stdout, stderr } = seen;
    expect(pressed).toBe(true);
    expect(code, stderr).toBe(130);
    const removed = ndjson(stdout).filter((l) => l.kind === 'cleanup').length;
    expect(removed).toBeGreaterThanOrEqual(5);
    expect(removed).toBeLessThan(300);
    expect(stderr).toMatch(new RegExp(`^left: ${300 - removed} API keys \\(key_\\w+, key_\\w+, key_\\w+ and \\d+ more\\): not removed: the cleanup was interrupted$`, 'm'));
    expect(stderr).toContain(`interrupted: the cleanup stopped with ${300 - removed} of 300 left`);
    // What it listed is what is left (every page of keys read): finish by hand.
    const all: Array<{ id: string; name: string; revokedAt: string | null }> = [];
    for (let cursor = ''; ; ) {
      const page = (await svc.call('GET', `/v1/keys?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { key: svc.bootstrap.testKey })).body;
      all.push(...page.data);
      if (!page.hasMore) break;
      cursor = page.nextCursor;
    }
    const active = all.filter((k) => k.name.startsWith('qa-c') && k.revokedAt === null);
    expect(active.length).toBe(300 - removed);
    for (const k of active) await svc.call('DELETE', `/v1/keys/${k.id}`, { key: svc.bootstrap.testKey });
  }, 60_000);

  it("a verb that refuses its own flags is said once, in its words, with its exit code", async () => {
    const res = await run([file('no-mode.yaml', 'steps:\n  - name: k\n    svc: keys create --name fixture-no-mode\n')]);
    expect(res.code).toBe(2);
    const said = res.stderr.split('\n').filter((l) => l.includes('--mode'));
    expect(said.length).toBe(1);
    expect(said[0]).toMatch(/^error: /);
    expect(res.stderr).toContain('step k failed (svc keys create --name fixture-no-mode)');
  });

  it('answers confirmations itself; a number the run released is not "failed" by --cleanup; verbs\' notes stay out', async () => {
    const before = await holdings();
    const res = expectOk(await run([file('self-undo.yaml', `
steps:
  - name: found
    svc: numbers search --area-code 415 --limit 1
  - name: number
    svc: numbers buy \${found.0.phoneNumber}
  - name: hook
    svc: webhooks create --url http://127.0.0.1:9/hook --events 'message.*'
  - name: rel
    svc: numbers release \${number.id}
`), '--cleanup']));
    expect(res.stderr).not.toContain('cleanup failed');
    expect(res.stderr).not.toContain('Save the signing secret');
    const undo = res.stdout.split('\n').filter((l) => l.startsWith('cleanup'));
    expect(undo.length).toBe(1); // the webhook; the number was released by the run itself
    expect(undo[0]).toMatch(/^cleanup\tDELETE \/v1\/webhooks\/we_\w+ → 204/);
    expect(await holdings()).toEqual(before);
  });

  it('-o json is one document; expect.body addresses a list by index; a --param the file does not have is refused', async () => {
    const fixture = file('json-doc.yaml', `
params: { areaCode: "415" }
steps:
  - name: found
    svc: numbers search --area-code \${params.areaCode} --limit 2
    expect: { body: { 0: { region: CA } } }
  - name: again
    svc: numbers search --area-code \${params.areaCode} --limit 1
`);
    const res = expectOk(await run([fixture, '-o', 'json']));
    const doc = JSON.parse(res.stdout) as Array<Record<string, unknown>>;
    expect(doc.map((r) => r.step)).toEqual(['found', 'again']);
    const wrong = await run([file('json-wrong.yaml', 'steps:\n  - name: found\n    svc: numbers search --area-code 415 --limit 1\n    expect: { body: { 0: { region: NY } } }\n')]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('expect.body.0.region: expected "NY", got "CA"');
    const shape = await run([file('json-shape.yaml', 'steps:\n  - name: found\n    svc: numbers search --area-code 415 --limit 1\n    expect: { body: { region: CA } }\n')]);
    expect(shape.code).toBe(1);
    expect(shape.stderr).toContain('expect.body: expected an object, the result is a list');
    const typo = await run([fixture, '--param', 'areacode=212']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('--param areacode: ');
    expect(typo.stderr).toContain('has no parameter "areacode" (it has: areaCode)');
  });
});

describe('--cleanup', () => {
  it('removes what the run created, newest first, and says what it cannot undo: the account is as it was', async () => {
    const before = await holdings();
    expect(before).toBeDefined();
    const res = expectOk(await run([file('cleanup.yaml', `
steps:
  - name: found
    request: { method: POST, path: /v1/numbers/search, body: { areaCode: "212", capabilities: [sms], limit: 2 } }
  - name: first
    request: { method: POST, path: /v1/numbers/buy, body: { phoneNumber: "\${found.data.0.phoneNumber}" } }
  - name: second
    request: { method: POST, path: /v1/numbers/buy, body: { phoneNumber: "\${found.data.1.phoneNumber}" } }
  - name: hook
    request: { method: POST, path: /v1/webhooks, body: { url: "http://127.0.0.1:9/hook", events: ["message.*"] } }
  - name: domain
    request: { method: POST, path: /v1/domains, body: { domain: "cleanup-fixture.example.com" } }
  - name: dns
    request: { method: PUT, path: "/v1/sandbox/dns/\${domain.records.0.name}", body: { records: [{ type: TXT, value: "\${domain.records.0.value}" }] } }
  - name: text
    request: { method: POST, path: /v1/messages, body: { from: "\${first.phoneNumber}", to: "+14155550100", body: hi } }
`), '--cleanup', '-o', 'ndjson']));
    const lines = ndjson(res.stdout);
    const during = lines.filter((l) => l.kind !== 'cleanup');
    const undo = lines.filter((l) => l.kind === 'cleanup');
    expect(during.length).toBe(7);
    const ids = Object.fromEntries(during.map((l) => [l.step, l.id]));
    // newest first: the DNS record, the domain, the webhook, then the numbers in reverse order
    expect(undo.map((l) => l.action.replace(/ → .*/, ''))).toEqual([
      expect.stringMatching(/^DELETE \/v1\/sandbox\/dns\/_svc-verification\.cleanup-fixture\.example\.com$/),
      `DELETE /v1/domains/${ids.domain}`,
      `DELETE /v1/webhooks/${ids.hook}`,
      `POST /v1/numbers/${ids.second}/release`,
      `POST /v1/numbers/${ids.first}/release`,
    ]);
    expect(res.stderr).toMatch(/not undone: message msg_\w+: a sent message cannot be unsent/);
    expect(await holdings()).toEqual(before);
    expect((await svc.call('GET', '/v1/sandbox/dns/_svc-verification.cleanup-fixture.example.com')).status).toBe(404);
  });
});

describe('at a terminal', () => {
  /**
   * Runs `svc fixtures run FIXTURE --cleanup` in bash at a pseudo-terminal, waits for `ready` on the
   * screen, presses Ctrl-C and returns the screen once the run has ended; the account must be as it was.
   * The run uses the test key unless `key` says otherwise.
   */
  async function interruptAt(name: string, fixture: string, ready: RegExp, held: number, key?: string): Promise<string> {
    const tmp = mkdtempSync(join(tmpdir(), 'svc-fixtures-tty-'));
    const env = { ...shellEnvFor(svc, tmp, BIN_PATH), ...(key ? { SVC_API_KEY: key } : {}), PS1: 'READY$ ' };
    const t = openTerminal(['bash', '--norc', '--noprofile'], { env });
    try {
      await t.until((s) => /READY\$ $/.test(s), 10_000, 'a shell prompt');
      const before = await holdings();
      t.type(`svc fixtures run ${file(name, fixture)} --cleanup; echo "EXIT=$?"`);
      t.press('Enter');
      const running = await t.until((s) => ready.test(s), 15_000, 'the step before the interrupt');
      expect(running).not.toMatch(/^EXIT=\d+$/m);
      await new Promise((r) => setTimeout(r, held)); // the last step's read is held by the service now
      t.press('C-c');
      const done = await t.until((s) => /^EXIT=\d+$/m.test(s), 15_000, 'the run to end');
      expect(done).toMatch(/^EXIT=130$/m);
      expect(done).toMatch(/^cleanup\s+POST \/v1\/numbers\/num_\w+\/release → 200/m);
      expect(done).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m); // no stack
      expect(await holdings()).toEqual(before);
      return done;
    } finally {
      t.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  }

  it('prints a line per step (name, what it did, id, ms); Ctrl-C in a wait stops it, --cleanup still runs, exit 130', async () => {
    const done = await interruptAt('tty.yaml', `
steps:
  - name: found
    request: { method: POST, path: /v1/numbers/search, body: { areaCode: "415", limit: 1 } }
  - name: number
    request: { method: POST, path: /v1/numbers/buy, body: { phoneNumber: "\${found.data.0.phoneNumber}" } }
  - name: never
    wait: { type: port.updated, timeout: 60s }
`, /^number\s+POST \/v1\/numbers\/buy → 201\s+num_\w+\s+\d+ ms$/m, 300);
    expect(done).toMatch(/^found\s+POST \/v1\/numbers\/search → 200\s+-\s+\d+ ms$/m);
    expect(done).toContain('interrupted: step never (wait for port.updated) stopped');
  });

  it('Ctrl-C while an svc: step waits (emails wait) stops that verb and the run; --cleanup runs, exit 130', async () => {
    const done = await interruptAt('tty-verb.yaml', `
steps:
  - name: found
    svc: numbers search --area-code 415 --limit 1
  - name: number
    svc: numbers buy \${found.0.phoneNumber} --yes
  - name: mail
    svc: emails wait --to nobody@fixture.example --timeout 60s
`, /^number\s+svc numbers buy \+1415\d{7} --yes → exit 0\s+num_\w+\s+\d+ ms$/m, 500, svc.bootstrap.liveKey); // a test key's emails wait is refused at once
    expect(done).toContain('interrupted: step mail (svc emails wait --to nobody@fixture.example --timeout 60s) stopped');
    expect(done).not.toContain('step mail failed'); // the interrupted line names it, once
  });
});
