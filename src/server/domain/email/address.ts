// spec: Send email body — `from` "may carry a display name before an address"; recipients too.
// A deliberately small parser for ONE mailbox, the two forms a sender writes:
//   addr@domain
//   Display Name <addr@domain>      "Quoted, Name \"x\"" <addr@domain>      <addr@domain>
// Not accepted (each a clear error rather than a guess): several addresses ("a@x.com, b@y.com"),
// group syntax, comments, quoted local parts, IP-literal domains, line breaks (header injection).

import { addressProblem } from '../../../api/values/mailbox-address.js';

// The bare address's rule is shared with a brand's contact emails (contract §7).
export { addressProblem };

export interface Mailbox {
  /** The display name without quotes and escapes, or null when none was given. */
  displayName: string | null;
  /** The bare address (addr-spec) as written, e.g. `Jane@Example.com`. */
  address: string;
  /** The address's domain, lower-case. */
  domain: string;
}

export type ParseResult = { ok: true; mailbox: Mailbox } | { ok: false; reason: string };

// Characters an unquoted display name may not hold: they have a meaning in a mailbox (RFC 5322 specials).
const NAME_SPECIALS = /[<>@,;:"()[\]\\]/;

const fail = (reason: string): ParseResult => ({ ok: false, reason });

function bare(address: string): ParseResult {
  const problem = addressProblem(address);
  if (problem) return fail(problem);
  const domain = address.slice(address.lastIndexOf('@') + 1).toLowerCase();
  return { ok: true, mailbox: { displayName: null, address, domain } };
}

/** Reads a quoted string starting at `s[0] === '"'`: its unescaped content and where it ends. */
function quoted(s: string): { text: string; end: number } | null {
  let text = '';
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\') {
      if (i + 1 >= s.length) return null;
      text += s[++i];
    } else if (c === '"') {
      return { text, end: i + 1 };
    } else {
      text += c;
    }
  }
  return null;
}

/** Parses one mailbox: `addr@domain`, `Name <addr@domain>`, `"Quoted Name" <addr@domain>` or `<addr@domain>`. */
export function parseMailbox(input: string): ParseResult {
  // Control characters (CR/LF above all) would let a value start a new header line.
  if (/[\x00-\x1f\x7f]/.test(input)) return fail('control characters and line breaks are not allowed');
  const s = input.trim();
  if (!s) return fail('empty');
  if (!s.includes('<') && !s.includes('>')) {
    if (/[\s,;"]/.test(s)) return fail('give one address, optionally as "Display Name <address@domain>"');
    return bare(s);
  }
  if (!s.endsWith('>')) return fail('nothing may follow the closing >');
  const open = s.lastIndexOf('<');
  if (open < 0) return fail('a > without its <');
  const inner = s.slice(open + 1, -1).trim();
  if (inner.includes('<') || inner.includes('>')) return fail('one address between < and >');
  let name = s.slice(0, open).trim();
  let displayName: string | null = null;
  if (name.startsWith('"')) {
    const q = quoted(name);
    if (!q) return fail('the quoted display name is not closed');
    if (name.slice(q.end).trim()) return fail('nothing may stand between the quoted display name and <');
    displayName = q.text;
  } else if (name) {
    if (/[<>]/.test(name)) return fail('give one address only, not a list');
    if (NAME_SPECIALS.test(name)) return fail('a display name with < > @ , ; : " ( ) [ ] or \\ must be in double quotes');
    name = name.replace(/\s+/g, ' ');
    displayName = name;
  }
  const parsed = bare(inner);
  if (!parsed.ok) return parsed;
  return { ok: true, mailbox: { ...parsed.mailbox, displayName: displayName || null } };
}
