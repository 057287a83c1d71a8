import { describe, it, expect } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { commitOnce, hashRequestBody, withoutSecrets } from './idempotency.js';
import type { TxDeps, UnitOfWork } from '../deps.js';
import type { Clock } from '../clock.js';
import { MAX_JSON_DEPTH } from '../../api/values/http.js';
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

describe('bounded walks', () => {
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

describe('commitOnce under an engine that runs a write again', () => {
  // PostgreSQL runs a write's function again when its transaction lost a race (a serialization
  // failure): the first pass's writes are rolled back, so the answer must be recorded by the pass
  // that commits, and the request counts as answered only once it has.
  it('records the answer in the pass that commits, and marks the request answered only after the commit', async () => {
    const recorded: string[] = [];
    let pass = '';
    const hooks: Array<() => void> = [];
    const txFor = (name: string) =>
      ({
        idempotency: {
          get: async () => undefined,
          claim: async () => undefined,
          record: async () => void recorded.push(name),
          complete: async () => void recorded.push(name),
        },
        afterCommit: (hook: () => void) => void (name === 'committed' ? hooks.push(hook) : undefined),
      }) as unknown as TxDeps;
    const idem = { scope: { accountId: 'acc_1', mode: 'live' as const, method: 'POST', path: '/v1/things', key: 'k1' }, hash: 'h', at: 0, held: false, completed: false };
    const seen: boolean[] = [];
    const uow = {
      async write<T>(fn: (tx: TxDeps) => Promise<T>): Promise<T> {
        pass = 'rolled back';
        await fn(txFor(pass)); // its transaction then fails to commit: everything it wrote is gone
        seen.push(idem.completed);
        pass = 'committed';
        const value = await fn(txFor(pass));
        seen.push(idem.completed);
        for (const hook of hooks) hook();
        return value;
      },
    } as unknown as UnitOfWork;
    const req = { idempotency: idem } as unknown as FastifyRequest;
    expect(await commitOnce({ uow, clock: {} as Clock }, req, 201, async () => ({ ok: true }))).toEqual({ ok: true });
    expect(recorded).toEqual(['rolled back', 'committed']);
    expect(seen).toEqual([false, false]);
    expect(idem.completed).toBe(true);
  });
});
