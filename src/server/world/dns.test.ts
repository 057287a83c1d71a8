import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.js';
import { SandboxDnsResolver, type SandboxDnsEntry } from './dns.js';

// contract §9: the sandbox DNS table behind the resolver interface.
describe('SandboxDnsResolver', () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const table = new Map<string, SandboxDnsEntry>([
    ['a.example.com', { name: 'a.example.com', records: [{ type: 'TXT', value: 'one' }, { type: 'TXT', value: 'two' }], visibleAt: clock.nowMs(), updatedAt: 0 }],
    ['b.example.com', { name: 'b.example.com', records: [{ type: 'MX', value: '10 mx' }], visibleAt: clock.nowMs() + 60_000, updatedAt: 0 }],
  ]);
  const dns = new SandboxDnsResolver(async (n) => table.get(n), clock);

  it('answers the values of the asked type, by a case-insensitive fully qualified name', async () => {
    expect(await dns.resolve('A.Example.COM.', 'TXT')).toEqual({ state: 'found', values: ['one', 'two'] });
    expect(await dns.resolve('a.example.com', 'CNAME')).toEqual({ state: 'missing' });
    expect(await dns.resolve('nowhere.example.com', 'TXT')).toEqual({ state: 'missing' });
  });

  it('answers propagating until visibleAt on the service clock', async () => {
    expect(await dns.resolve('b.example.com', 'MX')).toEqual({ state: 'propagating' });
    clock.setTo(clock.nowMs() + 59_999);
    expect(await dns.resolve('b.example.com', 'MX')).toEqual({ state: 'propagating' });
    clock.setTo(clock.nowMs() + 1);
    expect(await dns.resolve('b.example.com', 'MX')).toEqual({ state: 'found', values: ['10 mx'] });
  });
});
