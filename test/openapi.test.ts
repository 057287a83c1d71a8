// The OpenAPI document (contract §1, spec: Versioning 2): served without auth, OpenAPI 3.1 with
// interface version 0.1.0, valid, and listing every route the service really has.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';

let svc: TestService;
let doc: any;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** Registered on purpose without a document entry: the document itself, and /mcp: it speaks MCP's JSON-RPC, not this API (the description says how). */
const UNDOCUMENTED = new Set(['GET /openapi.json', 'POST /mcp', 'GET /mcp', 'DELETE /mcp']);
/** The console's HTML pages and forms are a browser's, not the API's (POST /v1/console/sessions documents how to open them). */
const isConsolePage = (route: string): boolean => / \/console(\/|$)/.test(route);

beforeAll(async () => {
  svc = await startTestService();
  const res = await svc.call('GET', '/openapi.json', { key: null });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  doc = res.body;
});

afterAll(async () => {
  await svc?.stop();
});

/** `METHOD /openapi/{path}` for every operation of the document. */
function documentedOperations(): string[] {
  const ops: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    for (const method of Object.keys(item)) if (HTTP_METHODS.includes(method)) ops.push(`${method.toUpperCase()} ${path}`);
  }
  return ops.sort();
}

/**
 * Every route the running Fastify app has, read from its own route tree (`printRoutes`), in OpenAPI
 * form (`:id` → `{id}`), HEAD left out (Fastify adds it to every GET).
 */
