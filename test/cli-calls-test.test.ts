// `svc calls test` (cli.md "Calls as tests") in-process against the real local service on loopback:
// the shipped example (examples/calls/), coverage and its minimum, the reporters, file errors.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { fundAccount } from './helpers/money.js';
import { REPO_ROOT, runSvc, type RunSvcOptions } from './helpers/cli.js';
import { parseXml, type XmlElement } from './helpers/xml.js';

// The number the shipped example names: the sandbox inventory is the same on every service.
const EXAMPLE_NUMBER = '+16285338556';
const EXAMPLE_BRANCHES = ['blocked', 'ivr.key:1', 'ivr.key:2', 'ivr.invalid', 'ivr.timeout', 'ivr.fallback', 'answer:+14155550198', 'answer:+14155550197', 'noanswer:key:1', 'voicemail'];

let svc: TestService;
let tmp: string;
let numberId: string;
beforeAll(async () => {
  svc = await startTestService();
  await fundAccount(svc, svc.bootstrap.accountId);
  const bought = await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: EXAMPLE_NUMBER } });
  expect(bought.status, bought.text).toBe(201);
  numberId = bought.body.id;
  expect((await svc.call('POST', '/v1/blocked-numbers', { body: { phoneNumber: '+14155550177' } })).status).toBe(201);
  tmp = mkdtempSync(join(tmpdir(), 'svc-calls-test-'));
  copyFileSync(join(REPO_ROOT, 'examples', 'calls', 'front-desk.yaml'), join(tmp, 'front-desk.yaml'));
});
afterAll(async () => {
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const svcRun = (args: string[], opts: Omit<RunSvcOptions, 'service'> = {}) => runSvc(args, { service: svc, ...opts });
const EXAMPLE = join(REPO_ROOT, 'examples', 'calls', 'front-desk.test.yaml');
const file = (name: string, text: string) => {
  const path = join(tmp, name);
  writeFileSync(path, text);
  return path;
};
/** The shipped example's tests, keeping only those whose name passes `keep`. */
const exampleWithout = (name: string, drop: string) => {
  const text = readFileSync(EXAMPLE, 'utf8');
  const [head, ...tests] = text.split(/\n(?=  - name: )/);
  return file(name, [head, ...tests.filter((t) => !t.includes(`name: ${drop}`))].join('\n'));
};

describe('svc calls test', () => {
  it('the shipped example walks every branch of its route file: a ✓ per test, 100 %, the route never saved, the run kept', async () => {
    const routeBefore = await svc.call('GET', `/v1/numbers/${numberId}/route`);
    const res = await svcRun(['calls', 'test', EXAMPLE, '--min-coverage', '100']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe(
      [
        '✓ sales picks up',
        '✓ Lee answers when Dana does not',
        '✓ nobody in sales answers, so voicemail',
        '✓ 2 leaves a message',
        '✓ a wrong key, then sales',
        '✓ silence until the menu gives up',
        '✓ a blocked caller never rings',
        'coverage: 10 of 10 branches (100%)',
        '',
      ].join('\n'),
    );
    const routeAfter = await svc.call('GET', `/v1/numbers/${numberId}/route`);
    expect(routeAfter.body).toEqual(routeBefore.body);
    expect(routeAfter.body.route).toBeNull();
    expect(routeAfter.headers.etag).toBe(routeBefore.headers.etag);
    const kept = await svc.call('GET', `/v1/sandbox/numbers/${numberId}/call-coverage`);
    expect(kept.body).toMatchObject({ numberId, source: 'file', tests: 7, passed: 7, covered: 10, total: 10, percent: 100 });
    expect(kept.body.branches.map((b: { id: string }) => b.id)).toEqual(EXAMPLE_BRANCHES);
  });

  it('a file that never presses 2 reports ivr.key:2 uncovered and exits 1 under --min-coverage 100 (0 without it)', async () => {
    const path = exampleWithout('no-two.test.yaml', '2 leaves a message');
    const res = await svcRun(['calls', 'test', path, '--min-coverage', '100']);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('coverage: 9 of 10 branches (90%)\nuncovered: ivr.key:2\n');
    expect(res.stderr).toContain(`${path}: coverage 90% is below --min-coverage 100%`);
    expect(res.stdout).not.toContain('✗');
    const lenient = await svcRun(['calls', 'test', path, '--min-coverage', '90%']);
    expect(lenient.code, lenient.stderr).toBe(0);
    const kept = await svc.call('GET', `/v1/sandbox/numbers/${numberId}/call-coverage`);
    expect(kept.body).toMatchObject({ covered: 9, total: 10, percent: 90 });
    expect(kept.body.branches).toContainEqual({ id: 'ivr.key:2', taken: false });
  });

  it('a failing test: ✗ name, the first expected step not found, the trace as it ran; exit 1', async () => {
    const path = file(
      'failing.test.yaml',
      `number: "${EXAMPLE_NUMBER}"
route: front-desk.yaml
tests:
  - name: Lee should answer
    press: ["1"]
    answer: { Dana: 3s }
    expect: { trace: [ivr.key 1, answered +14155550197] }
  - name: the wrong status
    press: ["2"]
    expect: { status: completed }
`,
    );
    const res = await svcRun(['calls', 'test', path]);
    expect(res.code).toBe(1);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toBe('✗ Lee should answer');
    expect(lines[1]).toBe('    expected step not found: answered +14155550197');
    expect(lines[2]).toBe('    trace as it ran:');
    expect(lines).toContain('      +0s    ivr.key          1 (Sales) → ring');
    expect(lines).toContain('      +3s    answered         by pstn +14155550198 (dst_evaluation1)');
    expect(lines).toContain('✗ the wrong status');
    expect(lines).toContain('    expected status completed, got missed');
  });

  it('the same file twice gives the same traces; --reporter json and -o json print {tests, coverage}', async () => {
    const first = await svcRun(['calls', 'test', EXAMPLE, '--reporter', 'json']);
    const second = await svcRun(['calls', 'test', EXAMPLE, '-o', 'json']);
    expect(first.code, first.stderr).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const report = JSON.parse(first.stdout);
    expect(Object.keys(report)).toEqual(['file', 'number', 'tests', 'coverage']);
    expect(report.coverage).toEqual({ covered: 10, total: 10, percent: 100, uncovered: [] });
    expect(report.tests).toHaveLength(7);
    expect(report.tests[0]).toMatchObject({ name: 'sales picks up', passed: true, failure: null });
    expect(report.tests[0].trace[0]).toEqual({ atSecs: 0, step: 'blocklist', detail: '+14155550123 is not blocked' });
  });

  it('--reporter junit writes XML a strict parser reads back: a suite per file, a failure per failed test, names escaped', async () => {
    const tricky = `<&"'> \u0001 ünïcode`;
    const path = file(
      'junit.test.yaml',
      `number: "${EXAMPLE_NUMBER}"
route: front-desk.yaml
tests:
  - name: ${JSON.stringify(tricky)}
    press: ["2"]
  - name: fails & says why
    press: ["2"]
    expect: { answeredBy: "+14155550198" }
`,
    );
    const res = await svcRun(['calls', 'test', path, EXAMPLE, '--reporter', 'junit', '--min-coverage', '100']);
    expect(res.code).toBe(1);
    const root = parseXml(res.stdout);
    expect(root).toMatchObject({ name: 'testsuites', attrs: { name: 'svc calls test', tests: '11', failures: '2', errors: '0' } });
    const [mine, example] = root.children as [XmlElement, XmlElement];
    expect(mine.attrs).toEqual({ name: path, tests: '3', failures: '2', errors: '0', skipped: '0' });
    expect(example.attrs).toMatchObject({ name: EXAMPLE, tests: '8', failures: '0' });
    const cases = mine.children.filter((c) => c.name === 'testcase');
    expect(cases.map((c) => c.attrs.name)).toEqual([`<&"'> \uFFFD ünïcode`, 'fails & says why', 'coverage at least 100%']);
    expect(cases[0]!.children).toEqual([]);
    const failure = cases[1]!.children[0]!;
    expect(failure.attrs).toEqual({ message: 'expected answeredBy +14155550198, got nobody', type: 'expectation' });
    expect(failure.text).toContain('ivr.key          2 (Message) → voicemail');
    expect(cases[2]!.children[0]!.attrs.type).toBe('coverage');
    expect(cases[2]!.children[0]!.text).toContain('uncovered: ivr.key:1');
    const props = mine.children.find((c) => c.name === 'properties')!.children.map((p) => [p.attrs.name, p.attrs.value]);
    expect(props).toContainEqual(['number', EXAMPLE_NUMBER]);
    expect(props).toContainEqual(['uncovered', 'ivr.key:1']);
  });

  it('without route: the saved route is tested, and the run is kept as the saved route\'s', async () => {
    const other = await svc.call('POST', '/v1/numbers/search', { body: { areaCode: '628', limit: 10 } });
    const phone = other.body.data.find((n: any) => n.capabilities.voice && n.phoneNumber !== EXAMPLE_NUMBER).phoneNumber;
    const n = (await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: phone } })).body;
    expect((await svc.call('PUT', `/v1/numbers/${n.id}/route`, { body: { destinationType: 'pstn', destination: '+14155550190', voicemailEnabled: true } })).status).toBe(200);
    const path = file('saved.test.yaml', `number: ${n.id}\ntests:\n  - name: rings out to voicemail\n    expect: { outcome: voicemail }\n`);
    const res = await svcRun(['calls', 'test', path]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('✓ rings out to voicemail\ncoverage: 2 of 4 branches (50%)\nuncovered: blocked\nuncovered: answer:+14155550190\n');
    expect((await svc.call('GET', `/v1/sandbox/numbers/${n.id}/call-coverage`)).body).toMatchObject({ source: 'saved', covered: 2, total: 4 });
  });
});

describe('svc calls test: file errors (exit 2, naming the file and line)', () => {
  const expectFileError = async (path: string, ...wanted: string[]) => {
    const res = await svcRun(['calls', 'test', path]);
    expect(res.code, res.stderr).toBe(2);
    for (const w of wanted) expect(res.stderr).toContain(w);
    expect(res.stdout).toBe('');
    return res;
  };

  it('an unknown key, a bad duration, a bad key press and an unknown trace step: every problem, each at its line', async () => {
    const path = file(
      'bad.test.yaml',
      `number: "${EXAMPLE_NUMBER}"
route: front-desk.yaml
tests:
  - name: typo
    presss: ["1"]
  - name: durations
    answer: { Dana: soon }
    hangupAfter: 3x
  - name: keys and steps
    press: ["12"]
    expect: { trace: [ringing] }
`,
    );
    await expectFileError(
      path,
      `${path}:5: tests[0].presss: is not a key of a test (name, from, press, answer, decision, hangupAfter, expect)`,
      `${path}:7: tests[1].answer.Dana: must be a duration like 5s, 2m or 1m30s`,
      `${path}:8: tests[1].hangupAfter: must be a duration like 5s, 2m or 1m30s`,
      `${path}:10: tests[2].press[0]: must be one key (0-9, * or #), or "" to stay silent`,
      `${path}:11: tests[2].expect.trace[0]: "ringing" is not a step of the call trace`,
    );
  });

  it('a YAML syntax error, a key given twice and an unquoted E.164 number name their lines', async () => {
    const broken = file('broken.test.yaml', `number: "${EXAMPLE_NUMBER}"\ntests:\n  - name: x\n   press: ["1"]\n`);
    await expectFileError(broken, `${broken}:4: (yaml): Sequence item without - indicator`);
    const twice = file('twice.test.yaml', `number: "${EXAMPLE_NUMBER}"\ntests:\n  - name: x\n    press: ["1"]\n    press: ["2"]\n`);
    await expectFileError(twice, `${twice}:5: (yaml): Map keys must be unique`);
    const unquoted = file('unquoted.test.yaml', `number: +16285338556\ntests:\n  - name: x\n`);
    await expectFileError(unquoted, `${unquoted}:1: number: must be a string (quote an E.164 number: "+14155550100")`);
  });

  it('a problem in the route file names the route file and its line; so does one only the service finds', async () => {
    file('bad-route.yaml', 'destinations: []\nivr:\n  enabled: true\n  greeting: { text: hi }\n  digitTimeoutSecs: 99\n  keys: [{ digit: "1", action: { type: voicemail } }]\n');
    const schema = file('bad-route.test.yaml', `number: "${EXAMPLE_NUMBER}"\nroute: bad-route.yaml\ntests:\n  - name: x\n`);
    await expectFileError(schema, `${join(tmp, 'bad-route.yaml')}:5: ivr.digitTimeoutSecs:`);
    // Two keys with one digit: a rule across fields the service checks (as PUT route does).
    file('twice-route.yaml', 'destinations: []\nivr:\n  enabled: true\n  greeting: { text: hi }\n  keys:\n    - { digit: "1", action: { type: voicemail } }\n    - { digit: "1", action: { type: repeat } }\n');
    const service = file('twice-route.test.yaml', `number: "${EXAMPLE_NUMBER}"\nroute: twice-route.yaml\ntests:\n  - name: x\n`);
    await expectFileError(service, `${join(tmp, 'twice-route.yaml')}:7: ivr.keys[1].digit: digit 1 is already used by keys[0]`);
  });

  it('a route inline in the test file is tested (never saved); one the service refuses is named at its line in the test file, under route', async () => {
    const route = readFileSync(join(REPO_ROOT, 'examples', 'calls', 'front-desk.yaml'), 'utf8').replace(/^(?=.)/gm, '  ');
    const inline = file('inline.test.yaml', readFileSync(EXAMPLE, 'utf8').replace('route: front-desk.yaml\n', `route:\n${route}`));
    const res = await svcRun(['calls', 'test', inline, '--min-coverage', '100']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('coverage: 10 of 10 branches (100%)\n');
    expect((await svc.call('GET', `/v1/numbers/${numberId}/route`)).body.route).toBeNull();
    const twice = file('twice-inline.test.yaml', `number: "${EXAMPLE_NUMBER}"\nroute:\n  ivr:\n    enabled: true\n    greeting: { text: hi }\n    keys:\n      - { digit: "1", action: { type: voicemail } }\n      - { digit: "1", action: { type: repeat } }\ntests:\n  - name: x\n`);
    await expectFileError(twice, `${twice}:8: route.ivr.keys[1].digit: digit 1 is already used by keys[0]`);
  });

  it('a test file on standard input has no place for route: FILE to be relative to: refused, naming the field', async () => {
    const res = await svcRun(['calls', 'test', '-'], { stdin: readFileSync(EXAMPLE, 'utf8') });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('standard input:4: route: names a file (front-desk.yaml), but this test document was not read from a file');
  });

  it("a number that is not the account's: exit 4 naming the file's number line", async () => {
    const path = file('nobody.test.yaml', `# whose?\nnumber: "+16285550000"\ntests:\n  - name: x\n`);
    const res = await svcRun(['calls', 'test', path]);
    expect(res.code).toBe(4);
    expect(res.stderr).toContain(`${path}:2: number +16285550000: number not found`);
  });
});
