import { describe, expect, it } from 'vitest';
import { KeyLookups } from './auth.js';
import type { UnitOfWork } from '../deps.js';

// On PostgreSQL the requests of one turn of the event loop that present the same key share
// one read of it, made once all of them have asked.
describe('KeyLookups', () => {
  const fake = () => {
    const log: string[] = [];
    const rows = new Map([
      ['hash-a', { key: { id: 'key_a', revokedAt: null }, account: { id: 'acc_a', status: 'active' } }],
      ['hash-b', { key: { id: 'key_b', revokedAt: null }, account: { id: 'acc_b', status: 'active' } }],
    ]);
    const uow = {
      read: async (fn: (tx: unknown) => Promise<unknown>, opts: unknown) => {
        log.push(`read ${JSON.stringify(opts)}`);
        return await fn({ keys: { findWithAccount: async (hash: string) => (log.push(`find ${hash}`), rows.get(hash)) } });
      },
    } as unknown as UnitOfWork;
    return { log, rows, lookups: new KeyLookups(uow) };
  };

  it('reads each key asked for in one turn once, after every request of the turn has asked', async () => {
    const { log, lookups } = fake();
    const asked = ['hash-a', 'hash-b', 'hash-a', 'hash-a'].map((h) => {
      log.push(`ask ${h}`);
      return lookups.find(h);
    });
    const found = await Promise.all(asked);
    expect(found.map((f) => f?.key.id)).toEqual(['key_a', 'key_b', 'key_a', 'key_a']);
    expect(log).toEqual(['ask hash-a', 'ask hash-b', 'ask hash-a', 'ask hash-a', 'read {"oneStatement":true}', 'find hash-a', 'read {"oneStatement":true}', 'find hash-b']);
  });

  it('a key asked for in a later turn is read again: a revocation committed meanwhile is seen', async () => {
    const { log, rows, lookups } = fake();
    expect((await lookups.find('hash-a'))?.key.revokedAt).toBeNull();
    rows.set('hash-a', { key: { id: 'key_a', revokedAt: 1 as never }, account: { id: 'acc_a', status: 'active' } });
    expect((await lookups.find('hash-a'))?.key.revokedAt).toBe(1);
    expect(log.filter((l) => l.startsWith('find'))).toEqual(['find hash-a', 'find hash-a']);
  });

  it('hands each request its own copy; an unknown key is undefined; a failed read fails every request that shares it', async () => {
    const { lookups } = fake();
    const [one, two] = await Promise.all([lookups.find('hash-a'), lookups.find('hash-a')]);
    one!.account!.status = 'suspended';
    expect(two!.account!.status).toBe('active');
    expect(two!.key).not.toBe(one!.key);
    expect(await lookups.find('hash-unknown')).toBeUndefined();
    const failing = new KeyLookups({ read: async () => Promise.reject(new Error('connection lost')) } as unknown as UnitOfWork);
    const shared = [failing.find('hash-a'), failing.find('hash-a')];
    for (const p of shared) await expect(p).rejects.toThrow('connection lost');
  });
});
