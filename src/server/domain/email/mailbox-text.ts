// contract §8 (extension): the mail sandbox keeps each message's text part. An email sent with only
// html gets a text part derived from it, as a mail client's plain-text view would show it: comments,
// and the content of script, style, head and title dropped, line breaks where blocks end, tags
// stripped, entities decoded, whitespace collapsed. Pure.
//
// Not a chain of regular expressions (`<!--[\s\S]*?-->`, `<(script|…)\b[\s\S]*?<\/\1`,
// `<[^>]*>`), each quadratic on markup left open: every `<` retries a search to the end of the
// input, so one email of 60,000 `<!--` would hold the service's only thread for minutes. It is ONE
// forward scan that remembers each search (`NextFound`), so no character is searched twice for the
// same thing, and whose work can be cut into slices (`step`) with the event loop served in between
// (`htmlToTextInSlices`). The output is the old chain's on well-formed html (a property test
// compares them); on markup left open it keeps what the old chain kept or less, never an extra `<`.
// Measured (Node 20, 1 MB of each opener, CPU time unless said; the machine shared and loaded):
//   input                before: the chain of regular expressions       after: whole    8 KB slices, longest (clock)
//   `<!--` × 262,144     ~4 min (64 KB 0.9 s, 128 KB 4.3 s, 256 KB 14.8 s)   10 ms      128, longest 3 ms
//   `<a ` × 349,525      ~3 min (64 KB 0.7 s, 128 KB 2.7 s, 256 KB 11.6 s)   10 ms      128, longest 0.5 ms
//   `<script` × 149,796  ~1.5 min (64 KB 0.4 s, 128 KB 1.9 s, 256 KB 5.9 s)   7 ms      128, longest 0.3 ms
// ("before" at 1 MB extrapolated from 256 KB: the time grew ~4x per doubling.) The dearest input
// found for the scan is a megabyte of tiny tags (`<>`, `<p>`): ~100 ms of CPU in all, spread over
// the slices.

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®', trade: '™',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', euro: '€', pound: '£',
};

function codePoint(n: number): string {
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '\uFFFD';
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isHexDigit = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/** What `/\s/` matches (and `trim` removes): the whitespace the old chain collapsed. */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * The character reference at `at` (an `&`): `&#x` hex digits `;`, `&#` digits `;`, or `&` a letter,
 * letters and digits, `;` (ASCII, any case: what `/&(#x[0-9a-f]+|#[0-9]+|[a-z][a-z0-9]*);/i`
 * matched). Returns what it stands for (an unknown name stands for itself) and where it ends, or
 * undefined when none starts there (the `&` is text).
 */
function entityAt(s: string, at: number): { text: string; end: number } | undefined {
  let k = at + 1;
  if (s.charCodeAt(k) === 35 /* # */) {
    const hex = s.charCodeAt(k + 1) === 120 || s.charCodeAt(k + 1) === 88; /* x X */
    const digits = hex ? k + 2 : k + 1;
    for (k = digits; k < s.length && (hex ? isHexDigit(s.charCodeAt(k)) : isDigit(s.charCodeAt(k))); k++);
    if (k === digits || s.charCodeAt(k) !== 59 /* ; */) return undefined;
    return { text: codePoint(parseInt(s.slice(digits, k), hex ? 16 : 10)), end: k + 1 };
  }
  if (!isLetter(s.charCodeAt(k))) return undefined;
  for (k++; k < s.length && (isLetter(s.charCodeAt(k)) || isDigit(s.charCodeAt(k))); k++);
  if (s.charCodeAt(k) !== 59 /* ; */) return undefined;
  return { text: NAMED_ENTITIES[s.slice(at + 1, k).toLowerCase()] ?? s.slice(at, k + 1), end: k + 1 };
}

/** Decodes named (a common set) and numeric character references; unknown names stay as written. */
export function decodeEntities(s: string): string {
  let out = '';
  let from = 0;
  for (let amp = s.indexOf('&'); amp >= 0; amp = s.indexOf('&', amp + 1)) {
    const entity = entityAt(s, amp);
    if (!entity) continue;
    out += s.slice(from, amp) + entity.text;
    from = entity.end;
    amp = entity.end - 1;
  }
  return out + s.slice(from);
}

/** Elements whose content is not text a reader sees. */
const HIDDEN_CONTENT = ['script', 'style', 'head', 'title'] as const;
/** A tag (what is between `<` and `>`) that ends a line: `<br>`, `<br/>`, or the end of a block. */
const LINE_BREAK_TAG = /^(?:br\s*\/?|\/(?:p|div|h[1-6]|li|tr|table|blockquote|pre|section|article|header|footer|ul|ol)\s*)$/i;
/** An entity is made of these (`&`, `#`, letters, digits, then `;`): text is only cut after another character. */
const isEntityChar = (c: number): boolean => c === 38 || c === 35 || isDigit(c) || isLetter(c);

/** How much input one `step` of `htmlToTextInSlices` reads: a slice takes a millisecond or two. */
export const HTML_TEXT_SLICE_CHARS = 8 * 1024;
/** Text is collapsed and decoded in pieces of about this size, so no piece costs more than a slice. */
const PIECE_CHARS = 8 * 1024;

/** Whether `word` (lower-case ASCII) is at `at`, ASCII letters compared case-insensitively (as `/i` does). */
function asciiWordAt(s: string, at: number, word: string): boolean {
  if (at + word.length > s.length) return false;
  for (let k = 0; k < word.length; k++) {
    const c = s.charCodeAt(at + k);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== word.charCodeAt(k)) return false;
  }
  return true;
}

