// Fuzz: requests generated with fast-check from the service's own /openapi.json, sent to
// a real service on loopback, and the promises every answer keeps. Used by test/fuzz-openapi.test.ts
// (a fixed seed, a few runs per operation) and bench/fuzz.mjs (through that test, many more runs).
import fc from 'fast-check';
import { request } from 'undici';
import type { TestService } from './service.js';
import { deepJsonText, deref, fillPath, hugeString, label, objectSchema, oddString, validArb, wrongTypeArb, type Operation, type Param } from './openapi-ops.js';
import { pathValuesFor, type Fixtures } from './openapi-fixtures.js';
import { storedState } from './inspect.js';

/** Each request is bounded: an answer later than this is a hang (generous: the machine is shared). */
export const REQUEST_TIMEOUT_MS = 15_000;
/**
 * URL values stay under Node's header-size limit: a longer URL is refused by Node's parser (`431`)
 * before any route sees it, which is not what the fuzz is about (http/connections.ts answers it).
 */
export const MAX_URL_VALUE = 2_000;
/** Bodies carry strings up to this size (under the service's body limit and over it both happen via nesting/arrays). */
export const MAX_BODY_STRING = 300_000;

/** What a generated body is meant to be; the `reject` kinds must be refused (4xx). */
export type BodyKind = 'none' | 'valid' | 'unknown-field' | 'wrong-type' | 'missing-required' | 'hostile' | 'raw' | 'body-on-bodyless';
const MUST_REJECT: ReadonlySet<BodyKind> = new Set(['unknown-field', 'wrong-type', 'missing-required', 'body-on-bodyless']);

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  kind: BodyKind;
  /** A short description for a failure report (bodies can be huge). */
  note: string;
}

export interface FuzzContext {
  svc: TestService;
  doc: any;
  fx: Fixtures;
}

// Query values bounded so one request stays short: long-poll waits (`wait`, 0-30 real seconds by the
// schema) are 0 or 1 here.
const BOUNDED_QUERY: Record<string, fc.Arbitrary<string>> = { wait: fc.constantFrom('0', '1') };

/**
 * Sandbox operations that move service-wide state: their valid bodies are bounded so a run stays
 * fast. The clock advances at most 3 seconds per request.
 */
const BOUNDED_BODY: Record<string, (doc: any) => fc.Arbitrary<unknown>> = {
  'POST /v1/sandbox/clock/advance': () => fc.record({ seconds: fc.integer({ min: 0, max: 3 }) }),
};

const asQueryString = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function paramValue(ctx: FuzzContext, op: Operation, p: Param, real: string | undefined): fc.Arbitrary<string> {
  if (p.in === 'query' && BOUNDED_QUERY[p.name]) return fc.oneof(BOUNDED_QUERY[p.name]!, oddString);
  const valid = validArb(ctx.doc, p.schema).map(asQueryString);
  const choices: Array<fc.WeightedArbitrary<string>> = [
    { arbitrary: valid, weight: 4 },
    { arbitrary: oddString, weight: 2 },
    { arbitrary: wrongTypeArb(ctx.doc, p.schema).map(asQueryString), weight: 1 },
    { arbitrary: hugeString(MAX_URL_VALUE), weight: 1 },
  ];
  if (real !== undefined) choices.push({ arbitrary: fc.constant(real), weight: 8 });
  return fc.oneof(...choices);
}

// Header values a client can put on the wire (printable ASCII): undici refuses others before sending.
const headerText = fc.oneof(fc.uuid(), fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }), fc.constant('x'.repeat(300)), fc.constant(''));

