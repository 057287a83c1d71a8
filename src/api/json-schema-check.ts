// A validator for the JSON Schemas zod emits for our response schemas (`z.toJSONSchema(schema,
// { io: 'output' })`, rendered at build time into dist/api/response-schemas.json). Start-up
// budget: loading zod costs about as much as starting node, so the CLI parses responses with these
// compiled checks instead and never loads zod on a list.
//
// It behaves like zod's parse of the same schema: unknown object keys are stripped (a newer server
// adding a field must not break an older CLI), required keys, null only where allowed, enums,
// patterns, nested paths in issues, and zod's own issue messages. Only the keywords zod emits for our
// schemas are known; any other keyword throws when the schema is compiled, so a schema change that
// needs a new keyword fails the tests instead of passing unchecked.

export type JsonSchema = { [keyword: string]: unknown };

export interface CheckIssue {
  path: PropertyKey[];
  message: string;
}

export type CheckResult<T> = { success: true; data: T } | { success: false; error: { issues: CheckIssue[] } };

/** A compiled schema: returns the output value (unknown keys stripped) and appends issues. */
type Check = (data: unknown, path: PropertyKey[], issues: CheckIssue[]) => unknown;

const ANNOTATIONS = new Set(['$schema', 'description', 'title']);
const KNOWN = new Set([
  ...ANNOTATIONS,
  '$ref',
  '$defs',
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'enum',
  'const',
  'anyOf',
  'items',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'format',
  'default',
]);

// zod's names for the formats it emits with a pattern (its invalid_format message: `Invalid ${name}`).
const FORMAT_NAMES: Record<string, string> = { 'date-time': 'ISO datetime', uuid: 'UUID', email: 'email address', date: 'ISO date', time: 'ISO time' };

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

/** zod's `parsedType`, for "expected X, received Y". */
function received(data: unknown): string {
  if (data === null) return 'null';
  if (Array.isArray(data)) return 'array';
  if (typeof data === 'number' && Number.isNaN(data)) return 'nan';
  return typeof data;
}

const primitive = (v: unknown): string => (typeof v === 'string' ? `"${v}"` : `${v}`);

