// A user's pattern runs in linear time wherever it is matched (`svc emails wait --subject-match`,
// MCP's `emails_wait`): a pattern a backtracking engine would chew on for minutes, against subjects
// in the mail sandbox, answers within the command's own timeout. One the linear engine cannot run (a
// lookaround) is a usage error naming the flag, not a slow match.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startTestService, type TestService } from './helpers/service.js';
import { assertBuilt, BIN_PATH, runSvcProcess } from './helpers/cli.js';
import { verifiedDomain } from './helpers/email-fixtures.js';
import { EXIT } from '../src/cli/exit-codes.js';

let service: TestService;
let home: string;
let from: string;
const to = 'patterns@example.org';

/**
 * Subjects a backtracking engine takes exponential time on (30 `a`s then `!` against `^(a+)+$`; 40
 * `x`s against `(x+x+)+y`), each before the subject that matches.
 */
const SUBJECTS = [`${'a'.repeat(30)}!`, 'x'.repeat(40), 'aaaa', 'xxy'];

/** The deadline a run must answer within: its own --timeout is 5 s; a backtracking match takes minutes. */
const DEADLINE_MS = 30_000;

beforeAll(async () => {
  assertBuilt();
  service = await startTestService();
  home = mkdtempSync(join(tmpdir(), 'svc-patterns-'));
  from = `hello@${(await verifiedDomain(service, 'patterns.example.com')).domain}`;
  for (const subject of SUBJECTS) {
    const sent = await service.call('POST', '/v1/emails', { body: { from, to, subject, text: 'x' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  }
  await service.advanceJobs(60);
  const box = await service.call('GET', `/v1/sandbox/mailbox?to=${encodeURIComponent(to)}`);
  expect(box.body.data.map((m: { subject: string }) => m.subject)).toEqual(SUBJECTS);
});

afterAll(async () => {
  await service?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

describe('svc emails wait --subject-match', () => {
  it('^(a+)+$ past 30 a\'s and a "!" finds "aaaa" within its 5 s timeout', async () => {
    const res = await runSvcProcess(['emails', 'wait', '--to', to, '--subject-match', '^(a+)+$', '--since', 'all', '--timeout', '5s', '-o', 'json'], { service, timeoutMs: DEADLINE_MS });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ to, subject: 'aaaa' });
  });

  it('(x+x+)+y past 40 x\'s finds "xxy"', async () => {
    const res = await runSvcProcess(['emails', 'wait', '--to', to, '--subject-match', '(x+x+)+y', '--since', 'all', '--timeout', '5s', '-o', 'json'], { service, timeoutMs: DEADLINE_MS });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ subject: 'xxy' });
  });

  it('a lookaround is a usage error naming the flag (exit 2), before anything is read', async () => {
    const res = await runSvcProcess(['emails', 'wait', '--to', to, '--subject-match', '(?=a)', '--since', 'all', '--timeout', '5s'], { service, timeoutMs: DEADLINE_MS });
    expect(res.code).toBe(EXIT.usage);
    expect(res.stderr).toMatch(/--subject-match: .*\(\?=.*no lookarounds or backreferences/);
  });
});

describe('MCP emails_wait subjectMatch', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'svc-patterns-test', version: '0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN_PATH, 'mcp'],
        env: { PATH: process.env.PATH ?? '', HOME: home, SVC_CONFIG_DIR: join(home, 'config'), SVC_DATA_DIR: service.dataDir, SVC_BASE_URL: service.baseUrl, SVC_API_KEY: service.bootstrap.liveKey },
        stderr: 'pipe',
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
  });

  it('answers a backtracking pattern within its timeout, and the server stays responsive', async () => {
    for (const [subjectMatch, subject] of [
      ['^(a+)+$', 'aaaa'],
      ['(x+x+)+y', 'xxy'],
    ]) {
      const res = await client.callTool({ name: 'emails_wait', arguments: { to, subjectMatch, since: 'all', timeout: '5s' } }, undefined, { timeout: DEADLINE_MS });
      const text = ((res.content as { text: string }[])[0]?.text ?? '');
      expect(res.isError, text).toBeFalsy();
      expect(JSON.parse(text)).toMatchObject({ subject });
    }
    const listed = await client.callTool({ name: 'keys_list', arguments: {} }, undefined, { timeout: DEADLINE_MS });
    expect(listed.isError).toBeFalsy();
  });

  it('a lookaround is refused with the usage exit code, naming --subject-match', async () => {
    const res = await client.callTool({ name: 'emails_wait', arguments: { to, subjectMatch: '(?=a)', since: 'all', timeout: '5s' } }, undefined, { timeout: DEADLINE_MS });
    expect(res.isError).toBe(true);
    const body = JSON.parse(((res.content as { text: string }[])[0]?.text ?? '')) as { error: { message: string }; exitCode: number };
    expect(body.exitCode).toBe(EXIT.usage);
    expect(body.error.message).toMatch(/--subject-match/);
  });
});