function bodyArb(ctx: FuzzContext, op: Operation): fc.Arbitrary<{ kind: BodyKind; body?: string | Buffer; contentType?: string }> {
  const json = (kind: BodyKind) => (v: unknown) => ({ kind, body: JSON.stringify(v), contentType: 'application/json' });
  // Hostile bodies, as JSON text.
  const hostile = fc.oneof(
    hugeString(MAX_BODY_STRING).map((v) => JSON.stringify(v)),
    deepJsonText(50, 20_000),
    oddString.map((v) => JSON.stringify(v)),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.array(hugeString(20_000), { maxLength: 20 }).map((v) => JSON.stringify(v)),
  );
  const text = (kind: BodyKind) => (b: string) => ({ kind, body: b, contentType: 'application/json' });
  const raw = fc.oneof(
    fc.constantFrom('{', '{"a":', 'null', '[]', '\u0000', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"x":1}}}'),
    fc.string({ unit: 'binary', maxLength: 200 }),
  ).map((b) => ({ kind: 'raw' as BodyKind, body: b, contentType: 'application/json' }));
  const wrongContentType = fc
    .tuple(fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x'), fc.string({ maxLength: 50 }))
    .map(([contentType, b]) => ({ kind: 'raw' as BodyKind, body: b, contentType }));

  if (!op.body) {
    // contract §2: a body where none is taken is a validation_error (http/bodyless.ts).
    return fc.oneof(
      { arbitrary: fc.constant({ kind: 'none' as BodyKind }), weight: 4 },
      { arbitrary: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 }).map(json('body-on-bodyless')), weight: 2 },
      { arbitrary: hostile.map(text('hostile')), weight: 1 },
      { arbitrary: raw, weight: 1 },
    );
  }
  if (op.body.contentType !== 'application/json') {
    // Raw bodies (audio uploads, the hosted opt-in form): bytes under the declared type and others.
    const types = Object.keys(ctx.doc.paths[op.path][op.method.toLowerCase()].requestBody.content);
    return fc.oneof(
      fc.tuple(fc.constantFrom(...types), fc.uint8Array({ maxLength: 4096 })).map(([contentType, b]) => ({ kind: 'raw' as BodyKind, body: Buffer.from(b), contentType })),
      fc.tuple(fc.constantFrom(...types), oddString).map(([contentType, b]) => ({ kind: 'raw' as BodyKind, body: b, contentType })),
      raw,
      wrongContentType,
    );
  }
  const bounded = BOUNDED_BODY[label(op)];
  const valid = bounded ? bounded(ctx.doc) : validArb(ctx.doc, op.body.schema);
  const obj = objectSchema(ctx.doc, op.body.schema);
  const choices: Array<fc.WeightedArbitrary<{ kind: BodyKind; body?: string | Buffer; contentType?: string }>> = [
    { arbitrary: valid.map(json('valid')), weight: 4 },
    { arbitrary: hostile.map(text('hostile')), weight: 2 },
    { arbitrary: raw, weight: 1 },
    { arbitrary: wrongContentType, weight: 1 },
  ];
  if (obj) {
    const props = Object.keys(obj.properties);
    const required: string[] = obj.required ?? [];
    if (obj.additionalProperties === false) {
      // contract §2: unknown fields are rejected.
      choices.push({
        arbitrary: fc.tuple(valid, fc.constantFrom('unknownField', 'extra_field', 'zzUnexpected')).map(([v, k]) => json('unknown-field')({ ...(v as object), [k]: 1 })),
        weight: 2,
      });
    }
    if (props.length) {
      const typed = props.filter((k) => typeof fc.sample(wrongTypeArb(ctx.doc, obj.properties[k]), { numRuns: 1, seed: 1 })[0] !== 'symbol');
      if (typed.length) choices.push({
        arbitrary: fc
          .constantFrom(...typed)
          .chain((k) => fc.tuple(valid, fc.constant(k), wrongTypeArb(ctx.doc, obj.properties[k])))
          .map(([v, k, w]) => json('wrong-type')({ ...(v as object), [k]: w })),
        weight: 2,
      });
    }
    if (required.length) {
      choices.push({
        arbitrary: fc.tuple(valid, fc.constantFrom(...required)).map(([v, k]) => {
          const copy = { ...(v as Record<string, unknown>) };
          delete copy[k];
          return json('missing-required')(copy);
        }),
        weight: 1,
      });
    }
  }
  return fc.oneof(...choices);
}

