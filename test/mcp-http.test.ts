// The service's /mcp from an MCP client's side: the SDK's own Client over its streamable HTTP
// transport, against a real test service serving the CLI's tools as `svc server start` does. The
// same tools as `svc mcp`, each call an API request with the client's own key: refused without a
// key or with a revoked one as the API refuses, scoped to the key's account and sub-account,
// narrowed by `?groups=`, and limited by the key's own rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ONE_REPLICA, startTestService, type TestService } from './helpers/service.js';
import { itOnOneReplica } from './helpers/engines.js';
import { advance, liveNumber } from './messages-fixtures.js';
import { freshDomain, verifiedDomain } from './helpers/email-fixtures.js';
import { EXIT } from '../src/cli/exit-codes.js';
import { loadRegistry } from '../src/cli/registry.js';
import { servable, toolName } from '../src/cli/commands/mcp/tools.js';
// The CLI's root lends the registry to the tools (src/cli/host.ts), as it does in `svc server start`.
import '../src/cli/main.js';

/** What `svc server start` hands the service for /mcp (commands/server/start.run.ts). */
const mcp = async () => await (await import('../src/cli/commands/mcp/http.run.js')).createMcpHttpEndpoint();

let service: TestService;
const clients: Client[] = [];

beforeAll(async () => {
  service = await startTestService({ mcp });
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await service?.stop();
});

