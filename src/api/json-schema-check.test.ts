import { describe, expect, it } from 'vitest';
import { compileJsonSchema, type JsonSchema } from './json-schema-check.js';

const DATE_TIME =
  '^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$';

// The shape zod emits for a row like our resources: $defs + $ref, nullable, enum, nested array.
const schema: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $ref: '#/$defs/Row',
  $defs: {
    Row: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        status: { type: 'string', enum: ['live', 'idle'] },
        count: { type: 'integer', minimum: 0, maximum: 9007199254740991 },
        label: { type: ['string', 'null'] },
        createdAt: { type: 'string', format: 'date-time', pattern: DATE_TIME },
        media: { anyOf: [{ type: 'array', items: { $ref: '#/$defs/Media' } }, { type: 'null' }] },
        note: { type: 'string' },
      },
      required: ['id', 'status', 'count', 'label', 'createdAt', 'media'],
      additionalProperties: false,
    },
    Media: {
      type: 'object',
      properties: { url: { type: 'string' } },
      required: ['url'],
      additionalProperties: false,
    },
  },
};
const row = { id: 'r1', status: 'live', count: 2, label: null, createdAt: '2025-01-01T00:00:00.000Z', media: [{ url: 'https://x.test/a.png' }] };
const check = compileJsonSchema(schema);
const issues = (data: unknown) => {
  const r = check.safeParse(data);
  return r.success ? [] : r.error.issues;
};

describe('compileJsonSchema', () => {
  it('passes a valid row and strips unknown keys, at every level, keeping declared order', () => {
    const r = check.safeParse({ extra: 1, ...row, media: [{ url: 'u', size: 3 }], note: 'n' });
    expect(r.success).toBe(true);
    expect(JSON.stringify(r.success && r.data)).toBe(JSON.stringify({ ...row, media: [{ url: 'u' }], note: 'n' }));
    // An optional key left out stays out.
    expect(check.safeParse(row)).toEqual({ success: true, data: row });
  });

  it('fails a wrong type with its path', () => {
    expect(issues({ ...row, id: 7 })).toEqual([{ path: ['id'], message: 'Invalid input: expected string, received number' }]);
    expect(issues({ ...row, count: 1.5 })).toEqual([{ path: ['count'], message: 'Invalid input: expected int, received number' }]);
    expect(issues({ ...row, count: -1 })).toEqual([{ path: ['count'], message: 'Too small: expected number to be >=0' }]);
    expect(issues([row])).toEqual([{ path: [], message: 'Invalid input: expected object, received array' }]);
  });

  it('fails a missing required key', () => {
    const { status: _, ...rest } = row;
    expect(issues(rest)).toEqual([{ path: ['status'], message: 'Invalid option: expected one of "live"|"idle"' }]);
    const { label: __, ...noLabel } = row;
    expect(issues(noLabel)).toEqual([{ path: ['label'], message: 'Invalid input: expected string, received undefined' }]);
  });

  it('fails a value outside the enum, and a bad date-time', () => {
    expect(issues({ ...row, status: 'gone' })).toEqual([{ path: ['status'], message: 'Invalid option: expected one of "live"|"idle"' }]);
    expect(issues({ ...row, createdAt: '2025-02-30T00:00:00Z' })).toEqual([{ path: ['createdAt'], message: 'Invalid ISO datetime' }]);
    expect(issues({ ...row, createdAt: '2024-02-29T23:59:59+02:00' })).toEqual([]);
  });

  it('takes null only where the schema allows it', () => {
    expect(issues({ ...row, label: null, media: null })).toEqual([]);
    expect(issues({ ...row, id: null })).toEqual([{ path: ['id'], message: 'Invalid input: expected string, received null' }]);
    expect(issues({ ...row, note: null })).toEqual([{ path: ['note'], message: 'Invalid input: expected string, received null' }]);
  });

  it('fails a bad item of a nested array with the full path, and reports every issue', () => {
    expect(issues({ ...row, id: 1, media: [{ url: 'a' }, { url: 5 }, {}] })).toEqual([
      { path: ['id'], message: 'Invalid input: expected string, received number' },
      { path: ['media', 1, 'url'], message: 'Invalid input: expected string, received number' },
      { path: ['media', 2, 'url'], message: 'Invalid input: expected string, received undefined' },
    ]);
  });

  it('keeps unknown keys of a loose object (additionalProperties: {})', () => {
    const loose = compileJsonSchema({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: {} });
    expect(loose.safeParse({ x: 1, id: 'a' })).toEqual({ success: true, data: { id: 'a', x: 1 } });
  });

  it('fills a default for a missing key and checks string and array bounds', () => {
    const c = compileJsonSchema({
      type: 'object',
      properties: { n: { type: 'integer', default: 20 }, s: { type: 'string', minLength: 1, maxLength: 2 }, a: { type: 'array', items: {}, minItems: 1, maxItems: 1 } },
      required: ['n', 's', 'a'],
    });
    expect(c.safeParse({ s: 'ab', a: [1] })).toEqual({ success: true, data: { n: 20, s: 'ab', a: [1] } });
    expect(c.safeParse({ s: '', a: [] }).success).toBe(false);
  });

  it('checks a record (z.record): every value with its schema, the path through the key', () => {
    const record = compileJsonSchema({ anyOf: [{ type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'boolean' } }, { type: 'null' }] });
    expect(record.safeParse({ tmobile: true, att: false })).toEqual({ success: true, data: { tmobile: true, att: false } });
    expect(record.safeParse(null)).toEqual({ success: true, data: null });
    const bad = record.safeParse({ tmobile: 'yes' });
    expect(bad.success).toBe(false);
  });

  it('throws at compile time on a keyword it does not know', () => {
    expect(() => compileJsonSchema({ type: 'object', properties: { id: { type: 'string', contentEncoding: 'base64' } } })).toThrow(/contentEncoding/);
    expect(() => compileJsonSchema({ type: 'number', multipleOf: 2 })).toThrow(/multipleOf/);
    expect(() => compileJsonSchema({ oneOf: [{ type: 'string' }] })).toThrow(/oneOf/);
    expect(() => compileJsonSchema({ type: 'string', format: 'email' })).toThrow(/format/); // no pattern to check it with
    expect(() => compileJsonSchema({ $ref: '#/$defs/Missing' })).toThrow(/\$ref/);
    expect(() => compileJsonSchema({ type: 'object', additionalProperties: { type: 'string' } })).toThrow(/additionalProperties/);
  });
});
