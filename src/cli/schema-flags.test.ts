import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkFlags } from './schema-flags.js';
import { UsageError } from './errors.js';
import { SearchNumbersBody } from '../api/schemas/numbers.js';

const Body = z
  .strictObject({
    name: z.string().max(5).optional(),
    limit: z.number().optional(),
    tags: z.array(z.string().regex(/^[a-z]+$/, 'must be lower-case letters')).max(2).optional(),
    address: z.strictObject({ zip: z.string().regex(/^\d{5}$/, 'must be 5 digits') }).optional(),
  })
  .refine((b) => b.name !== undefined || b.tags !== undefined, { path: ['name'], message: 'required unless tags is given' });
const FLAGS = { name: '--name', limit: '--limit', tags: '--tag', 'address.zip': '--zip' };

const errorOf = (body: unknown): UsageError => {
  try {
    checkFlags(Body, body, FLAGS);
  } catch (err) {
    return err as UsageError;
  }
  throw new Error('no error');
};

describe('checkFlags: the API schema decides, the error names the flag', () => {
  it('passes a valid body', () => {
    expect(() => checkFlags(Body, { name: 'ok' }, FLAGS)).not.toThrow();
  });

  it('names the flag of the field, nested paths and array items included', () => {
    expect(errorOf({ name: 'ok', address: { zip: '9410' } })).toMatchObject({ message: '--zip: "9410" must be 5 digits', flag: '--zip' });
    expect(errorOf({ tags: ['ok', 'Bad'] })).toMatchObject({ message: '--tag: "Bad" must be lower-case letters', flag: '--tag' });
  });

  it('says the length and the limit, without touching words that are field names', () => {
    expect(errorOf({ name: 'toolong' }).message).toBe('--name: 7 characters; the limit is 5');
    expect(errorOf({ tags: ['a', 'b', 'c'] }).message).toBe('--tag: 3 values; the limit is 2');
  });

  it("replaces API field names in the schema's own message with their flags", () => {
    expect(errorOf({})).toMatchObject({ message: '--name: required unless --tag is given', flag: '--name' });
  });

  it('works with a real API schema (numbers search)', () => {
    expect(() => checkFlags(SearchNumbersBody, { type: 'local', areaCode: '41' }, { areaCode: '--area-code' })).toThrow(/^--area-code: "41" /);
  });
});
