// The one money parser and formatter (cli.md "Money"): dollars in, cents out, and back.
import { describe, expect, it } from 'vitest';
import { dollars, parseDollars } from './money.js';
import { UsageError } from './errors.js';
import { paymentHint } from './payment-hint.js';
import { EXIT, exitCodeForApiError } from './exit-codes.js';

const refusal = (text: string, bounds = {}): UsageError => {
  try {
    parseDollars(text, '<amount>', bounds);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error(`"${text}" was accepted`);
};

describe('parseDollars', () => {
  it('reads the spellings cli.md names, and whole or partial cents, as integer cents', () => {
    const cases: [string, number][] = [
      ['20', 2000], ['20.00', 2000], ['$20', 2000], ['$20.00', 2000], ['20.5', 2050], ['0.01', 1], ['0', 0],
      [' 7.25 ', 725], ['$1,000.50', 100_050], ['1,234,567', 123_456_700], ['0.10', 10], ['19.99', 1999],
    ];
    for (const [text, cents] of cases) expect(parseDollars(text, '<amount>'), text).toBe(cents);
  });

  it('never goes through floating point: every cent from 0 to $10.00 round-trips', () => {
    for (let c = 0; c <= 1000; c++) expect(parseDollars(dollars(c), '<amount>')).toBe(c);
  });

  it('refuses negatives, more than 2 decimals, decimal commas and junk, naming the argument', () => {
    for (const bad of ['-5', '-$5', '$-5', '- 5']) expect(refusal(bad).message).toMatch(/^<amount>: .* is negative/);
    for (const bad of ['20.001', '0.125', '$1.999']) expect(refusal(bad).message).toMatch(/more than 2 decimals/);
    for (const bad of ['20,50', '1,00', '12,3456', 'twenty', '', '$', '20$', '1e3', '0x10', '20.', '.5', '$ 20', '20 USD', '1,000,00']) {
      const err = refusal(bad);
      expect(err.flag, bad).toBe('<amount>');
      expect(err.message, bad).toMatch(/^<amount>: /);
    }
  });

  it('checks bounds in dollars', () => {
    expect(refusal('0.99', { minCents: 100 }).message).toBe('<amount>: $0.99 is below the minimum of $1.00');
    expect(refusal('10,000.01', { maxCents: 1_000_000 }).message).toBe('<amount>: $10,000.01 is above the maximum of $10,000.00');
    expect(parseDollars('1', '--amount', { minCents: 100, maxCents: 100 })).toBe(100);
    expect(refusal('99999999999999').message).toMatch(/too large/);
  });
});

describe('dollars', () => {
  it('prints cents as dollars with two decimals and grouped thousands', () => {
    expect(dollars(0)).toBe('$0.00');
    expect(dollars(5)).toBe('$0.05');
    expect(dollars(115)).toBe('$1.15');
    expect(dollars(2000)).toBe('$20.00');
    expect(dollars(100_050)).toBe('$1,000.50');
    expect(dollars(123_456_789)).toBe('$1,234,567.89');
    expect(dollars(-250)).toBe('-$2.50');
  });
});

describe('402', () => {
  it('exits 7 with a hint naming the verb that lifts it', () => {
    expect(exitCodeForApiError('payment_required')).toBe(EXIT.payment);
    expect(exitCodeForApiError('budget_exceeded')).toBe(EXIT.payment);
    expect(EXIT.payment).toBe(7);
    expect(paymentHint('payment_required')).toContain('svc billing top-up');
    expect(paymentHint('budget_exceeded')).toContain('svc billing limit');
    expect(paymentHint('conflict')).toBeUndefined();
  });
});
