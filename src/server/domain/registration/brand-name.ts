// How a brand is named in its messages: the prediction looks for the name in each sample and the
// draft writes it there, so both read these (one rule, one place).
import { WORDS } from './prediction-lexicon.js';

/** "Acme Bakery, LLC" → "Acme Bakery": messages use the trading name, without the legal suffix. */
export function tradingName(legalName: string): string {
  let out = legalName.trim();
  for (;;) {
    const m = /[\s,]+([\p{L}.]+)$/u.exec(out);
    const suffix = m?.[1]!.toLowerCase().replace(/\.+$/, '');
    if (!m || !(WORDS.legalSuffixes as readonly string[]).includes(suffix!)) return out || legalName.trim();
    out = out.slice(0, m.index).trim();
  }
}

/** A name appears in a text: case- and punctuation-insensitive, on word boundaries. */
export function containsName(text: string, name: string): boolean {
  const n = normalizeName(name);
  return n.length > 0 && ` ${normalizeName(text)} `.includes(` ${n} `);
}

function normalizeName(s: string): string {
  return s
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
