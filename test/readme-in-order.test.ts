// Every README example runnable as written, in the order the README gives them. Every ```sh
// block of README.md runs here in ONE bash process, in order, from an empty HOME with `svc` on PATH as
// `npm link` puts it (the built bin/svc.js), so what one block leaves behind (an exported SVC_PROFILE,
// a stopped service) is what the next one meets. Nothing is added to the home: the Fixtures block
// finds the package's examples with `svc fixtures examples`, as a user does. Each block fails like `set -e` with its
// number, section and README line named. The npm blocks are not run here (CI and
// test/package-install.test.ts run them): each is marked `<!-- sh-not-run: npm… -->` in the README
// and listed below, so none is skipped silently.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshShellHome, readmeShellBlocks, type ShellBlock } from './helpers/readme-blocks.js';
import { REPO_ROOT } from './helpers/cli.js';

/** The first line of each block the README marks as not run, in README order. */
const NOT_RUN = ['npm ci && npm run build && npx svc keys list', 'npm test', '# into a project: install, then record the approval', 'npm run build'];
/**
 * Blocks run as written by a test of their own, against what this shell has not (a
 * throwaway PostgreSQL server), by their first line; each is marked `sh-not-run: postgres: …`.
 */
const RUN_ELSEWHERE: Record<string, string> = { 'export SVC_STORE': 'test/readme-postgres.test.ts' };
const elsewhere = (b: ShellBlock) => Object.keys(RUN_ELSEWHERE).some((first) => b.text.startsWith(first));

/** About 40 s on an idle machine (five service starts, a call, a DNS propagation); a bound against a hang. */
const RUN_TIMEOUT_MS = 600_000;

const shell = freshShellHome('svc-readme-in-order-');
afterAll(() => shell.cleanup());

const MARK = '::readme-block ';
const FAILED = /^::readme-failed line=(\d+) exit=(\d+)$/m;

/** One script: every block in order, a marker before each (on both streams), and an ERR trap naming the line. */
function scriptOf(blocks: ShellBlock[]): { script: string; origin: Map<number, { block: ShellBlock; line: number; text: string }> } {
  const lines = ['set -euo pipefail', `trap 'rc=$?; echo "::readme-failed line=$LINENO exit=$rc" >&2' ERR`, 'set -x'];
  const origin = new Map<number, { block: ShellBlock; line: number; text: string }>();
  for (const block of blocks) {
    lines.push(`echo '${MARK}${block.index}'; echo '${MARK}${block.index}' >&2`);
    block.text.split('\n').forEach((text, i) => {
      lines.push(text);
      origin.set(lines.length, { block, line: block.line + i, text });
    });
  }
  return { script: `${lines.join('\n')}\n`, origin };
}

/** Each block's share of a stream, by the markers. */
function perBlock(stream: string): Map<number, string> {
  const out = new Map<number, string>();
  let current = 0;
  for (const line of stream.split('\n')) {
    if (line.startsWith(MARK)) current = Number(line.slice(MARK.length));
    else out.set(current, `${out.get(current) ?? ''}${line}\n`);
  }
  return out;
}

const tail = (text: string, n = 60) => text.split('\n').slice(-n).join('\n');

