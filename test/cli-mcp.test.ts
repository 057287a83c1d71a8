// `svc mcp` from an MCP client's side. The SDK's own Client spawns the built CLI over stdio
// with the README's configuration, against a real test service: the tools come from the verb
// registry, a read and a write run the verbs' own run functions, refusals carry the envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startTestService, type TestService } from './helpers/service.js';
import { assertBuilt, BIN_PATH, runSvcProcess } from './helpers/cli.js';
import { readmeBlock } from './helpers/readme-blocks.js';
import { EXIT } from '../src/cli/exit-codes.js';
import { loadRegistry } from '../src/cli/registry.js';
import { servable, toolName } from '../src/cli/commands/mcp/tools.js';

interface McpConfig {
  mcpServers: Record<string, { command: string; args: string[] }>;
}

let service: TestService;
let home: string;
const clients: Client[] = [];

beforeAll(async () => {
  assertBuilt();
  service = await startTestService();
  home = mkdtempSync(join(tmpdir(), 'svc-mcp-'));
});

afterAll(async () => {
  for (const c of clients) await c.close();
  await service?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** A client connected to the server the README's configuration block starts (`svc` is the built launcher). */
async function connect(extraArgs: string[] = []): Promise<Client> {
  const config = JSON.parse(readmeBlock('mcp-config', 'json')) as McpConfig;
  const server = config.mcpServers.svc!;
  expect(server.command).toBe('svc');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN_PATH, ...server.args, ...extraArgs],
    // The built-in profiles read the local service's bootstrap.json from its data directory.
    env: { PATH: process.env.PATH ?? '', HOME: home, SVC_CONFIG_DIR: join(home, 'config'), SVC_DATA_DIR: service.dataDir },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'svc-mcp-test', version: '0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const textOf = (result: object): string => (((result as { content?: unknown }).content as { type: string; text: string }[])[0]?.text ?? '');

describe('svc mcp', () => {
  it('lists the registry verbs as tools, schemas from their args and flags, writes marked destructive', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.has('mcp')).toBe(false);
    const list = byName.get('keys_list')!;
    expect(list.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(Object.keys(list.inputSchema.properties ?? {})).toEqual(['limit', 'all', 'cursor']);
    expect((list.inputSchema.properties as Record<string, { type?: string }>).limit!.type).toBe('integer');
    const create = byName.get('keys_create')!;
    expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(create.inputSchema.required).toEqual(['name']);
    expect((create.inputSchema.properties as Record<string, { enum?: string[] }>).mode!.enum).toEqual(['live', 'test']);
    expect(byName.get('keys_revoke')!.inputSchema.required).toEqual(['id']);
    expect(byName.get('keys_get')!.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('every verb of every converted group that acts through the API and needs no terminal is a tool, and only those (besides the two waiting tools)', async () => {
    const client = await connect();
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    const { verbs } = await loadRegistry();
    expect(names).toEqual([...verbs.filter((r) => servable(r.verb)).map(toolName), 'wait_for_email', 'wait_for_event'].sort());
    // The groups converted to the registry last among them.
    for (const tool of ['billing_show', 'billing_top-up', 'usage', 'events_list', 'domains_delete', 'emails_send', 'emails_list', 'brands_register', 'campaigns_lint', 'registrations_predict', 'ports_check', 'webhooks_create', 'webhooks_delete', 'numbers_search', 'numbers_update']) expect(names).toContain(tool);
    for (const live of ['events_follow', 'webhooks_listen', 'webhooks_tail', 'login', 'profiles_add']) expect(names).not.toContain(live);
  });

  it('every tool name is one a model API accepts ([A-Za-z0-9_-], at most 64) and names one verb; an event type\'s dots are dashes', async () => {
    const client = await connect();
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const name of names) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(new Set(names).size).toBe(names.length);
    // Stable, and as the help says: `trigger billing.wallet.low_balance` is this tool.
    expect(names).toContain('trigger_billing-wallet-low_balance');
    expect(names).toContain('trigger_message-received');
    // The name reaches its verb: the service answers (here refusing the test profile's key).
    const called = await client.callTool({ name: 'trigger_billing-wallet-low_balance', arguments: {} });
    expect(JSON.parse(textOf(called))).toMatchObject({ requestId: expect.stringMatching(/^req_/) });
  });

  it('a read of a converted group: billing_show is the API answer (cents)', async () => {
    const client = await connect();
    const res = await client.callTool({ name: 'billing_show', arguments: {} });
    expect(res.isError, textOf(res)).toBeFalsy();
    expect(JSON.parse(textOf(res))).toMatchObject({ wallet: { balanceCents: expect.any(Number) } });
  });

  it('a write then a read: keys_create makes a key with the profile of the config, keys_list shows it', async () => {
    const client = await connect();
    const created = await client.callTool({ name: 'keys_create', arguments: { name: 'agent', mode: 'test' } });
    expect(created.isError, textOf(created)).toBeFalsy();
    const key = JSON.parse(textOf(created)) as { id: string; key: string; mode: string };
    expect(key.mode).toBe('test');
    expect(key.key).toMatch(/^sk_test_/);

    const listed = await client.callTool({ name: 'keys_list', arguments: { limit: 100 } });
    expect(listed.isError, textOf(listed)).toBeFalsy();
    const rows = JSON.parse(textOf(listed)) as { id: string; name: string }[];
    expect(rows.find((r) => r.id === key.id)?.name).toBe('agent');
    // The service agrees: the key was made through the API.
    const page = await service.call('GET', '/v1/keys?limit=100');
    expect(page.body.data.some((k: { id: string }) => k.id === key.id)).toBe(true);
  });

  it('a bad argument is a validation error naming the field; nothing is sent', async () => {
    const client = await connect();
    const before = (await service.call('GET', '/v1/keys?limit=100')).body.data.length;
    const bad = await client.callTool({ name: 'keys_create', arguments: { name: 'x', mode: 'staging' } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/mode/);
    const unknown = await client.callTool({ name: 'keys_list', arguments: { limt: 5 } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/limt/);
    expect((await service.call('GET', '/v1/keys?limit=100')).body.data.length).toBe(before);
  });

  it("a refusal of the service is the API's envelope with the CLI's exit code", async () => {
    const client = await connect();
    const res = await client.callTool({ name: 'keys_revoke', arguments: { id: 'key_doesnotexist000000' } });
    expect(res.isError).toBe(true);
    const body = JSON.parse(textOf(res)) as { error: { code: string }; exitCode: number };
    expect(body.error.code).toBe('not_found');
    expect(body.exitCode).toBe(EXIT.notFound);
  });

  it('--read-only serves only the verbs that change nothing', async () => {
    const client = await connect(['--read-only']);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('keys_list');
    expect(names).not.toContain('keys_create');
    expect(names).not.toContain('keys_revoke');
  });

  it('--groups serves only the tools of those groups, and the waiting tools', async () => {
    const client = await connect(['--groups', 'keys,numbers']);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('keys_list');
    expect(names).toContain('numbers_search');
    expect(names.filter((n) => !n.startsWith('keys_') && !n.startsWith('numbers_')).sort()).toEqual(['wait_for_email', 'wait_for_event']);
  });

  it('--groups with a group that has no tools is a usage error naming --groups and the groups there are', async () => {
    const res = await runSvcProcess(['mcp', '--groups', 'keys,nope'], { service });
    expect(res.code).toBe(EXIT.usage);
    expect(res.stderr).toMatch(/--groups/);
    expect(res.stderr).toMatch(/"nope"/);
    expect(res.stderr).toMatch(/messages, /);
    expect(res.stdout).toBe('');
  });
});
