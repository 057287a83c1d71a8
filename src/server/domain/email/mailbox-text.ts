// contract §8 (extension): the mail sandbox keeps each message's text part. An email sent with only
// html gets a text part derived from it, as a mail client's plain-text view would show it: script
// and style contents dropped, line breaks where blocks end, tags stripped, entities decoded,
// whitespace collapsed. Pure.

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®', trade: '™',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', euro: '€', pound: '£',
};

function codePoint(n: number): string {
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '\uFFFD';
}

/** Decodes named (a common set) and numeric character references; unknown names stay as written. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);/gi, (whole, ref: string) => {
    if (ref[0] === '#') return codePoint(ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10));
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

const BLOCK_END = /<\/(p|div|h[1-6]|li|tr|table|blockquote|pre|section|article|header|footer|ul|ol)\s*>/gi;

/** The plain text of an html body. */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|head|title)\b[\s\S]*?<\/\1\s*>/gi, '')
    // Source line breaks are only whitespace in html; the breaks that show come from the markup.
    .replace(/\s+/g, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(BLOCK_END, '\n')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(
    text
      .split('\n')
      .map((line) => line.replace(/[ \t\r\f\v]+/g, ' ').trim())
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
  );
}

/** The rendered parts the mail sandbox keeps: text as given, or derived from the html; html as given or null. */
export function renderedParts(email: { text: string | null; html: string | null }): { text: string | null; html: string | null } {
  return { text: email.text ?? (email.html === null ? null : htmlToText(email.html)), html: email.html };
}