/** Compiles a schema document (`$defs` at its root, `$ref`s to `#/$defs/<name>`) once. */
export function compileJsonSchema<T = unknown>(root: JsonSchema): { safeParse(data: unknown): CheckResult<T> } {
  const defs = (root.$defs ?? {}) as Record<string, JsonSchema>;
  const compiledDefs = new Map<string, Check>();

  const ref = (target: unknown): Check => {
    const match = typeof target === 'string' ? /^#\/\$defs\/(.+)$/.exec(target) : null;
    const name = match?.[1];
    if (name === undefined || !(name in defs)) throw new Error(`unsupported $ref ${String(target)}`);
    // Compiled on first use: a definition may refer to itself.
    let check = compiledDefs.get(name);
    if (!check) {
      let inner: Check | undefined;
      check = (data, path, issues) => (inner ??= compile(defs[name]!))(data, path, issues);
      compiledDefs.set(name, check);
    }
    return check;
  };

  const compile = (schema: JsonSchema): Check => {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error(`not a schema: ${JSON.stringify(schema)}`);
    for (const keyword of Object.keys(schema)) {
      if (!KNOWN.has(keyword)) throw new Error(`unsupported JSON Schema keyword "${keyword}"`);
    }
    if (schema.$ref !== undefined) {
      const rest = Object.keys(schema).filter((k) => k !== '$ref' && k !== '$defs' && !ANNOTATIONS.has(k));
      if (rest.length) throw new Error(`unsupported keywords beside $ref: ${rest.join(', ')}`);
      return ref(schema.$ref);
    }
    if (schema.anyOf !== undefined) return compileAnyOf(schema);
    if (schema.enum !== undefined || schema.const !== undefined) return compileValues(schema);

    const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    for (const t of types) if (!TYPES.has(t)) throw new Error(`unsupported type "${String(t)}"`);
    const nullable = types.includes('null');
    const main = types.filter((t) => t !== 'null');
    if (main.length > 1) throw new Error(`unsupported type list ${JSON.stringify(schema.type)}`);
    const type = main[0];
    if (type === undefined) {
      if (nullable) return (data, path, issues) => (data === null ? null : fail(issues, path, `Invalid input: expected null, received ${received(data)}`, data));
      const rest = Object.keys(schema).filter((k) => !ANNOTATIONS.has(k) && k !== '$defs' && k !== 'default');
      if (rest.length) throw new Error(`unsupported keywords without a type: ${rest.join(', ')}`);
      return (data) => data; // z.unknown(): anything
    }

    let body: Check;
    if (type === 'object') body = compileObject(schema);
    else if (type === 'array') body = compileArray(schema);
    else if (type === 'string') body = compileString(schema);
    else if (type === 'number' || type === 'integer') body = compileNumber(schema, type);
    else body = (data, path, issues) => (typeof data === 'boolean' ? data : fail(issues, path, `Invalid input: expected boolean, received ${received(data)}`, data));
    return nullable ? (data, path, issues) => (data === null ? null : body(data, path, issues)) : body;
  };

  const compileAnyOf = (schema: JsonSchema): Check => {
    only(schema, ['anyOf']);
    const options = (schema.anyOf as JsonSchema[]).map(compile);
    const nulls = (schema.anyOf as JsonSchema[]).map((o) => Object.keys(o).length === 1 && o.type === 'null');
    // `.nullable()`: zod checks null, then reports the inner schema's own issues.
    if (options.length === 2 && nulls.filter(Boolean).length === 1) {
      const inner = options[nulls[0] ? 1 : 0]!;
      return (data, path, issues) => (data === null ? null : inner(data, path, issues));
    }
    // A union: the first option that passes. When none does, zod reports the issues of the one option
    // that failed only its checks (bounds, patterns) if there is exactly one such option; else its
    // "Invalid input".
    return (data, path, issues) => {
      const checksOnly: Array<{ own: CheckIssue[]; out: unknown }> = [];
      for (const option of options) {
        const own: CheckIssue[] = [];
        const out = option(data, path, own);
        if (own.length === 0) return out;
        if (own.every((i) => CHECK_ISSUES.has(i))) checksOnly.push({ own, out });
      }
      if (checksOnly.length === 1) {
        issues.push(...checksOnly[0]!.own);
        return checksOnly[0]!.out;
      }
      return fail(issues, path, 'Invalid input', data);
    };
  };

  const compileValues = (schema: JsonSchema): Check => {
    only(schema, ['enum', 'const', 'type']);
    const values = schema.enum !== undefined ? (schema.enum as unknown[]) : [schema.const];
    const allowed = new Set(values);
    // zod's message: one value is a literal, several an enum.
    const message = values.length === 1 ? `Invalid input: expected ${primitive(values[0])}` : `Invalid option: expected one of ${values.map(primitive).join('|')}`;
    return (data, path, issues) => (allowed.has(data) ? data : fail(issues, path, message, data));
  };

  /** z.record(keys, values): every key checked with `propertyNames`, every value with `additionalProperties`. */
  const compileRecord = (schema: JsonSchema): Check => {
    only(schema, ['type', 'propertyNames', 'additionalProperties']);
    const keyCheck = compile(schema.propertyNames as JsonSchema);
    const valueCheck = schema.additionalProperties === undefined ? (data: unknown) => data : compile(schema.additionalProperties as JsonSchema);
    return (data, path, issues) => {
      if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail(issues, path, `Invalid input: expected record, received ${received(data)}`, data);
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
        path.push(key);
        keyCheck(key, path, issues);
        out[key] = valueCheck(value, path, issues);
        path.pop();
      }
      return out;
    };
  };

  const compileObject = (schema: JsonSchema): Check => {
    if ('propertyNames' in schema) return compileRecord(schema);
    only(schema, ['type', 'properties', 'required', 'additionalProperties']);
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const keys = Object.keys(properties);
    const checks = keys.map((k) => compile(properties[k]!));
    const required = new Set((schema.required ?? []) as string[]);
    for (const k of required) if (!(k in properties)) throw new Error(`required key "${k}" has no property schema`);
    const isRequired = keys.map((k) => required.has(k));
    const defaults = keys.map((k) => properties[k]!.default);
    const hasDefault = keys.map((k) => 'default' in properties[k]!);
    // `false` (z.object) strips unknown keys, as zod's parse does: never rejected. `{}` (z.looseObject)
    // keeps them.
    const extra = schema.additionalProperties;
    let keepExtra: boolean;
    if (extra === undefined || extra === false) keepExtra = false;
    else if (extra === true || (typeof extra === 'object' && extra !== null && Object.keys(extra).length === 0)) keepExtra = true;
    else throw new Error(`unsupported additionalProperties ${JSON.stringify(extra)}`);
    const declared = new Set(keys);

    return (data, path, issues) => {
      if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail(issues, path, `Invalid input: expected object, received ${received(data)}`, data);
      const input = data as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const value = input[key];
        if (value === undefined && !Object.prototype.hasOwnProperty.call(input, key)) {
          if (hasDefault[i]) {
            out[key] = structuredClone(defaults[i]);
            continue;
          }
          if (!isRequired[i]) continue;
        }
        path.push(key);
        // A missing required key goes through its check as undefined: zod's own message.
        out[key] = checks[i]!(value, path, issues);
        path.pop();
      }
      if (keepExtra) for (const key of Object.keys(input)) if (!declared.has(key)) out[key] = input[key];
      return out;
    };
  };

  const compileArray = (schema: JsonSchema): Check => {
    only(schema, ['type', 'items', 'minItems', 'maxItems']);
    const item = schema.items === undefined ? (data: unknown) => data : compile(schema.items as JsonSchema);
    const min = schema.minItems as number | undefined;
    const max = schema.maxItems as number | undefined;
    return (data, path, issues) => {
      if (!Array.isArray(data)) return fail(issues, path, `Invalid input: expected array, received ${received(data)}`, data);
      const out = new Array<unknown>(data.length);
      for (let i = 0; i < data.length; i++) {
        path.push(i);
        out[i] = item(data[i], path, issues);
        path.pop();
      }
      if (min !== undefined && data.length < min) failCheck(issues, path, `Too small: expected array to have >=${min} items`, data);
      if (max !== undefined && data.length > max) failCheck(issues, path, `Too big: expected array to have <=${max} items`, data);
      return out;
    };
  };

  const compileString = (schema: JsonSchema): Check => {
    only(schema, ['type', 'minLength', 'maxLength', 'pattern', 'format']);
    const min = schema.minLength as number | undefined;
    const max = schema.maxLength as number | undefined;
    const pattern = schema.pattern === undefined ? undefined : regExpFor(schema.pattern as string);
    let patternMessage: string | undefined;
    if (schema.format !== undefined) {
      const name = FORMAT_NAMES[schema.format as string];
      // A format is checked through the pattern zod emits with it; one without is not checkable here.
      if (!name || !pattern) throw new Error(`unsupported format "${String(schema.format)}"${pattern ? '' : ' (no pattern)'}`);
      patternMessage = `Invalid ${name}`;
    } else if (pattern) {
      patternMessage = `Invalid string: must match pattern ${pattern}`;
    }
    return (data, path, issues) => {
      if (typeof data !== 'string') return fail(issues, path, `Invalid input: expected string, received ${received(data)}`, data);
      if (min !== undefined && data.length < min) failCheck(issues, path, `Too small: expected string to have >=${min} characters`, data);
      if (max !== undefined && data.length > max) failCheck(issues, path, `Too big: expected string to have <=${max} characters`, data);
      if (pattern && !pattern.test(data)) failCheck(issues, path, patternMessage!, data);
      return data;
    };
  };

  const compileNumber = (schema: JsonSchema, type: 'number' | 'integer'): Check => {
    only(schema, ['type', 'minimum', 'maximum']);
    const min = schema.minimum as number | undefined;
    const max = schema.maximum as number | undefined;
    // zod's `.int()` emits the safe-integer range and names it `int` in its messages; `.min()`/`.max()` say `number`.
    const origin = (bound: number) => (type === 'integer' && Math.abs(bound) === Number.MAX_SAFE_INTEGER ? 'int' : 'number');
    const tooSmall = min === undefined ? '' : `Too small: expected ${origin(min)} to be >=${min}`;
    const tooBig = max === undefined ? '' : `Too big: expected ${origin(max)} to be <=${max}`;
    return (data, path, issues) => {
      if (typeof data !== 'number' || !Number.isFinite(data)) return fail(issues, path, `Invalid input: expected number, received ${received(data)}`, data);
      if (type === 'integer' && !Number.isInteger(data)) return fail(issues, path, 'Invalid input: expected int, received number', data);
      if (min !== undefined && data < min) failCheck(issues, path, tooSmall, data);
      if (max !== undefined && data > max) failCheck(issues, path, tooBig, data);
      return data;
    };
  };

  const check = compile(root);
  return {
    safeParse(data: unknown): CheckResult<T> {
      const issues: CheckIssue[] = [];
      const out = check(data, [], issues);
      return issues.length === 0 ? { success: true, data: out as T } : { success: false, error: { issues } };
    },
  };
}

