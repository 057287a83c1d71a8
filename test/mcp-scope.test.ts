// `svc mcp` acts only through the API, with the one credential it resolved at its start. An MCP
// client (the SDK's own) drives the built CLI over stdio against a real test service: no tool works
// on this machine (profiles, contexts, the server's data directory) or takes a path; a file's text is
// given as text; the profile file on disk is the same bytes after a session; and a change of the
// current profile on disk during a session changes nothing for it (contract §2: a test key cannot
// mint a live key, and a session started with a test key stays one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startTestService, type TestService } from './helpers/service.js';
import { assertBuilt, BIN_PATH } from './helpers/cli.js';
import { EXIT } from '../src/cli/exit-codes.js';

let service: TestService;
let home: string;
let configDir: string;
const clients: Client[] = [];

/** The profile file: the session starts on `agent` (a test key); `owner` holds the live key. */
function writeProfiles(current: string): void {
  const profiles = {
    agent: { baseUrl: service.baseUrl, apiKey: service.bootstrap.testKey },
    owner: { baseUrl: service.baseUrl, apiKey: service.bootstrap.liveKey },
  };
  writeFileSync(join(configDir, 'config.json'), `${JSON.stringify({ currentProfile: current, profiles }, null, 2)}\n`);
}

/** Every file under `dir` with its bytes: what a session must leave as it found. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[relative(dir, full)] = readFileSync(full).toString('base64');
    }
  };
  walk(dir);
  return out;
}

beforeAll(async () => {
  assertBuilt();
  service = await startTestService();
  home = mkdtempSync(join(tmpdir(), 'svc-mcp-scope-'));
  configDir = join(home, 'config');
  mkdirSync(configDir);
  writeProfiles('agent');
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await service?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** `svc mcp` with the profile file only: no SVC_API_KEY or SVC_BASE_URL, the current profile decides. */
async function connect(): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN_PATH, 'mcp'],
    env: { PATH: process.env.PATH ?? '', HOME: home, SVC_CONFIG_DIR: configDir, SVC_DATA_DIR: service.dataDir },
    cwd: home,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'svc-mcp-scope-test', version: '0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const textOf = (result: object): string => (((result as { content?: unknown }).content as { type: string; text: string }[])[0]?.text ?? '');

/** The flags and arguments that name a path or state on this machine, as a tool's key would spell them. */
const PATH_KEYS = ['file', 'textFile', 'htmlFile', 'bodyFile', 'answers', 'fromFile', 'resume', 'out', 'input', 'cursorFile', 'data', 'chaos'];

describe('svc mcp: the tools', () => {
  it('serves nothing that works on this machine: no profiles, context, login, server, fixtures or completion tool', async () => {
    const client = await connect();
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('keys_create');
    const local = names.filter((n) => /^(profiles|context|server|fixtures)_/.test(n) || ['login', 'completion'].includes(n));
    expect(local).toEqual([]);
  });

  it('no tool takes a path; a file a verb reads is given as its text (emails_send html, routes_apply route, api body)', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    for (const tool of tools) {
      const keys = Object.keys(tool.inputSchema.properties ?? {});
      expect(keys.filter((k) => PATH_KEYS.includes(k)), tool.name).toEqual([]);
    }
    const props = (name: string) => Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties ?? {});
    expect(props('emails_send')).toEqual(expect.arrayContaining(['text', 'html', 'subject']));
    expect(props('routes_apply')).toEqual(expect.arrayContaining(['number', 'route']));
    expect(tools.find((t) => t.name === 'registrations_submit')!.inputSchema.required).toContain('document');
    expect(props('api')).toContain('body');
    // An audio upload has no text to stand for its file: not a tool.
    expect(tools.map((t) => t.name)).not.toContain('numbers_greeting');
  });

  it('a path is refused as an unknown field, and what the file holds is not sent', async () => {
    const client = await connect();
    const secret = join(home, 'secret.txt');
    writeFileSync(secret, 'the contents of a local file');
    const res = await client.callTool({ name: 'emails_send', arguments: { from: 'a@send.example.com', to: 'b@example.org', subject: 'x', textFile: secret } });
    expect(res.isError).toBe(true);
    expect(textOf(res)).toMatch(/textFile/);
  });

  it("a file's text given as text reaches the verb: api with `body` creates a key through the API", async () => {
    const client = await connect();
    const res = await client.callTool({ name: 'api', arguments: { method: 'POST', path: '/v1/keys', body: JSON.stringify({ name: 'from-body', mode: 'test' }) } });
    expect(res.isError, textOf(res)).toBeFalsy();
    expect(JSON.parse(textOf(res))).toMatchObject({ name: 'from-body', mode: 'test' });
  });

  it('profiles_use, server_snapshot_save and context_use are unknown tools', async () => {
    const client = await connect();
    for (const [name, args] of [
      ['profiles_use', { name: 'owner' }],
      ['server_snapshot_save', { name: join(home, 'every-tenant.db') }],
      ['context_use', { subaccountId: 'sub_x' }],
    ] as const) {
      const res = await client.callTool({ name, arguments: args });
      expect(res.isError, name).toBe(true);
      expect(textOf(res)).toMatch(new RegExp(`Tool ${name} not found`));
    }
    expect(readdirSync(home)).not.toContain('every-tenant.db');
  });
});

describe('svc mcp: one credential, pinned', () => {
  it('keys_create {mode: live} under a test key is refused by the API (403, exit 3)', async () => {
    writeProfiles('agent');
    const client = await connect();
    const res = await client.callTool({ name: 'keys_create', arguments: { name: 'escalate', mode: 'live' } });
    expect(res.isError).toBe(true);
    const body = JSON.parse(textOf(res)) as { error: { code: string }; exitCode: number };
    expect(body.error.code).toBe('forbidden');
    expect(body.exitCode).toBe(EXIT.auth);
  });

  it('the current profile switched on disk during a session changes nothing: still the test key, still refused', async () => {
    writeProfiles('agent');
    const client = await connect();
    const before = await client.callTool({ name: 'keys_create', arguments: { name: 'before', mode: 'test' } });
    expect(before.isError, textOf(before)).toBeFalsy();
    try {
      // Someone runs `svc profiles use owner` in another terminal.
      writeProfiles('owner');
      const live = await client.callTool({ name: 'keys_create', arguments: { name: 'escalate', mode: 'live' } });
      expect(live.isError, textOf(live)).toBe(true);
      expect((JSON.parse(textOf(live)) as { error: { code: string } }).error.code).toBe('forbidden');
    } finally {
      writeProfiles('agent');
    }
    const keys = (await service.call('GET', '/v1/keys?limit=100')).body.data as { name: string; mode: string }[];
    expect(keys.filter((k) => k.name === 'escalate')).toEqual([]);
  });

  it('the configuration directory holds the same bytes after a session of reads, writes and refusals', async () => {
    writeProfiles('agent');
    const before = tree(configDir);
    const client = await connect();
    const calls: [string, Record<string, unknown>][] = [
      ['keys_list', {}],
      ['keys_create', { name: 'agent-made', mode: 'test' }],
      ['profiles_use', { name: 'owner' }],
      ['context_use', { subaccountId: 'sub_x' }],
      ['brands_register', { legalName: 'Acme', mock: true }],
      ['webhooks_list', {}],
    ];
    for (const [name, args] of calls) await client.callTool({ name, arguments: args });
    await client.close();
    expect(tree(configDir)).toEqual(before);
  });
});
