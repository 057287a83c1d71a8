import { describe, expect, it } from 'vitest';
import { checkOutcome, judgeRecord, recordsToPublish, valueMatches } from './dns-records.js';

// contract §8 (records and their purposes), §9 (propagating, missing).
describe('recordsToPublish', () => {
  it('lists one record per purpose, all pending, named under the domain', () => {
    const records = recordsToPublish('example.com', 'TOKEN123', 'svcsel');
    expect(records.map((r) => r.purpose)).toEqual(['verification', 'spf', 'dkim', 'return_path', 'dmarc']);
    expect(records.every((r) => r.status === 'pending' && r.name.endsWith('.example.com'))).toBe(true);
    expect(records[0]).toMatchObject({ type: 'TXT', name: '_svc-verification.example.com', value: 'svc-verification=TOKEN123' });
    expect(records[2]).toMatchObject({ type: 'CNAME', name: 'svcsel._domainkey.example.com', value: 'svcsel.dkim.mail.svc.test' });
    expect(records[3]).toMatchObject({ type: 'MX', name: 'send.example.com', value: '10 feedback.mail.svc.test' });
  });
});

describe('valueMatches and judgeRecord', () => {
  it('compares CNAME and MX targets case-insensitively, trimmed, with or without the trailing dot', () => {
    expect(valueMatches('CNAME', 'a.dkim.mail.svc.test', ' A.DKIM.Mail.svc.test. ')).toBe(true);
    expect(valueMatches('MX', '10 feedback.mail.svc.test', '10   FEEDBACK.mail.svc.test.')).toBe(true);
    expect(valueMatches('MX', '10 feedback.mail.svc.test', '20 feedback.mail.svc.test')).toBe(false);
  });

  it('keeps a TXT token exact but tolerates surrounding space and quotes', () => {
    expect(valueMatches('TXT', 'svc-verification=AbC', '  "svc-verification=AbC" ')).toBe(true);
    expect(valueMatches('TXT', 'svc-verification=AbC', 'svc-verification=abc')).toBe(false);
    expect(valueMatches('TXT', 'v=spf1 include:spf.mail.svc.test ~all', 'V=SPF1 include:spf.mail.svc.test ~all')).toBe(true);
  });

  it('judges each answer', () => {
    const r = { type: 'TXT' as const, value: 'x=1' };
    expect(judgeRecord(r, { state: 'found', values: ['other', 'x=1'] })).toBe('valid');
    expect(judgeRecord(r, { state: 'found', values: ['other'] })).toBe('invalid');
    expect(judgeRecord(r, { state: 'missing' })).toBe('missing');
    expect(judgeRecord(r, { state: 'propagating' })).toBe('pending');
  });
});

describe('checkOutcome', () => {
  const with_ = (statuses: Record<string, string>) =>
    recordsToPublish('example.com', 't', 's').map((r) => ({ ...r, status: (statuses[r.purpose] ?? 'valid') as 'valid' }));
  it('ignores DMARC (recommended), fails before propagating, verifies when every required record is valid', () => {
    expect(checkOutcome(with_({ dmarc: 'missing' }))).toBe('valid');
    expect(checkOutcome(with_({ dkim: 'pending' }))).toBe('propagating');
    expect(checkOutcome(with_({ dkim: 'pending', spf: 'invalid' }))).toBe('failing');
    expect(checkOutcome(with_({ return_path: 'missing' }))).toBe('failing');
  });
});
