import { esc } from '../hosted-pages/html.js';

// The console's one way to write HTML. `html\`…\`` escapes every value put in it (text,
// numbers, attribute values alike: `esc` quotes `"` and `'` too) unless the value is already
// `SafeHtml` made by this same tag; arrays are joined. User content (message bodies, brand names,
// labels, email HTML) therefore reaches a page only as text, never as markup.

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Piece = SafeHtml | string | number | boolean | null | undefined | readonly Piece[];

const piece = (v: Piece): string => {
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return (v as readonly Piece[]).map(piece).join('');
  if (v === null || v === undefined || v === false) return '';
  return esc(String(v));
};

export function html(strings: TemplateStringsArray, ...values: Piece[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += piece(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** A query string from parameters (undefined ones left out), for links within the console. */
export const query = (params: Record<string, string | undefined | null>): string => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
};

/** A shell word quoted for POSIX shells when it needs it (a copyable `svc` command with user values). */
export const shellWord = (s: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
