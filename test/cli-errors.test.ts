// How errors read: once, in words, and as JSON when -o json asks for it (cli.md "Output, errors and
// exit codes").
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { REPO_ROOT, runSvc } from './helpers/cli.js';
import { detailLines } from '../src/cli/error-details.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});
const run = (args: string[]) => runSvc(args, { service: svc });

describe('error output', () => {
  it('says a domain validation error once (no detail repeating the message)', async () => {
    const res = await run(['webhooks', 'create', '--url', 'https://10.0.0.5/hooks']);
    expect(res.code).toBe(2);
    const lines = res.stderr.trim().split('\n').filter((l) => !l.startsWith('request id'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((l) => l.includes('points at a private address'))).toHaveLength(1);
  });

  it('keeps every detail of a validation error that lists several', () => {
    expect(detailLines('the request failed validation', [{ path: ['body', 'to'], message: 'bad' }, { path: ['body', 'from'], message: 'worse' }])).toEqual(['body.to: bad', 'body.from: worse']);
    expect(detailLines('body.to: bad', [{ path: ['body', 'to'], message: 'bad' }])).toEqual([]);
    expect(detailLines('x', { suggested: { street: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' }, other: { a: 1 } })).toEqual(['suggested address: 1 Main St, Austin, TX 78701', 'other: {"a":1}']);
  });

  it('-o json: a local usage error is the same envelope as an API validation error', async () => {
    const local = await run(['numbers', 'search', '--area-code', '41', '-o', 'json']);
    expect(local.code).toBe(2);
    const envelope = JSON.parse(local.stderr);
    expect(envelope).toEqual({ error: { code: 'validation_error', message: expect.stringMatching(/^--area-code: /), details: [{ path: ['--area-code'], message: expect.stringContaining('3 digits') }] }, requestId: null });
    const remote = await run(['webhooks', 'create', '--url', 'https://10.0.0.5/hooks', '-o', 'json']);
    expect(remote.code).toBe(2);
    expect(Object.keys(JSON.parse(remote.stderr)).sort()).toEqual(Object.keys(envelope).sort());
  });

  it('login --api-key says why keys are never flags and what to use instead', async () => {
    const res = await run(['login', '--api-key', 'sk_test_abc']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("unknown option '--api-key'");
    expect(res.stderr).toContain('--api-key-stdin');
    expect(res.stderr).toContain('SVC_API_KEY');
    expect(res.stderr).toMatch(/process list/);
  });
});

// The service's messages name the API call that helps (`top it up with POST /v1/billing/wallet/top-up`),
// right for an API client. The command line says the command instead. This walks every such message
// the service can send (its source, grepped: a string that holds a /v1/ path inside a sentence) and
// has the CLI print it, as any verb meets it, from a loopback server answering with it.
const SERVER_DIR = join(REPO_ROOT, 'src', 'server');
// Route files hold the OpenAPI descriptions (read at /openapi.json by API clients), no error messages.
const NOT_MESSAGES = [join(SERVER_DIR, 'routes')];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return NOT_MESSAGES.includes(path) ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every string of the service's code that names a /v1/ path within a sentence, `${…}` filled with an id. */
function serviceMessagesNamingPaths(): { where: string; text: string }[] {
  const found: { where: string; text: string }[] = [];
  for (const file of sourceFiles(SERVER_DIR)) {
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\/?\*)/.test(line)) return;
      for (const m of line.matchAll(/(['"`])((?:\\.|(?!\1).)*?)\1/g)) {
        const text = m[2]!.replace(/\$\{[^}]*\}/g, 'id_1');
        // A string that IS a path is a route or a URL being built, not a sentence.
        if (text.includes('/v1/') && !text.startsWith('/v1/')) found.push({ where: `${relative(REPO_ROOT, file)}:${i + 1}`, text });
      }
    });
  }
  return found;
}

describe('the service\'s hints in CLI terms', () => {
  let server: Server;
  let answer = { status: 409, code: 'conflict', message: '', details: undefined as unknown };
  let fake: TestService;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(answer.status, { 'content-type': 'application/json', 'x-request-id': 'req_test' });
      res.end(JSON.stringify({ error: { code: answer.code, message: answer.message, ...(answer.details ? { details: answer.details } : {}) } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = { baseUrl: `http://127.0.0.1:${port}`, bootstrap: { liveKey: 'sk_live_0000000000000000000000000000' }, dataDir: '/nonexistent' } as unknown as TestService;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const said = async (args: string[], message: string, details?: unknown) => {
    answer = { status: 409, code: 'conflict', message, details };
    return runSvc(args, { service: fake });
  };

  it('every message of the service naming an API path is printed naming the svc command that makes the call', async () => {
    const messages = serviceMessagesNamingPaths();
    // The grep finds them (a change of style must not leave this test walking nothing).
    expect(messages.length).toBeGreaterThanOrEqual(10);
    const wrong: string[] = [];
    for (const { where, text } of messages) {
      const res = await said(['keys', 'list'], text);
      const line = res.stderr.split('\n').find((l) => l.startsWith('error: conflict: ')) ?? res.stderr;
      if (line.includes('/v1/') || !line.includes('`svc ')) wrong.push(`${where}: ${line}`);
    }
    expect(wrong).toEqual([]);
  });

  it('fills the command from the path and drops the body sketch; details are said the same way', async () => {
    const res = await said(['keys', 'list'], 'prt_9 needs a bill; attach with POST /v1/ports/prt_9/documents', [
      { path: ['body', 'spendLimitCents'], message: 'raise it with PATCH /v1/billing {spendLimitCents}' },
      { path: ['body', 'x'], message: 'confirm it with PATCH /v1/blocked-numbers/bn_1 {"autoSuggested": false}' },
    ]);
    expect(res.stderr).toContain('error: conflict: prt_9 needs a bill; attach with `svc ports attach prt_9 <file> --type <type>`');
    expect(res.stderr).toContain('  body.spendLimitCents: raise it with `svc billing limit <amount>`\n');
    expect(res.stderr).toContain('  body.x: confirm it with `svc blocked-numbers confirm bn_1`\n');
  });

  it('-o json keeps the API\'s envelope as sent, and `svc api` the API\'s words', async () => {
    const message = 'save a card first: PUT /v1/billing/card';
    expect(JSON.parse((await said(['keys', 'list', '-o', 'json'], message)).stderr).error.message).toBe(message);
    expect((await said(['api', 'GET', '/v1/keys'], message)).stderr).toContain(`error: conflict: ${message}`);
  });
});