function registeredRoutes(app: TestService['app']): string[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const prefixes: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:│ {3}| {4})*)[├└]── (\S*)(?: \(([^)]*)\))?\s*$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const path = (prefixes[depth - 1] ?? '') + m[2]!;
    prefixes[depth] = path;
    prefixes.length = depth + 1;
    if (!m[3]) continue;
    for (const method of m[3].split(',').map((s) => s.trim())) {
      if (method === 'HEAD') continue;
      routes.push(`${method} ${path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
    }
  }
  return routes.sort();
}

describe('GET /openapi.json', () => {
  it('is served without auth as OpenAPI 3.1.0 with info.version 0.1.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('0.1.0');
    expect(typeof doc.info.title).toBe('string');
    expect(doc.paths).toBeTypeOf('object');
  });

  it('validates with @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const res = await validator.validate(structuredClone(doc));
    if (!res.valid) console.error('OpenAPI validation errors:', JSON.stringify(res.errors, null, 2));
    expect(res.valid).toBe(true);
  });

  it('lists every route the service has, and only those', () => {
    const registered = registeredRoutes(svc.app).filter((r) => !UNDOCUMENTED.has(r) && !isConsolePage(r));
    expect(registered.length).toBeGreaterThan(5);
    expect(documentedOperations()).toEqual(registered);
  });

  it('has the foundation routes', () => {
    const ops = documentedOperations();
    for (const op of [
      'GET /healthz',
      'GET /v1/keys',
      'POST /v1/keys',
      'DELETE /v1/keys/{id}',
      'GET /v1/subaccounts',
      'POST /v1/subaccounts',
      'GET /v1/subaccounts/{id}',
      'PATCH /v1/subaccounts/{id}',
      'GET /v1/agency/summary',
      'GET /v1/sandbox/clock',
      'POST /v1/sandbox/clock/advance',
    ]) {
      expect(ops).toContain(op);
    }
  });

  it('agrees with the Allow header the service gives for a wrong method on each documented path', async () => {
    const ops = documentedOperations().map((op) => op.split(' ') as [string, string]);
    const templates = [...new Set(ops.map(([, path]) => path))];
    const matcher = (template: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const template of templates) {
      const concrete = template.replace(/\{[^}]+\}/g, 'probe_id');
      // A concrete path can match several templates (`/v1/x/buy` and `/v1/x/{id}`): every method
      // routed for any of them is allowed.
      const expected = [...new Set(ops.filter(([, path]) => matcher(path).test(concrete)).map(([method]) => method))].sort();
      const res = await svc.call('TRACE', concrete);
      expect(res.status, `TRACE ${concrete}`).toBe(404);
      const allow = String(res.headers.allow ?? '')
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean)
        .sort();
      expect(allow, template).toEqual(expected);
    }
  });

  it('uses bearer auth globally and marks the public routes as needing none', () => {
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(doc.paths['/v1/keys'].get.security).toBeUndefined();
  });

  it('describes bodies, parameters, responses and the error envelope', () => {
    const create = doc.paths['/v1/keys'].post;
    const body = create.requestBody.content['application/json'].schema;
    expect(body.properties).toHaveProperty('name');
    expect(body.properties).toHaveProperty('mode');
    expect(body.required).toContain('name');
    expect(body.additionalProperties).toBe(false);
    expect(create.responses).toHaveProperty('201');
    expect(create.responses.default.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
    expect(doc.components.schemas).toHaveProperty('ErrorEnvelope');

    const list = doc.paths['/v1/keys'].get;
    const names = list.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(names).toEqual(expect.arrayContaining(['query:limit', 'query:cursor', 'query:format']));
    const limit = list.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.required).toBe(false);

    const del = doc.paths['/v1/keys/{id}'].delete;
    expect(del.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', required: true }));
    expect(del.responses).toHaveProperty('204');

    const ops = documentedOperations();
    const operationIds = ops.map((op) => {
      const [method, path] = op.split(' ') as [string, string];
      return doc.paths[path][method.toLowerCase()].operationId;
    });
    expect(new Set(operationIds).size).toBe(ops.length);
  });
});

/** The header parameters an operation declares, by lower-cased name. */
function declaredHeaders(op: { parameters?: Array<{ name: string; in: string }> }): string[] {
  return (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());
}

/** Every operation of the document with its path and method. */
function operations(): Array<{ method: string; path: string; op: any }> {
  const out: Array<{ method: string; path: string; op: any }> = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(item)) if (HTTP_METHODS.includes(method)) out.push({ method: method.toUpperCase(), path, op });
  }
  return out;
}

describe('the headers the API reads, declared for generated clients', () => {
  it('declares Idempotency-Key (in: header, optional) on every authenticated POST and on nothing else', () => {
    const posts = operations().filter(({ method, op }) => method === 'POST' && op.security === undefined);
    expect(posts.length).toBeGreaterThan(40);
    for (const { method, path, op } of operations()) {
      const expected = method === 'POST' && op.security === undefined;
      expect(declaredHeaders(op).includes('idempotency-key'), `${method} ${path}`).toBe(expected);
    }
    const param = doc.paths['/v1/keys'].post.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key');
    expect(param).toMatchObject({ in: 'header', required: false, schema: { type: 'string' } });
    // The declared pattern is the one the service enforces.
    const pattern = new RegExp(param.schema.pattern);
    expect(pattern.test('retry-1')).toBe(true);
    expect(pattern.test('has space')).toBe(false);
    expect(pattern.test('x'.repeat(256))).toBe(false);
  });

  it('declares Service-Subaccount on exactly the operations where an agency key may act on a sub-account', async () => {
    // Asked of the service itself: a sub-account id that is no child of this agency is a 403 where
    // the header is read, a 400 on agency-level routes, and a refusal of its own on service-wide acts.
    const authenticated = operations().filter(({ op }) => op.security === undefined);
    expect(authenticated.length).toBeGreaterThan(60);
    const mismatched: string[] = [];
    for (const { method, path, op } of authenticated) {
      const concrete = path.replace(/\{[^}]+\}/g, 'probe_id');
      const res = await svc.call(method, concrete, { headers: { 'service-subaccount': '00000000-0000-4000-8000-000000000000' } });
      const actsOnSubaccount = res.status === 403 && /not a direct sub-account/.test(res.body?.error?.message ?? '');
      if (declaredHeaders(op).includes('service-subaccount') !== actsOnSubaccount) mismatched.push(`${method} ${path} (${res.status} ${res.body?.error?.message})`);
    }
    expect(mismatched).toEqual([]);
    expect(declaredHeaders(doc.paths['/v1/messages'].post)).toContain('service-subaccount');
    expect(declaredHeaders(doc.paths['/v1/subaccounts'].get)).not.toContain('service-subaccount');
    expect(declaredHeaders(doc.paths['/healthz'].get)).toEqual([]);
  });

  it("declares If-Match on a number's route PUT, whose ETag it checks", () => {
    expect(declaredHeaders(doc.paths['/v1/numbers/{id}/route'].put)).toContain('if-match');
    expect(declaredHeaders(doc.paths['/v1/numbers/{id}/route'].get)).not.toContain('if-match');
  });
});
