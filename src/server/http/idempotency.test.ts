import { describe, it, expect } from 'vitest';
import { hashRequestBody, withoutSecrets } from './idempotency.js';
import { MAX_JSON_DEPTH } from './json-body.js';
import { ServiceError } from '../errors.js';

describe('withoutSecrets', () => {
  it('nulls API keys and webhook secrets anywhere in a response, and keeps everything else', () => {
    const body = {
      id: 'key_1',
      key: 'sk_live_abcdefghijklmnopqrstuvwxyz012345',
      nested: { secret: 'whsec_0123456789abcdefABCDEF0123456789', list: ['sk_test_0123456789abcdefABCDEF0123456789'.slice(0, 40), 'plain'] },
      prefix: 'sk_live_abcd',
      n: 3,
      nothing: null,
    };
    expect(withoutSecrets(body)).toEqual({ id: 'key_1', key: null, nested: { secret: null, list: [null, 'plain'] }, prefix: 'sk_live_abcd', n: 3, nothing: null });
  });
});

describe('bounded walks (issue 14)', () => {
  const deep = (depth: number): unknown => {
    let v: unknown = {};
    for (let i = 1; i < depth; i++) v = i % 2 ? [v] : { v };
    return v;
  };

  it('hashRequestBody hashes a body at the depth limit and refuses a deeper one with a validation_error', () => {
    expect(hashRequestBody(deep(MAX_JSON_DEPTH))).toMatch(/^[0-9a-f]{64}$/);
    let thrown: unknown;
    try {
      hashRequestBody(deep(100_000));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ServiceError);
    expect((thrown as ServiceError).code).toBe('validation_error');
  });

  it('hashes keep their canonical form: key order does not matter', () => {
    expect(hashRequestBody({ b: 1, a: [1, { y: 2, x: 1 }] })).toBe(hashRequestBody({ a: [1, { x: 1, y: 2 }], b: 1 }));
  });

  it('withoutSecrets refuses (rather than overflows or passes through) a value nested past the limit', () => {
    expect(() => withoutSecrets(deep(100_000))).toThrow(/nested deeper/);
    expect(withoutSecrets(deep(MAX_JSON_DEPTH))).toEqual(deep(MAX_JSON_DEPTH));
  });
});