/** A regular expression's word character ([A-Za-z0-9_]): the far side of a `\b`. */
function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** Where something was found: its first character and the one after it. */
interface Found {
  start: number;
  end: number;
}

/**
 * The first place at or after a position where something is found, remembered. The scan only moves
 * forward, so a later question from a position up to the last answer has the same answer, and one
 * past it searches only what no earlier question searched. (Without this, markup left open made
 * every opener search to the end of the input: quadratic time.)
 */
class NextFound {
  private from = 0;
  private found: Found | null | undefined; // undefined: nothing asked yet; null: none from `from` on

  constructor(private readonly find: (from: number) => Found | null) {}

  after(from: number): Found | null {
    if (this.found === undefined || from < this.from || (this.found !== null && from > this.found.start)) {
      this.from = from;
      this.found = this.find(from);
    }
    return this.found;
  }
}

/**
 * The text as the old chain's last steps made it, built a piece at a time by hand (a regular
 * expression costs a microsecond or more per match, and a megabyte of `<a\n` has 350,000): each
 * line's whitespace collapsed to single spaces and trimmed, lines with text kept, one empty line at
 * most between them, none at either end, entities decoded. Text is held until a line ends or enough
 * has come, then cut where no entity can span the cut, so pieces decode as the whole would.
 */
class TextLines {
  private readonly out: string[] = [];
  /** The current line's text not yet written out, in the pieces it came in (never read by index). */
  private held: string[] = [];
  private heldChars = 0;
  /** The last place in the held text where it can be cut (0: nowhere). */
  private cutAt = 0;
  private lineHasText = false;
  /** Whitespace came after the last text written on this line: a space goes before the next. */
  private spaceOwed = false;
  private anyText = false;
  /** An empty line ended since the last line with text. */
  private emptyLine = false;
  /** Characters read so far (see `HtmlTextScan.work`). */
  work = 0;

  add(text: string): void {
    let k = text.length;
    while (k > 0 && isEntityChar(text.charCodeAt(k - 1))) k--;
    this.work += text.length - k + 1;
    if (k > 0) this.cutAt = this.heldChars + k;
    this.held.push(text);
    this.heldChars += text.length;
    if (this.cutAt >= PIECE_CHARS) this.writeHeld(this.cutAt);
  }

