import { describe, expect, it } from 'vitest';
import { leadFormValues, normalisePhone, validateLeadForm } from './leads.js';

describe('the opt-in form rules', () => {
  it('normalises E.164 and US 10-digit numbers, refuses the rest', () => {
    expect(normalisePhone('+14155550123')).toBe('+14155550123');
    expect(normalisePhone(' +44 (20) 7946-0958 ')).toBe('+442079460958');
    expect(normalisePhone('415.555.0123')).toBe('+14155550123');
    expect(normalisePhone('1-415-555-0123')).toBe('+14155550123');
    expect(normalisePhone('415-155-0123')).toBeNull(); // exchange starting with 1
    expect(normalisePhone('2155550123x')).toBeNull();
    expect(normalisePhone('+1234567890123456')).toBeNull(); // over 15 digits
    expect(normalisePhone('')).toBeNull();
  });

  it('reads the first of repeated fields and only consent=yes as a tick', () => {
    const v = leadFormValues({ firstName: ['Ada', 'Eve'], lastName: 'L', consent: 'on' });
    expect(v).toEqual({ firstName: 'Ada', lastName: 'L', email: '', phone: '', consent: false });
    expect(leadFormValues({ consent: ['yes'] }).consent).toBe(true);
  });

  it('refuses NUL in a name or the email', () => {
    const errors = validateLeadForm({ firstName: 'A\u0000da', lastName: 'L\u0000', email: 'a\u0000@b.example', phone: '4155550123', consent: true });
    expect(Object.keys(errors).sort()).toEqual(['email', 'firstName', 'lastName']);
  });

  it('reports every failing field at once, and none for a valid form', () => {
    const errors = validateLeadForm({ firstName: ' ', lastName: 'x'.repeat(101), email: 'a@b', phone: '', consent: false });
    expect(Object.keys(errors).sort()).toEqual(['email', 'firstName', 'lastName', 'phone']);
    expect(validateLeadForm({ firstName: 'Ada', lastName: 'L', email: '', phone: '4155550123', consent: false })).toEqual({});
  });
});