/** Keywords that make sense beside `allowed` (annotations, `default`, `$defs` on the root). */
function only(schema: JsonSchema, allowed: string[]): void {
  for (const keyword of Object.keys(schema)) {
    if (!allowed.includes(keyword) && !ANNOTATIONS.has(keyword) && keyword !== 'default' && keyword !== '$defs') {
      throw new Error(`unsupported keyword "${keyword}" with ${allowed[0]}`);
    }
  }
}

// One RegExp per pattern: V8 compiles each instance on its first use (~0.5 ms for the date-time
// pattern), and a row has several timestamps.
const regExps = new Map<string, RegExp>();
function regExpFor(source: string): RegExp {
  let re = regExps.get(source);
  if (!re) regExps.set(source, (re = new RegExp(source)));
  return re;
}

function fail(issues: CheckIssue[], path: PropertyKey[], message: string, data: unknown): unknown {
  issues.push({ path: [...path], message });
  return data;
}

/**
 * Issues of a check on a value of the right type (a bound, a pattern): zod marks them `continue`, and
 * a union whose only such failure is in one option reports that option's issues (see compileAnyOf).
 */
const CHECK_ISSUES = new WeakSet<CheckIssue>();
function failCheck(issues: CheckIssue[], path: PropertyKey[], message: string, data: unknown): unknown {
  const issue = { path: [...path], message };
  CHECK_ISSUES.add(issue);
  issues.push(issue);
  return data;
}