  endLine(): void {
    this.writeHeld(this.heldChars);
    if (!this.lineHasText && this.anyText) this.emptyLine = true;
    this.lineHasText = false;
    this.spaceOwed = false;
  }

  finish(): string {
    this.endLine();
    return this.out.join('');
  }

  /** Writes out the held text before `cut` (whitespace collapsed, entities decoded), keeping the rest. */
  private writeHeld(cut: number): void {
    if (cut === 0) return;
    const held = this.held.length === 1 ? this.held[0]! : this.held.join('');
    this.work += held.length;
    const piece = held.slice(0, cut);
    this.held = cut < held.length ? [held.slice(cut)] : [];
    this.heldChars = held.length - cut;
    this.cutAt = 0; // `cut` was the last place to cut
    // Built as a list joined once: a string grown by `+=` is a tree of every part, and a megabyte
    // of `<a\n` made 700,000 of them, all alive (and walked by every garbage collection) to the end.
    const parts: string[] = [];
    let run = 0; // the text since the last whitespace or entity, written as it is
    for (let i = 0; i < piece.length; ) {
      const c = piece.charCodeAt(i);
      if (isSpace(c)) {
        let end = i + 1;
        while (end < piece.length && isSpace(piece.charCodeAt(end))) end++;
        // A lone space inside text is already what collapsing makes of it: it stays in the run.
        if (c === 32 && end === i + 1 && i > run && end < piece.length) {
          i = end;
          continue;
        }
        this.write(parts, piece.slice(run, i));
        if (this.lineHasText) this.spaceOwed = true;
        i = run = end;
      } else if (c === 38 /* & */) {
        const entity = entityAt(piece, i);
        if (!entity) {
          i++;
          continue;
        }
        this.write(parts, piece.slice(run, i));
        this.write(parts, entity.text);
        i = run = entity.end;
      } else {
        i++;
      }
    }
    this.write(parts, piece.slice(run));
    if (parts.length > 0) this.out.push(parts.join(''));
  }

  /** Text on the current line (an entity's text is never collapsed), after the line break or space owed. */
  private write(parts: string[], text: string): void {
    if (text.length === 0) return;
    if (this.lineHasText) {
      if (this.spaceOwed) parts.push(' ');
    } else if (this.anyText) {
      parts.push(this.emptyLine ? '\n\n' : '\n');
    }
    parts.push(text);
    this.lineHasText = this.anyText = true;
    this.emptyLine = this.spaceOwed = false;
  }
}

/**
 * The text of an html body, read by a scan that can stop and resume (`step`), so a large body can be
 * converted a slice at a time with other work served in between (`htmlToTextInSlices`).
 */
export class HtmlTextScan {
  private pos = 0;
  /** From here on everything is text: a `<` with no `>` anywhere after it. */
  private textFrom = Infinity;
  private readonly out = new TextLines();
  private readonly nextLt: NextFound;
  private readonly nextGt: NextFound;
  private readonly comments: NextFound;
  private readonly hidden: Map<string, NextFound>;
  /** Characters passed over by searches so far (see `work`). */
  private searched = 0;

  constructor(private readonly html: string) {
    const indexOf = (what: string) => (from: number) => {
      const at = html.indexOf(what, from);
      return this.counted(from, at < 0 ? null : { start: at, end: at + what.length });
    };
    this.nextLt = new NextFound(indexOf('<'));
    this.nextGt = new NextFound(indexOf('>'));
    this.comments = new NextFound(indexOf('-->'));
    this.hidden = new Map(
      HIDDEN_CONTENT.map((name) => {
        // Linear: an attempt starts only at `</`, and the whitespace it reads ends before the next `</`.
        const closing = new RegExp(`</${name}\\s*>`, 'gi');
        return [
          name,
          new NextFound((from) => {
            closing.lastIndex = from;
            const m = closing.exec(html);
            return this.counted(from, m ? { start: m.index, end: m.index + m[0].length } : null);
          }),
        ];
      }),
    );
  }