/** The fast-check arbitrary of requests for one operation (throws when the schema cannot be generated). */
export function requestArb(ctx: FuzzContext, op: Operation): fc.Arbitrary<FuzzRequest> {
  const real = pathValuesFor(op.path, ctx.fx);
  const realValues = typeof real === 'string' ? {} : real;
  const pathParams = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const declared = new Map(op.params.filter((p) => p.in === 'path').map((p) => [p.name, p]));
  const pathArb = fc.record(
    Object.fromEntries(pathParams.map((name) => [name, paramValue(ctx, op, declared.get(name) ?? { name, in: 'path', required: true, schema: { type: 'string' } }, realValues[name])])),
  ) as fc.Arbitrary<Record<string, string>>;
  const queryParams = op.params.filter((p) => p.in === 'query');
  const queryArb = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, paramValue(ctx, op, p, undefined)])), { requiredKeys: [] }) as fc.Arbitrary<Record<string, string>>;
  // Some requests carry one: (weights: present : absent).
  const sometimes = <T>(arb: fc.Arbitrary<T>, present: number, absent: number): fc.Arbitrary<T | null> =>
    fc.oneof({ arbitrary: arb, weight: present }, { arbitrary: fc.constant(null), weight: absent });
  const extraQuery = sometimes(fc.tuple(fc.constantFrom('unknownParam', 'key', 'api_key'), oddString), 1, 4);
  const auth = fc.oneof(
    { arbitrary: fc.constant(`Bearer ${ctx.svc.bootstrap.liveKey}`), weight: 8 },
    { arbitrary: fc.constant(`Bearer ${ctx.svc.bootstrap.testKey}`), weight: 2 },
    { arbitrary: fc.constantFrom('', 'Bearer', 'Bearer sk_live_nope', 'Basic Zm9vOmJhcg==', `bearer ${ctx.svc.bootstrap.liveKey}x`), weight: 1 },
  );
  const idem = op.method === 'POST' ? sometimes(headerText, 2, 1) : fc.constant(null);
  const sub = sometimes(fc.oneof(headerText, fc.constant(ctx.fx.subaccount ?? 'none')), 1, 12);
  return fc.record({ path: pathArb, query: queryArb, extraQuery, auth, idem, sub, body: bodyArb(ctx, op) }).map((r) => {
    const qs = new URLSearchParams(r.query);
    if (r.extraQuery) qs.append(r.extraQuery[0], r.extraQuery[1]);
    const q = qs.toString();
    const headers: Record<string, string> = {};
    if (r.auth) headers.authorization = r.auth;
    if (r.idem !== null) headers['idempotency-key'] = r.idem;
    if (r.sub !== null) headers['service-subaccount'] = r.sub;
    if (r.body.contentType) headers['content-type'] = r.body.contentType;
    const url = `${fillPath(op.path, r.path)}${q ? `?${q}` : ''}`;
    const size = r.body.body === undefined ? 0 : r.body.body.length;
    const preview = typeof r.body.body === 'string' ? r.body.body.slice(0, 160) : r.body.body ? `<${size} bytes>` : '';
    return {
      method: op.method,
      url,
      headers,
      body: r.body.body,
      kind: r.body.kind,
      note: `${op.method} ${url.slice(0, 300)} [${r.body.kind}, ${size} chars${r.body.contentType ? `, ${r.body.contentType}` : ''}${r.idem !== null ? `, idempotency-key ${JSON.stringify(r.idem.slice(0, 40))}` : ''}${r.sub !== null ? ', service-subaccount' : ''}] ${preview}`,
    };
  });
}

export interface Outcome {
  requests: number;
  failures: string[];
  statuses: Record<string, number>;
}

/** Sends one request and checks every promise; pushes what broke onto `out.failures`. */
export async function checkOne(ctx: FuzzContext, op: Operation, req: FuzzRequest, out: Outcome): Promise<boolean> {
  await ctx.svc.flushWebhooks(); // deliveries of earlier accepted requests settle before the "before" snapshot
  const before = await storedState(ctx.svc);
  let status: number;
  let headers: Record<string, unknown>;
  let text: string;
  try {
    const res = await request(`${ctx.svc.baseUrl}${req.url}`, {
      method: req.method as 'GET',
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    status = res.statusCode;
    headers = res.headers;
    text = await res.body.text();
  } catch (err) {
    out.requests++;
    out.failures.push(`${req.note} → no answer: ${(err as Error).name} ${(err as Error).message}`);
    return false;
  }
  out.requests++;
  out.statuses[String(status)] = (out.statuses[String(status)] ?? 0) + 1;
  const problems: string[] = [];
  if (status >= 500) problems.push(`${status} server error`);
  // 3xx: the hosted opt-in form's Post/Redirect/Get (contract §7); everything 4xx/5xx is an error answer.
  if (status >= 400) {
    if (!headers['request-id']) problems.push('no Request-Id header');
    if (op.path.startsWith('/p/') && String(headers['content-type'] ?? '').startsWith('text/html')) {
      // Hosted pages answer errors as HTML pages (contract §7, ARCHITECTURE: Hosted pages).
    } else {
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      const e = body?.error;
      if (!e || typeof e.code !== 'string' || typeof e.message !== 'string' || Object.keys(body).length !== 1) problems.push(`not the error envelope: ${text.slice(0, 200)}`);
      if (/\n\s+at .+\(.+:\d+:\d+\)/.test(text)) problems.push('a stack trace in the body');
    }
    const after = await storedState(ctx.svc);
    if (after.hash !== before.hash) {
      const changed = Object.keys(after.counts).filter((t) => after.counts[t] !== before.counts[t]);
      problems.push(`a rejected request changed stored state (${changed.join(', ') || 'rows updated'})`);
    }
  }
  if (MUST_REJECT.has(req.kind) && status < 400) problems.push(`a ${req.kind} body was accepted (${status})`);
  if (!problems.length) return true;
  out.failures.push(`${req.note} → ${status}: ${problems.join('; ')} | ${text.slice(0, 200)}`);
  return false;
}

export { deref };