describe('README.md, every sh block in order in one shell', () => {
  const blocks = readmeShellBlocks();
  const run = blocks.filter((b) => b.notRun === undefined);

  it('marks as not run exactly the listed npm blocks, and nothing that runs svc', () => {
    const marked = blocks.filter((b) => b.notRun !== undefined && !elsewhere(b));
    const others = blocks.filter((b) => b.notRun !== undefined && elsewhere(b));
    expect(others.length).toBe(Object.keys(RUN_ELSEWHERE).length);
    for (const b of others) expect(b.notRun, `block ${b.index}`).toMatch(/^postgres: .*test\/readme-postgres\.test\.ts/);
    expect(marked.map((b) => NOT_RUN.find((first) => b.text.split('\n')[0]!.startsWith(first)) ?? b.text.split('\n')[0])).toEqual(NOT_RUN);
    for (const b of marked) {
      expect(b.notRun, `block ${b.index}`).toMatch(/^npm: /);
      for (const line of b.text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'))) expect(line, `block ${b.index}`).toMatch(/^npm /);
    }
    // What runs: the walkthrough, the Using it, Webhooks, Voice, Calls as tests and 10DLC references,
    // the Email, Billing, Fixtures, Snapshots and Roles blocks, and /mcp over HTTP.
    expect(run.map((b) => b.section)).toEqual(['Walkthrough', 'Using it', 'Webhooks you can inspect', 'Voice', 'Calls as tests', '10DLC registration and ports', 'Email', 'Billing and usage', 'Fixtures', 'Snapshots and reset', 'Roles: the worker in a process of its own', 'Use it from an AI agent']);
  });

  it('runs as written, from an empty home directory', async () => {
    const { script, origin } = scriptOf(run);
    const res = await shell.runScript(script, RUN_TIMEOUT_MS);
    if (res.code !== 0) {
      const failed = FAILED.exec(res.stderr);
      const at = failed ? origin.get(Number(failed[1])) : undefined;
      const where = at
        ? `README block ${at.block.index} (${at.block.section}), README.md line ${at.line}, exit ${failed![2]}: ${at.text}`
        : `README (exit ${res.code}, after block ${[...res.stdout.matchAll(/^::readme-block (\d+)$/gm)].pop()?.[1] ?? 'none'})`;
      throw new Error(`${where}\n--- stdout (end)\n${tail(res.stdout)}\n--- stderr (end)\n${tail(res.stderr)}`);
    }
    const out = perBlock(res.stdout);
    const err = perBlock(res.stderr);
    const of = (section: string) => {
      const b = run.find((x) => x.section === section)!;
      return { stdout: out.get(b.index) ?? '', stderr: err.get(b.index) ?? '' };
    };
    // Nothing was refused for the key a profile chose (SVC_PROFILE left set by the walkthrough).
    expect(res.stderr).not.toContain('error: forbidden');
    expect(res.stderr).not.toContain('active profile is');

    const walk = of('Walkthrough');
    expect(walk.stdout).toMatch(/"status": "delivered"|delivered/);
    expect(walk.stdout).toMatch(/answered\s+by pstn \+14155550123/); // the simulated call was answered
    expect(walk.stdout).toMatch(/call\.completed/);
    expect(walk.stderr).toContain('stopped the local service');

    // The reference blocks run too, each value caught from an earlier command.
    const using = of('Using it');
    expect(using.stdout).toMatch(/delivered/);
    expect(using.stderr).toMatch(/logged in: profile "staging"/);
    expect(using.stdout).toContain('changes (exit 1)'); // routes diff: the plan before the apply
    expect(using.stdout).toMatch(/^recordCalls: true$/m);

    const voice = of('Voice');
    // The clock advance ran both calls: the answered one recorded and transcribed, the other a voicemail.
    expect(voice.stdout).toMatch(/^call_\w+\tmissed\t\+14155550188\t.*\tvoicemail\t/m);
    expect(voice.stdout).toMatch(/event\s+call\.completed/);
    expect(voice.stdout).toMatch(/transcript\s+recording rec_\w+: available/);
    expect(voice.stdout).toMatch(/^vm_\w+\t\+14155550188\t/m);
    expect(voice.stdout).toMatch(/\/media\/greeting_\w+\.wav$/m); // the voicemail's audio became the greeting
    expect(voice.stdout).toMatch(/"direction": "outbound"/); // the softphone's call

    const callTests = of('Calls as tests');
    // The shipped example walks every branch of its route file; the number's own route stays unset.
    expect(callTests.stdout).toMatch(/^✓ sales picks up$/m);
    expect(callTests.stdout).toMatch(/^✓ a blocked caller never rings$/m); // the Voice block blocked that caller
    expect(callTests.stdout).toContain('coverage: 10 of 10 branches (100%)');
    expect(callTests.stdout).toMatch(/^null$/m);
    expect(callTests.stdout).toMatch(/^100$/m);

    const dlc = of('10DLC registration and ports');
    expect(dlc.stdout).toContain('not high yet (exit 1)');
    expect(dlc.stdout).toMatch(/"mock": true/);
    expect(dlc.stdout).toMatch(/"type": "lead\.captured"/);
    expect(dlc.stdout).toMatch(/"status": "submitted"/);
    expect(dlc.stderr).toContain('stopped the local service');

    const email = of('Email');
    expect(email.stdout).toMatch(/^_svc-verification\.send\.example\.org\. 3600 IN TXT "/m);
    expect(email.stderr).toMatch(/^valid\s+dkim/m);
    expect(email.stdout).toContain('"status": "verified"');
    expect(email.stdout).toContain('"subject": "Your code"'); // emails wait found it in the mail sandbox
    expect(email.stdout).toContain('bounced (exit 1)');
    expect(email.stdout).toContain('hard_bounce');
    expect(email.stdout).toContain('degraded (exit 1)');
    expect(email.stderr).toContain('deleted the sending domain send.example.com');

    const billing = of('Billing and usage');
    // $20.00 at the start, less the Email block's three live emails (a cent each).
    expect(billing.stdout).toContain('"balanceCents": 1997');
    expect(billing.stdout).toContain('"kind": "auto_recharge"');
    expect(billing.stdout).toContain('"autoRechargeStarted": true');
    expect(billing.stdout).toContain('declined (exit 7)');
    expect(billing.stderr).toContain('the card was declined');

    const fixtures = of('Fixtures');
    // The examples the package ships, found from the home directory.
    expect(fixtures.stdout).toContain(`${join(REPO_ROOT, 'examples', 'sms-auto-responder.yaml')}\n`);
    // The first run: a line per step, then its cleanup (number and webhook); the second: NDJSON.
    expect(fixtures.stdout).toMatch(/^number\tsvc numbers buy \+1415\d{7} --yes → exit 0\tnum_\w+\t\d+$/m);
    expect(fixtures.stdout).toMatch(/^received\t1 message\.received event\tevt_\w+\t\d+$/m);
    expect(fixtures.stdout).toMatch(/^cleanup\tPOST \/v1\/numbers\/num_\w+\/release → 200\t/m);
    expect(fixtures.stdout).toMatch(/^cleanup\tDELETE \/v1\/webhooks\/we_\w+ → 204\t/m);
    const records = fixtures.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { ok: boolean });
    expect(records.length).toBeGreaterThan(2);
    for (const r of records) expect(r).toMatchObject({ ok: true });

    const snapshots = of('Snapshots and reset');
    expect(snapshots.stderr).toContain('saved snapshot before-demo');
    expect(snapshots.stderr).toContain('loaded snapshot before-demo');
    expect(snapshots.stdout).toMatch(/^before-demo\t\d+\t\S+\t\d+$/m);
    expect(snapshots.stderr).toContain('reset the local service (accounts and keys kept)');
    expect(snapshots.stderr).toContain('removed snapshot before-demo');

    // /mcp with curl: the groups' tools and the waiting ones, a send through a tool, a wait that times out.
    const agent = of('Use it from an AI agent');
    expect(agent.stdout.split('\n').filter((l) => /^[a-z_-]+$/.test(l)).sort()).toEqual(['keys_create', 'keys_get', 'keys_list', 'keys_revoke', 'messages_get', 'messages_list', 'messages_send', 'wait_for_email', 'wait_for_event']);
    expect(agent.stdout).toContain('"body": "hi from an agent"');
    expect(agent.stdout).toMatch(/timed out after 1s: no event of message\.received/);
  }, RUN_TIMEOUT_MS + 60_000);
});
