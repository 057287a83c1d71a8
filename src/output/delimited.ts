// Cell encoding for the two delimited formats: csv (for spreadsheets and csv parsers) and the
// tab-separated rows lists print into pipes (for cut/awk/while-read).
import type { FlatValue } from './flatten.js';

function cellText(value: FlatValue | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value);
}

// RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled.
export function csvField(value: FlatValue | undefined): string {
  const text = cellText(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly (FlatValue | undefined)[]): string {
  // "\n" rather than RFC 4180's CRLF: output is read by Unix tools first, and csv parsers accept both.
  return `${values.map(csvField).join(',')}\n`;
}

// Tab-separated output has no quoting, so a tab or line break inside a value would split a row;
// they are written as the two-character escapes `\t`, `\n`, `\r` instead: one record, one line.
export function tsvField(value: FlatValue | undefined): string {
  return cellText(value).replace(/[\t\n\r]/g, (ch) => (ch === '\t' ? '\\t' : ch === '\n' ? '\\n' : '\\r'));
}

export function tsvLine(values: readonly (FlatValue | undefined)[]): string {
  return `${values.map(tsvField).join('\t')}\n`;
}
