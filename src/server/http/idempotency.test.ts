import { describe, it, expect } from 'vitest';
import { withoutSecrets } from './idempotency.js';

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
