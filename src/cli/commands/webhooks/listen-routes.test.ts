import { describe, expect, it } from 'vitest';
import { parseForwardTo } from './listen-routes.js';

describe('--forward-to', () => {
  it('takes a local host and port without a scheme as plain http', async () => {
    expect(await parseForwardTo(['localhost:3000'])).toEqual([{ patterns: ['*'], url: 'http://localhost:3000' }]);
    expect(await parseForwardTo(['127.0.0.1:8080/hooks', 'message.*=[::1]:9000/sms'])).toEqual([
      { patterns: ['*'], url: 'http://127.0.0.1:8080/hooks' },
      { patterns: ['message.*'], url: 'http://[::1]:9000/sms' },
    ]);
  });

  it('keeps an explicit scheme, and refuses a remote host without one', async () => {
    expect(await parseForwardTo(['https://hooks.example.com/x'])).toEqual([{ patterns: ['*'], url: 'https://hooks.example.com/x' }]);
    await expect(parseForwardTo(['example.com:3000'])).rejects.toThrow(/--forward-to/);
  });
});