  get done(): boolean {
    return this.pos >= this.html.length;
  }

  /**
   * Characters read so far, by searches and by the text's assembly: the work of the scan, which the
   * linear-time test bounds by a small multiple of the input's length. Each character is searched at
   * most once for each kind of thing (`<`, `>`, `-->`, each hidden element's closing tag), and text
   * is read at most twice more (held, then collapsed and decoded).
   */
  get work(): number {
    return this.searched + this.out.work;
  }

  /** Reads on until at least `chars` more of the input are behind (or the end). */
  step(chars: number): void {
    const html = this.html;
    const stop = Math.min(html.length, this.pos + chars);
    while (this.pos < stop) {
      const lt = this.pos >= this.textFrom ? null : this.nextLt.after(this.pos);
      const textEnd = lt === null ? html.length : lt.start;
      if (textEnd > this.pos) {
        // Text, at most the rest of this step's share and a piece's worth at a time (a long run is
        // read over several steps, and collapsed and decoded in pieces).
        const end = Math.min(textEnd, stop, this.pos + PIECE_CHARS);
        this.out.add(html.slice(this.pos, end));
        this.pos = end;
      } else {
        this.pos = this.markupAt(this.pos);
      }
    }
  }

  /** The text, once `done`. */
  text(): string {
    if (!this.done) throw new Error('the html has not been read to its end');
    return this.out.finish();
  }

  private counted(from: number, found: Found | null): Found | null {
    this.searched += (found === null ? this.html.length : found.end) - from;
    return found;
  }

  /** What starts with the `<` at `lt`: a comment, an element whose content is hidden, or a tag. Returns where it ends. */
  private markupAt(lt: number): number {
    const html = this.html;
    if (html.startsWith('<!--', lt)) {
      // The first `-->` after the opener ends it (`<!-->` does not), as before.
      const close = this.comments.after(lt + 4);
      if (close) return close.end;
      // A comment never closed is read as a tag, as before.
    } else {
      for (const name of HIDDEN_CONTENT) {
        const after = lt + 1 + name.length;
        // `<script` then a non-word character (a regular expression's `\b`): `<scripts>` is a tag.
        if (!asciiWordAt(html, lt + 1, name) || (after < html.length && isWordChar(html.charCodeAt(after)))) continue;
        const close = this.hidden.get(name)!.after(after);
        if (close) return close.end;
        break; // never closed: its start tag is stripped and its content shows, as before
      }
    }
    const gt = this.nextGt.after(lt + 1);
    if (!gt) {
      // No `>` anywhere on: nothing from here is markup, so the rest is text as written (the old
      // chain kept it too). Only a `<` with no `>` after it can reach the output.
      this.textFrom = lt;
      this.out.add('<');
      return lt + 1;
    }
    const c = html.charCodeAt(lt + 1);
    // Only `<b…` and `</…` can break a line: no other tag's content is tested.
    if ((c === 98 || c === 66 || c === 47) && LINE_BREAK_TAG.test(html.slice(lt + 1, gt.start))) this.out.endLine();
    return gt.end;
  }
}

/** The plain text of an html body. */
export function htmlToText(html: string): string {
  const scan = new HtmlTextScan(html);
  scan.step(html.length);
  return scan.text();
}

/**
 * `htmlToText`, a slice of `HTML_TEXT_SLICE_CHARS` at a time, giving the event loop a turn between
 * slices: a megabyte of html never holds the service's thread for more than a slice.
 */
export async function htmlToTextInSlices(html: string, sliceChars = HTML_TEXT_SLICE_CHARS): Promise<string> {
  const scan = new HtmlTextScan(html);
  // Every slice after a turn, the first too: the caller's synchronous work (a job's transaction) ends first.
  while (!scan.done) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    scan.step(sliceChars);
  }
  return scan.text();
}
