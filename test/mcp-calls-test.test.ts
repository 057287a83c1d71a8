// `svc calls test` as a tool of `svc mcp`, from an MCP client's side (the SDK's Client over stdio,
// the README's configuration): the tool takes the test document's text, never a path; its answer is
// the json reporter's; a `route: FILE` in text has no file to be relative to and is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startTestService, type TestService } from './helpers/service.js';
import { fundAccount } from './helpers/money.js';
import { assertBuilt, BIN_PATH, REPO_ROOT } from './helpers/cli.js';
import { readmeBlock } from './helpers/readme-blocks.js';
import { EXIT } from '../src/cli/exit-codes.js';

// The number the shipped example names: the sandbox inventory is the same on every service.
const NUMBER = '+16285338556';
const EXAMPLE = readFileSync(join(REPO_ROOT, 'examples', 'calls', 'front-desk.test.yaml'), 'utf8');
const ROUTE = readFileSync(join(REPO_ROOT, 'examples', 'calls', 'front-desk.yaml'), 'utf8');
/** The shipped example with its route document written inline under `route:`. */
const INLINE = EXAMPLE.replace('route: front-desk.yaml\n', `route:\n${ROUTE.replace(/^(?=.)/gm, '  ')}`);

let service: TestService;
let home: string;
let client: Client;
let numberId: string;

beforeAll(async () => {
  assertBuilt();
  service = await startTestService();
  await fundAccount(service, service.bootstrap.accountId);
  const bought = await service.call('POST', '/v1/numbers/buy', { body: { phoneNumber: NUMBER } });
  expect(bought.status, bought.text).toBe(201);
  numberId = bought.body.id;
  expect((await service.call('POST', '/v1/blocked-numbers', { body: { phoneNumber: '+14155550177' } })).status).toBe(201);
  home = mkdtempSync(join(tmpdir(), 'svc-mcp-calls-'));
  const server = (JSON.parse(readmeBlock('mcp-config', 'json')) as { mcpServers: Record<string, { args: string[] }> }).mcpServers.svc!;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN_PATH, ...server.args],
    env: { PATH: process.env.PATH ?? '', HOME: home, SVC_CONFIG_DIR: join(home, 'config'), SVC_DATA_DIR: service.dataDir },
    stderr: 'pipe',
  });
  client = new Client({ name: 'svc-mcp-calls-test', version: '0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await service?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

const textOf = (result: object): string => (((result as { content?: unknown }).content as { type: string; text: string }[])[0]?.text ?? '');

describe('svc mcp: calls_test', () => {
  it('is a tool taking the test document as text (no path field), marked as a write', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'calls_test')!;
    expect(tool, 'calls_test is served').toBeDefined();
    expect(Object.keys(tool.inputSchema.properties ?? {}).sort()).toEqual(['document', 'minCoverage', 'reporter']);
    expect(tool.inputSchema.required).toEqual(['document']);
    expect(tool.annotations).toMatchObject({ destructiveHint: true });
  });

  it('runs the text with its route inline: the json reporter\'s answer, 100 %, the route never saved, the run kept', async () => {
    const routeBefore = await service.call('GET', `/v1/numbers/${numberId}/route`);
    const res = await client.callTool({ name: 'calls_test', arguments: { document: INLINE, minCoverage: 100 } });
    expect(res.isError, textOf(res)).toBeFalsy();
    const report = JSON.parse(textOf(res)) as { number: string; tests: Array<{ name: string; passed: boolean; failure: string | null; trace: unknown[] }>; coverage: unknown };
    expect(report.number).toBe(NUMBER);
    expect(report.tests).toHaveLength(7);
    expect(report.tests.every((t) => t.passed && t.failure === null && t.trace.length > 0)).toBe(true);
    expect(report.coverage).toEqual({ covered: 10, total: 10, percent: 100, uncovered: [] });
    expect((await service.call('GET', `/v1/numbers/${numberId}/route`)).body).toEqual(routeBefore.body);
    expect((await service.call('GET', `/v1/sandbox/numbers/${numberId}/call-coverage`)).body).toMatchObject({ source: 'file', tests: 7, passed: 7, percent: 100 });
  });

  it('a failed test is in the report, flagged as an error (exit 1), with the first expected step not found', async () => {
    const text = `number: "${NUMBER}"\ntests:\n  - name: Lee should answer\n    expect: { trace: [answered +14155550197] }\n`;
    const res = await client.callTool({ name: 'calls_test', arguments: { document: text } });
    expect(res.isError).toBe(true);
    const report = JSON.parse(textOf(res)) as { tests: Array<{ name: string; passed: boolean; failure: string }>; coverage: { total: number } };
    expect(report.tests).toEqual([expect.objectContaining({ name: 'Lee should answer', passed: false, failure: 'expected step not found: answered +14155550197' })]);
  });

  it('refuses route: FILE in text, naming the field, before anything is sent', async () => {
    const before = (await service.call('GET', `/v1/sandbox/numbers/${numberId}/call-coverage`)).body.recordedAt;
    const res = await client.callTool({ name: 'calls_test', arguments: { document: EXAMPLE } });
    expect(res.isError).toBe(true);
    const body = JSON.parse(textOf(res)) as { error: { code: string; message: string }; exitCode: number };
    expect(body.exitCode).toBe(EXIT.usage);
    expect(body.error.code).toBe('validation_error');
    expect(body.error.message).toMatch(/standard input:4: route: names a file \(front-desk\.yaml\).*give the route inline as a mapping/);
    expect((await service.call('GET', `/v1/sandbox/numbers/${numberId}/call-coverage`)).body.recordedAt).toBe(before);
  });
});
