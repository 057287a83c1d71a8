import { UsageError } from './errors.js';

// cli.md "Money": dollars on the command line (`20`, `20.00`, `$20`) and in tables (`$20.00`); the
// API and the machine formats stay integer cents (spec: convention 2). The one parser and formatter:
// every verb that reads or shows money goes through here. Integer arithmetic only (no float cents).

/** 115 → "$1.15"; 100050 → "$1,000.50" (thousands grouped, so a balance reads at a glance). */
export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  return `${sign}$${whole}.${String(abs % 100).padStart(2, '0')}`;
}

export interface DollarBounds {
  minCents?: number;
  maxCents?: number;
}

/**
 * "20", "20.5", "20.00", "$20", "$1,000.50" → cents. Decision: a comma is taken only as a thousands
 * separator in groups of three (`1,000.50`), so a decimal comma (`20,50`) is refused rather than
 * read as 2050 dollars. Refused, each a usage error (exit 2) naming `flag`: a negative amount, more
 * than two decimals, anything not a plain amount, and an amount outside `bounds`.
 */
export function parseDollars(text: string, flag: string, bounds: DollarBounds = {}): number {
  const t = text.trim();
  if (/^(-\s*\$?|\$\s*-)/.test(t)) throw new UsageError(`${flag}: "${text}" is negative; give an amount in dollars such as 20 or 20.00`, flag);
  const m = /^\$?(\d+|\d{1,3}(?:,\d{3})+)(?:\.(\d+))?$/.exec(t);
  if (!m) throw new UsageError(`${flag}: "${text}" is not an amount in dollars; use e.g. 20, 20.00 or $20`, flag);
  const fraction = m[2] ?? '';
  if (fraction.length > 2) throw new UsageError(`${flag}: "${text}" has more than 2 decimals; dollars are counted to the cent`, flag);
  const whole = m[1]!.replace(/,/g, '');
  // Past 15 digits of dollars the cents would not be a safe integer; no bound allows that anyway.
  if (whole.length > 13) throw new UsageError(`${flag}: "${text}" is too large`, flag);
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (bounds.minCents !== undefined && cents < bounds.minCents) throw new UsageError(`${flag}: ${dollars(cents)} is below the minimum of ${dollars(bounds.minCents)}`, flag);
  if (bounds.maxCents !== undefined && cents > bounds.maxCents) throw new UsageError(`${flag}: ${dollars(cents)} is above the maximum of ${dollars(bounds.maxCents)}`, flag);
  return cents;
}
