// The service's own /openapi.json read as a list of operations, and fast-check arbitraries built from
// its JSON schemas (the fuzz and tenancy proofs are generated from the document, so a new
// operation is covered without editing a list).
import fc from 'fast-check';

export type Schema = Record<string, any>;

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  /** The OpenAPI template, `/v1/numbers/{id}`. */
  path: string;
  operationId: string;
  params: Param[];
  /** The request body's media type and schema (dereferenced at use), or null for a body-less operation. */
  body: { contentType: string; schema: Schema; required: boolean } | null;
  /** False when the operation declares `security: []` (public: health, hosted pages, media). */
  authenticated: boolean;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

export function operationsOf(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const content = op.requestBody?.content ?? {};
      const [contentType] = Object.keys(content);
      out.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        params: (op.parameters ?? []).map((p: any) => ({ name: p.name, in: p.in, required: Boolean(p.required), schema: p.schema ?? {} })),
        body: contentType ? { contentType, schema: content[contentType].schema ?? {}, required: Boolean(op.requestBody.required) } : null,
        authenticated: !(Array.isArray(op.security) && op.security.length === 0),
      });
    }
  }
  return out;
}

export const label = (op: Operation): string => `${op.method} ${op.path}`;

/** The template's `{name}` placeholders, in order. */
export const pathParamNames = (template: string): string[] => [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`no value for {${name}} in ${template}`);
    // A lone surrogate has no UTF-8 form to put on the wire: it goes as U+FFFD, as a browser sends it.
    return encodeURIComponent((v as string & { toWellFormed(): string }).toWellFormed());
  });
}

export function deref(doc: any, schema: Schema): Schema {
  let s = schema;
  for (let i = 0; s && typeof s.$ref === 'string' && i < 20; i++) {
    const parts = (s.$ref as string).replace(/^#\//, '').split('/');
    s = parts.reduce((acc: any, k) => acc?.[k], doc);
    if (!s) throw new Error(`unresolvable $ref ${schema.$ref}`);
  }
  return s;
}

// Strings a format names; values the service accepts as that format.
const FORMAT_SAMPLES: Record<string, fc.Arbitrary<string>> = {
  // Loopback only: a URL the service may fetch or deliver to must never leave this machine.
  uri: fc.constantFrom('http://127.0.0.1:9/a.png', 'http://127.0.0.1:9/hook', 'http://localhost:9/x'),
  email: fc.constantFrom('jane@example.com', 'ops@acme.example', 'a.b+c@mail.example.org'),
  'date-time': fc.constantFrom('2025-01-15T12:00:00.000Z', '2026-06-01T00:00:00Z'),
  date: fc.constantFrom('2025-01-15', '2026-06-01'),
  uuid: fc.uuid(),
};

/** A value of the schema's shape: what a well-meaning client would send (it may still break a rule across fields). */
export function validArb(doc: any, schema0: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = deref(doc, schema0);
  if (depth > 6) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const alts = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alts)) return fc.oneof(...alts.map((a: Schema) => validArb(doc, a, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1000);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : Math.max(min, 0) + 1000);
      return fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) });
    }
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'string': {
      if (schema.format && FORMAT_SAMPLES[schema.format]) return FORMAT_SAMPLES[schema.format]!;
      if (schema.pattern) {
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity));
      }
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
    }
    case 'array': {
      const items = schema.items ? validArb(doc, schema.items, depth + 1) : fc.string();
      return fc.array(items, { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, Math.max(schema.minItems ?? 0, 3)) });
    }
    case 'object':
    default: {
      const props: Record<string, Schema> = schema.properties ?? {};
      const required: string[] = schema.required ?? [];
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) model[k] = validArb(doc, v, depth + 1);
      if (Object.keys(props).length === 0 && type !== 'object') return fc.jsonValue({ maxDepth: 2 });
      return fc.record(model, { requiredKeys: required.filter((k) => k in props) });
    }
  }
}

const ODD = [
  '',
  ' ',
  '\u0000',
  '\u202e\u0645\u0631\u062d\u0628\u0627',
  '\u200b\u200d\ufeff',
  '\ud83d\ude00\ud83c\udff3\ufe0f\u200d\ud83c\udf08',
  '\ud800',
  'e\u0301\u0301\u0301',
  '../../etc/passwd',
  '%00%2e%2e%2f',
  "' OR 1=1 --",
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '\r\nX-Injected: 1',
  '1e309',
  '-0',
  'null',
  '__proto__',
];

/** Odd text: unicode edge cases, control characters, injection-looking strings. */
export const oddString: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...ODD), fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 30 }));

/** A huge string (for bodies and headers' neighbours; URLs stay under the header limit, see the fuzz test). */
export const hugeString = (max: number): fc.Arbitrary<string> => fc.tuple(fc.constantFrom('a', '\u00e9', '\ud83d\ude00', '0'), fc.integer({ min: 1000, max })).map(([c, n]) => c.repeat(Math.ceil(n / c.length)));

/**
 * JSON text nested `depth` levels deep, arrays or objects, built as text: JSON.stringify itself
 * overflows the stack on such values.
 */
export const deepJsonText = (min: number, max: number): fc.Arbitrary<string> =>
  fc.tuple(fc.integer({ min, max }), fc.boolean()).map(([depth, arrays]) => (arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));

/** Any JSON value of a different kind from what the schema wants (a wrong type). */
export function wrongTypeArb(doc: any, schema0: Schema): fc.Arbitrary<unknown> {
  const schema = deref(doc, schema0);
  const wanted = new Set<string>();
  const collect = (s: Schema): void => {
    const d = deref(doc, s);
    for (const a of d.anyOf ?? d.oneOf ?? []) collect(a);
    if (d.type) for (const t of [d.type].flat()) wanted.add(t === 'integer' ? 'number' : t);
    if ('const' in d) wanted.add(d.const === null ? 'null' : Array.isArray(d.const) ? 'array' : typeof d.const);
    if (Array.isArray(d.enum)) for (const e of d.enum) wanted.add(e === null ? 'null' : typeof e);
  };
  collect(schema);
  if (!wanted.size) return fc.constant(Symbol('any-type')); // the schema takes anything: no wrong type exists
  const all: Array<[string, fc.Arbitrary<unknown>]> = [
    ['string', fc.string({ maxLength: 10 })],
    ['number', fc.oneof(fc.integer(), fc.constantFrom(1.5, -1, 1e300, Number.MAX_SAFE_INTEGER + 2))],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.integer(), { maxLength: 3 })],
    ['object', fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 })],
  ];
  const pick = all.filter(([t]) => !wanted.has(t)).map(([, a]) => a);
  return pick.length ? fc.oneof(...pick) : fc.constant(Symbol('no-wrong-type'));
}

/** The object schema of a body (dereferenced), or null when the body is not a plain object schema. */
export function objectSchema(doc: any, schema0: Schema): Schema | null {
  const s = deref(doc, schema0);
  return s.type === 'object' && s.properties ? s : null;
}
