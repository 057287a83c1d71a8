import { describe, expect, it } from 'vitest';
import { txtStrings, zoneLines } from './zone.js';

describe('zone-file lines', () => {
  it('writes names fully qualified, MX with a priority, CNAME targets qualified', () => {
    const lines = zoneLines([
      { type: 'MX', name: 'send.example.com', value: 'feedback.mail.test' },
      { type: 'MX', name: 'send.example.com.', value: '20 feedback.mail.test.' },
      { type: 'CNAME', name: 'k1._domainkey.send.example.com', value: 'k1.dkim.mail.test' },
    ]);
    expect(lines).toEqual([
      'send.example.com. 3600 IN MX 10 feedback.mail.test.',
      'send.example.com. 3600 IN MX 20 feedback.mail.test.',
      'k1._domainkey.send.example.com. 3600 IN CNAME k1.dkim.mail.test.',
    ]);
  });

  it('quotes TXT values, escaping quotes and backslashes', () => {
    expect(zoneLines([{ type: 'TXT', name: 'send.example.com', value: 'v=spf1 include:"x" \\ ~all' }])).toEqual(['send.example.com. 3600 IN TXT "v=spf1 include:\\"x\\" \\\\ ~all"']);
    expect(txtStrings('')).toBe('""');
  });

  it('splits a TXT value at 255 bytes: 255 stays one string, 256 becomes two', () => {
    expect(txtStrings('a'.repeat(255))).toBe(`"${'a'.repeat(255)}"`);
    expect(txtStrings('a'.repeat(256))).toBe(`"${'a'.repeat(255)}" "a"`);
    const dkim = `p=${'B'.repeat(600)}`;
    const parts = txtStrings(dkim).split(' ').map((p) => p.slice(1, -1));
    expect(parts.map((p) => p.length)).toEqual([255, 255, 92]);
    expect(parts.join('')).toBe(dkim);
  });
});
