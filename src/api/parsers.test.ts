// The compiled response parsers against the zod schemas they are rendered from (start-up
// budget). Reads dist/api/response-schemas.json: `npm test` builds first.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import * as schemas from './schemas/index.js';
import { pageOf } from './schemas/page.js';
import { compileJsonSchema, type JsonSchema } from './json-schema-check.js';
import { pageParser, parserNames, responseParser, type ResponseSchemaName } from './parsers.js';

const built = new URL('../../dist/api/response-schemas.json', import.meta.url);
const rendered = (existsSync(built) ? JSON.parse(readFileSync(built, 'utf8')) : {}) as Record<string, JsonSchema>;
const zodSchema = (name: string) => (schemas as unknown as Record<string, ZodType>)[name]!;

type Result = { success: boolean; data?: unknown; error?: { issues: { path: PropertyKey[]; message: string }[] } };
/** What a parse gives, comparable across zod and the compiled check: data in key order, or the issues. */
const outcome = (r: Result) =>
  r.success ? { ok: JSON.stringify(r.data) } : { issues: r.error!.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })) };

const UUID = '123e4567-e89b-12d3-a456-426614174000';
const DATE = '2025-03-04T05:06:07.890Z';
/** A value for each pattern a response schema carries without a format (a page's accent colour). */
const PATTERN_SAMPLES: Record<string, string> = { '^#[0-9a-fA-F]{6}$': '#1a73e8', '^\\d{4}$': '4242' };

/** A value the schema accepts: `full` takes every optional key and non-null branch; otherwise nulls and fewest keys. */
function sample(schema: JsonSchema, root: JsonSchema, full: boolean): unknown {
  if (typeof schema.$ref === 'string') return sample((root.$defs as Record<string, JsonSchema>)[schema.$ref.split('/').pop()!]!, root, full);
  if (Array.isArray(schema.anyOf)) {
    const options = schema.anyOf as JsonSchema[];
    const pick = full ? options.find((o) => o.type !== 'null') : (options.find((o) => o.type === 'null') ?? options[0]);
    return sample(pick!, root, full);
  }
  if (schema.enum) return (schema.enum as unknown[])[full ? (schema.enum as unknown[]).length - 1 : 0];
  if ('const' in schema) return schema.const;
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
  if (!full && types.includes('null')) return null;
  switch (types.find((t) => t !== 'null')) {
    case 'object': {
      // A record (z.record): one entry when full.
      if (schema.propertyNames) return full ? { key: sample(schema.additionalProperties as JsonSchema, root, true) } : {};
      const required = new Set((schema.required ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) if (full || required.has(k)) out[k] = sample(v, root, full);
      return out;
    }
    case 'array':
      return full ? [sample(schema.items as JsonSchema, root, true), sample(schema.items as JsonSchema, root, false)] : [];
    case 'string':
      if (typeof schema.pattern === 'string' && !schema.format) return PATTERN_SAMPLES[schema.pattern] ?? `no sample for pattern ${schema.pattern}`;
      return schema.format === 'date-time' ? DATE : schema.format === 'uuid' ? UUID : 'x'.repeat((schema.minLength as number | undefined) ?? 1);
    case 'integer':
    case 'number':
      return (schema.minimum as number | undefined) ?? 3;
    case 'boolean':
      return full;
    default:
      return {};
  }
}

/** Every path to a value inside `value` (objects and arrays), the root included. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

const REPLACEMENTS: unknown[] = [null, 42, -1, 1.5, 2 ** 53, 'x', '', true, [], {}, [{}], '2024-02-29T23:59:59+02:00', '2025-02-30T00:00:00Z', '2025-01-01', UUID.toUpperCase(), 'not-a-uuid'];
const DELETE = Symbol('delete');
const EXTRA = Symbol('extra key');

function mutate(value: unknown, path: (string | number)[], change: unknown): unknown {
  const copy = structuredClone(value);
  if (path.length === 0) return change === DELETE ? undefined : change === EXTRA ? copy : change;
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (change === DELETE) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (change === EXTRA) {
    const target = parent[last];
    if (target && typeof target === 'object' && !Array.isArray(target)) (target as Record<string, unknown>).addedByANewerServer = 1;
  } else parent[last] = change;
  return copy;
}

describe('response parsers', () => {
  it('every parser name the resource modules register is in the built response-schemas.json', async () => {
    const dir = new URL('./resources/', import.meta.url);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) await import(new URL(file, dir).href);
    expect(parserNames.size).toBeGreaterThan(10);
    expect(existsSync(built), 'run `npm run build` first').toBe(true);
    const missing = [...parserNames].filter((name) => !(name in rendered));
    expect(missing, 'names without a rendered schema: rebuild (npm run build)').toEqual([]);
    // And the built file is current: each entry is what zod renders today.
    const { z } = await import('zod');
    for (const name of parserNames) expect(rendered[name], name).toEqual(z.toJSONSchema(zodSchema(name), { io: 'output' }));
  });

  it('parses a page of rows; the parsers compile lazily and are made once per name', () => {
    expect(responseParser('ApiKeySchema')).toBe(responseParser('ApiKeySchema'));
    const row = sample(rendered.ApiKeySchema!, rendered.ApiKeySchema!, true);
    const page = pageParser('ApiKeySchema');
    expect(page.safeParse({ data: [row], hasMore: false, nextCursor: null, extra: 1 })).toEqual({ success: true, data: { data: [row], hasMore: false, nextCursor: null } });
    const bad = page.safeParse({ data: [{ ...(row as object), mode: 'nope' }], hasMore: false, nextCursor: null });
    expect(bad.success).toBe(false);
    expect(!bad.success && bad.error.issues.map((i) => i.path)).toEqual([['data', 0, 'mode']]);
  });

  // Parity: for each rendered schema, valid samples and their mutations (each value replaced,
  // deleted, an unknown key added, at every path) are accepted or rejected by zod and by the
  // compiled check alike, with the same output (key order included) or the same issues.
  for (const name of Object.keys(rendered) as ResponseSchemaName[]) {
    it(`${name}: zod and the compiled check agree`, () => {
      const json = rendered[name]!;
      const compiled = compileJsonSchema(json);
      const zod = zodSchema(name);
      const page = pageParser(name);
      const zodPage = pageOf(zod as never);
      let compared = 0;
      for (const full of [true, false]) {
        const valid = sample(json, json, full);
        expect(outcome(compiled.safeParse(valid)), `${name} sample`).toEqual({ ok: JSON.stringify(zod.parse(valid)) });
        for (const path of paths(valid)) {
          for (const change of [...REPLACEMENTS, DELETE, EXTRA]) {
            const data = mutate(valid, path, change);
            const label = `${name} ${path.join('.')} ← ${String(typeof change === 'symbol' ? change.description : JSON.stringify(change))}`;
            expect(outcome(compiled.safeParse(data)), label).toEqual(outcome(zod.safeParse(data)));
            const pageData = { data: [valid, data], hasMore: true, nextCursor: 'c' };
            expect(outcome(page.safeParse(pageData)), `page of ${label}`).toEqual(outcome(zodPage.safeParse(pageData)));
            compared++;
          }
        }
      }
      expect(compared).toBeGreaterThan(50);
    });
  }
});