async function connect(key: string, o: { query?: string; headers?: Record<string, string>; on?: TestService } = {}): Promise<Client> {
  const on = o.on ?? service;
  const transport = new StreamableHTTPClientTransport(new URL(`${on.baseUrl}/mcp${o.query ?? ''}`), {
    requestInit: { headers: { authorization: `Bearer ${key}`, ...(o.headers ?? {}) } },
  });
  const client = new Client({ name: 'svc-mcp-http-test', version: '0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const textOf = (result: object): string => (((result as { content?: unknown }).content as { type: string; text: string }[])[0]?.text ?? '');

/** One JSON-RPC message POSTed to /mcp as is: the status and the body (the stream's data lines, or the envelope). */
async function post(message: object, o: { key?: string | null; query?: string; on?: TestService } = {}): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
  const on = o.on ?? service;
  const key = o.key === undefined ? on.bootstrap.liveKey : o.key;
  const res = await request(`${on.baseUrl}/mcp${o.query ?? ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(key === null ? {} : { authorization: `Bearer ${key}` }) },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
  const text = await res.body.text();
  const data = text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
  return { status: res.statusCode, headers: res.headers, body: data.length ? data[data.length - 1] : text ? JSON.parse(text) : undefined };
}

async function newKey(mode: 'live' | 'test' = 'live', headers?: Record<string, string>): Promise<{ id: string; key: string }> {
  const res = await service.call('POST', '/v1/keys', { body: { name: `mcp-${mode}`, mode }, headers });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('/mcp: the tools of svc mcp over HTTP', () => {
  it('lists the same tools as svc mcp: the registry verbs and the two waiting tools', async () => {
    const client = await connect(service.bootstrap.liveKey);
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    const { verbs } = await loadRegistry();
    expect(names).toEqual([...verbs.filter((r) => servable(r.verb)).map(toolName), 'wait_for_email', 'wait_for_event'].sort());
  });

  it('a message sent through messages_send, then wait_for_event for its delivery, which the clock brings', async () => {
    const from = await liveNumber(service);
    const client = await connect(service.bootstrap.liveKey);
    const sent = await client.callTool({ name: 'messages_send', arguments: { from: from.phoneNumber, to: '+14155550142', body: 'hello from an agent' } });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    const message = JSON.parse(textOf(sent)) as { id: string; status: string };
    expect(message.id).toMatch(/^msg_/);

    // The clock moves once the wait listens (its progress note): the delivery comes after the call began.
    let advanced: Promise<void> | undefined;
    const waited = await client.callTool(
      { name: 'wait_for_event', arguments: { types: ['message.status'], match: { messageId: message.id, status: 'delivered' }, timeout: 60 } },
      undefined,
      { onprogress: () => void (advanced ??= advance(service, 60)) },
    );
    await advanced;
    expect(advanced, 'the wait said it listens').toBeDefined();
    expect(waited.isError, textOf(waited)).toBeFalsy();
    expect(JSON.parse(textOf(waited))).toMatchObject({ type: 'message.status', messageId: message.id, status: 'delivered', id: expect.stringMatching(/^evt_/) });
  });

  it('wait_for_event past its timeout is an error saying so (exit 1); the timeout is bounded', async () => {
    const client = await connect(service.bootstrap.liveKey);
    const res = await client.callTool({ name: 'wait_for_event', arguments: { types: ['message.received'], timeout: 1 } });
    expect(res.isError).toBe(true);
    const body = JSON.parse(textOf(res)) as { error: { message: string }; exitCode: number };
    expect(body.error.message).toMatch(/timed out after 1s/);
    expect(body.exitCode).toBe(EXIT.failure);
    const over = await client.callTool({ name: 'wait_for_event', arguments: { timeout: 121 } });
    expect(over.isError).toBe(true);
    expect(textOf(over)).toMatch(/timeout/);
  });

  it('wait_for_email returns the mail sandbox message an emails_send tool call sent', async () => {
    const domain = freshDomain('mcp');
    await verifiedDomain(service, domain);
    const client = await connect(service.bootstrap.liveKey);
    const sent = await client.callTool({ name: 'emails_send', arguments: { from: `hello@${domain}`, to: ['ada@example.org'], subject: 'Your code is 1234', text: 'code 1234' } });
    expect(sent.isError, textOf(sent)).toBeFalsy();
    await advance(service, 60);
    const waited = await client.callTool({ name: 'wait_for_email', arguments: { to: 'ada@example.org', subjectMatch: '^Your code', timeout: 30 } });
    expect(waited.isError, textOf(waited)).toBeFalsy();
    expect(JSON.parse(textOf(waited))).toMatchObject({ to: 'ada@example.org', subject: 'Your code is 1234' });
    const none = await client.callTool({ name: 'wait_for_email', arguments: { to: 'ada@example.org', subjectMatch: '^Never', timeout: 1 } });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/timed out after 1s/);
  });

  it('?groups= serves only those groups (and the waiting tools); an unknown group is a 400 naming the groups', async () => {
    const client = await connect(service.bootstrap.liveKey, { query: '?groups=keys,messages' });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('keys_list');
    expect(names).toContain('messages_send');
    expect(names.filter((n) => !/^(keys|messages)_/.test(n)).sort()).toEqual(['wait_for_email', 'wait_for_event']);
    const bad = await post({ id: 1, method: 'tools/list' }, { query: '?groups=keys,nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'validation_error', details: [{ path: ['query', 'groups'], message: expect.stringMatching(/"nope".*messages, /) }] });
  });

  it('without a key, with a malformed or a revoked one: 401 with the envelope, as the API answers', async () => {
    const revoked = await newKey();
    expect((await service.call('DELETE', `/v1/keys/${revoked.id}`)).status).toBe(204);
    for (const key of [null, 'sk_live_nonsense', revoked.key]) {
      const res = await post({ id: 1, method: 'tools/list' }, { key });
      const api = await service.call('GET', '/v1/keys', { key });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
      expect(res.body.error.message).toBe(api.body.error.message);
    }
    await expect(connect(revoked.key)).rejects.toThrow(/401|revoked/);
  });

  it("another account's ids are not_found in the tool's answer, as the API answers; Service-Subaccount scopes the calls", async () => {
    const sub = await service.call('POST', '/v1/subaccounts', { body: { name: 'MCP child' } });
    expect(sub.status).toBe(201);
    const agencyMessage = await service.call('POST', '/v1/messages', { body: { from: '+15005550006', to: '+14155550143', body: 'the agency' } });
    expect(agencyMessage.status).toBe(201);
    const childKey = await newKey('live', { 'service-subaccount': sub.body.id });

    for (const client of [await connect(childKey.key), await connect(service.bootstrap.liveKey, { headers: { 'service-subaccount': sub.body.id } })]) {
      const res = await client.callTool({ name: 'messages_get', arguments: { id: agencyMessage.body.id } });
      expect(res.isError).toBe(true);
      const body = JSON.parse(textOf(res)) as { error: { code: string }; exitCode: number };
      expect(body.error.code).toBe('not_found');
      expect(body.exitCode).toBe(EXIT.notFound);
      const listed = JSON.parse(textOf(await client.callTool({ name: 'messages_list', arguments: {} }))) as { id: string }[];
      expect(listed.map((m) => m.id)).not.toContain(agencyMessage.body.id);
    }
    // The agency itself reads it through /mcp.
    const own = await (await connect(service.bootstrap.liveKey)).callTool({ name: 'messages_get', arguments: { id: agencyMessage.body.id } });
    expect(own.isError, textOf(own)).toBeFalsy();
  });

  it('a test key acts as a test key: its calls see only test records', async () => {
    const test = await newKey('test');
    const client = await connect(test.key);
    const res = await client.callTool({ name: 'keys_create', arguments: { name: 'minted', mode: 'live' } });
    expect(res.isError).toBe(true);
    expect((JSON.parse(textOf(res)) as { error: { code: string } }).error.code).toBe('forbidden');
  });

  it('GET and DELETE /mcp answer 405 (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await request(`${service.baseUrl}/mcp`, { method, headers: { authorization: `Bearer ${service.bootstrap.liveKey}`, accept: 'text/event-stream' } });
      await res.body.text();
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('POST');
    }
  });
});

describe('/mcp is bounded per key, as held reads are', () => {
  // Each process counts what it holds (as it does held reads): one replica, so the 17th request
  // meets the count the 16 made.
  let single: TestService;
  beforeAll(async () => {
    single = await startTestService({ mcp, ...ONE_REPLICA });
  });
  afterAll(async () => await single?.stop());

  /** A wait_for_event call POSTed as is, read until it says it listens; `stop` abandons it. */
  async function heldWait(key: string): Promise<{ stop: () => void }> {
    const controller = new AbortController();
    const res = await request(`${single.baseUrl}/mcp`, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'wait_for_event', arguments: { types: ['message.received'], timeout: 120 }, _meta: { progressToken: 1 } } }),
    });
    expect(res.statusCode).toBe(200);
    // Read by hand: leaving a for-await loop would close the body, and with it the request.
    const chunks = res.body[Symbol.asyncIterator]();
    let seen = '';
    while (!seen.includes('notifications/progress')) {
      const next = await chunks.next();
      if (next.done) break;
      seen += String(next.value);
    }
    expect(seen).toContain('notifications/progress');
    return { stop: () => controller.abort() };
  }

  itOnOneReplica('16 MCP requests at once per key, then 429; an abandoned wait lets go of its held read', () => single, async () => {
    const made = await single.call('POST', '/v1/keys', { body: { name: 'mcp-live', mode: 'live' } });
    expect(made.status, made.text).toBe(201);
    const { key } = made.body as { key: string };
    const waits = await Promise.all(Array.from({ length: 16 }, () => heldWait(key)));
    const over = await post({ id: 2, method: 'tools/list' }, { key, on: single });
    expect(over.status).toBe(429);
    expect(over.body.error.message).toMatch(/MCP requests of this key/);
    // Each wait is an API held read of the key's: the API's own bound fills too. A wait says it
    // listens once its cursor is fixed, just before it sends its held read, so the 16 reads may still
    // be on their way: a probe let in holds a place for its second, and a wait refused meanwhile
    // retries after its backoff (1 s, doubling), so the probe leaves each wait twice that before it
    // asks again. It is refused once the 16 are held; the deadline guards against a hang.
    const probeDeadline = Date.now() + 60_000;
    for (let pauseMs = 2_000; ; pauseMs *= 2) {
      const direct = await single.call('GET', '/v1/events?after=now&wait=1', { key });
      if (direct.status === 429) break;
      expect(direct.status).toBe(200);
      if (Date.now() + pauseMs > probeDeadline) throw new Error('the key\'s held reads never filled with the 16 waits');
      await new Promise((r) => setTimeout(r, pauseMs));
    }

    for (const w of waits) w.stop();
    // Released when each client goes away (a bound against a hang, not a timing).
    const deadline = Date.now() + 15_000;
    for (;;) {
      const [mcpAgain, feed] = await Promise.all([post({ id: 3, method: 'tools/list' }, { key, on: single }), single.call('GET', '/v1/events?after=now&wait=1', { key })]);
      if (mcpAgain.status === 200 && feed.status === 200) break;
      if (Date.now() > deadline) throw new Error(`still refused after the clients left: /mcp ${mcpAgain.status}, feed ${feed.status}`);
    }
  });
});

describe('/mcp keeps the API rate limit', () => {
  let limited: TestService;
  const BURST = 10;
  beforeAll(async () => {
    limited = await startTestService({ mcp, rateLimit: { ratePerSec: 1, burst: BURST } });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('each /mcp request takes from its key\'s bucket, and each tool call too: a burst past it is answered 429', async () => {
    const started = performance.now();
    const calls = Array.from({ length: 3 * BURST }, (_, i) => post({ id: i, method: 'tools/call', params: { name: 'keys_list', arguments: { limit: 1 } } }, { on: limited }));
    const answers = await Promise.all(calls);
    const elapsedSecs = (performance.now() - started) / 1000;
    const refused = answers.filter((a) => a.status === 429);
    for (const a of refused) expect(a.body.error.code).toBe('rate_limited');
    // At most the bucket and what it refilled meanwhile (1 a second) passed; the rest were refused at once.
    const served = answers.filter((a) => a.status === 200);
    expect(served.length).toBeLessThanOrEqual(BURST + Math.ceil(elapsedSecs));
    expect(refused.length).toBeGreaterThan(0);
    expect(served.length + refused.length).toBe(answers.length);
    // The calls let in found the bucket empty too: their API requests were refused 429 in turn.
    const toolRefusals = served.map((a) => a.body.result).filter((r) => r.isError).map((r) => JSON.parse(r.content[0].text).error.code);
    console.log(`rate limit ${BURST} burst, 1/s: ${answers.length} /mcp tool calls at once -> ${refused.length} answered 429, ${served.length} served (${toolRefusals.length} of them refused by the API: ${toolRefusals.join(',')})`);
  });
});
