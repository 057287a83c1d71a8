import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeEntities, HTML_TEXT_SLICE_CHARS, HtmlTextScan, htmlToText, htmlToTextInSlices } from './mailbox-text.js';

/**
 * The chain of regular expressions `htmlToText` replaced, kept as the reference its output
 * is compared with. Quadratic on markup left open: only ever run here on short inputs.
 */
function chainHtmlToText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|head|title)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/\s+/g, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|table|blockquote|pre|section|article|header|footer|ul|ol)\s*>/gi, '\n')
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

/** The scan read `sliceChars` at a time (the sliced conversion, without the event loop). */
function inSteps(html: string, sliceChars: number): HtmlTextScan {
  const scan = new HtmlTextScan(html);
  while (!scan.done) scan.step(sliceChars);
  return scan;
}

const count = (s: string, c: string): number => s.split(c).length - 1;

// Well-formed html, as a mail template is: text (entities, `>`, whitespace of every kind), elements
// with attributes, void tags, comments, hidden content (script, style, title, a head).
const word = fc.constantFrom('Hello', 'order', 'a', 'Dana', '42', 'x>y', '&amp;', '&lt;b&gt;', '&nbsp;', '&#39;', '&#x1F600;', '&euro;', '&unknown;', '&', ';', '#', '.', '—', 'é');
const space = fc.constantFrom(' ', '  ', '\n', '\t', '\r\n', '\u00a0', '');
const text = fc.array(fc.tuple(word, space), { maxLength: 6 }).map((parts) => parts.map(([w, s]) => w + s).join(''));
const attr = fc.constantFrom('', ' class="c"', ' href="https://shop.example/?a=1&amp;b=2"', " style='color:red'", ' id=x', ' data-x="1 2"');
const tagName = fc.constantFrom('p', 'P', 'div', 'h1', 'h3', 'li', 'ul', 'ol', 'tr', 'td', 'table', 'span', 'b', 'i', 'a', 'em', 'section', 'blockquote', 'pre', 'header', 'footer', 'article');
const voidTag = fc.constantFrom('<br>', '<br/>', '<br />', '<BR>', '<br\n/>', '<img src="x.png" alt="y">', '<hr>', '<meta charset="utf-8">', '<!DOCTYPE html>');
const hiddenText = fc.constantFrom('', 'alert(1)', 'p { color: red }', 'if (a > b) x = "<b>"', 'T', ' \n ');
const hidden = fc
  .tuple(fc.constantFrom('script', 'style', 'title', 'SCRIPT', 'Style'), attr, hiddenText, fc.constantFrom('', ' ', '\n'))
  .map(([name, a, content, ws]) => `<${name}${a}>${content}</${name.toLowerCase()}${ws}>`);
const comment = fc.constantFrom('<!-- hidden -->', '<!---->', '<!-- <p>not shown</p> -->', '<!--[if mso]><table><![endif]-->', '<!-- a > b -->');
const { node } = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    voidTag,
    comment,
    hidden,
    fc
      .tuple(tagName, attr, fc.array(tie('node'), { maxLength: 4 }), fc.constantFrom('', ' ', '\n'))
      .map(([name, a, children, ws]) => `<${name}${a}>${children.join('')}</${name}${ws}>`),
  ),
}));
const document = fc
  .tuple(fc.boolean(), fc.array(fc.oneof(hidden, comment), { maxLength: 2 }), fc.array(node, { maxLength: 5 }))
  .map(([head, inHead, body]) => (head ? `<!DOCTYPE html><html><head>${inHead.join('')}</head><body>${body.join('')}</body></html>` : body.join('')));

// Anything at all made of html's pieces: markup left open, stray delimiters, entities cut by tags.
const fragment = fc.constantFrom(
  '<', '>', '</', '<!--', '-->', '<!-->', '<script', '<script>', '</script>', '<SCRIPT >', '</script >', '<style>', '</style>', '<head>',
  '</head>', '<title>', '</title>', '<scripts>', '<p>', '</p>', '</P >', '<br>', '<br/>', '<b>', '<a ', '<a href="x">', 'a', 'b', ' ',
  '\n', '\t', '\u00a0', '/', '-', '!', '=', '"', "'", '#', ';', 'x',
);
const entityFragment = fc.constantFrom('&', '&amp;', '&lt;', '&#60;', '&#x3c;', '&am', 'p;', '&nbsp;');
const messy = fc.array(fc.oneof(fragment, entityFragment), { maxLength: 30 }).map((parts) => parts.join(''));
const messyWithoutEntities = fc.array(fragment, { maxLength: 30 }).map((parts) => parts.join(''));

describe('mail sandbox text parts (contract §8)', () => {
  it('strips tags, drops script and style, breaks lines at blocks', () => {
    const html = '<html><head><title>T</title><style>p{color:red}</style></head><body><h1>Hello&nbsp;Dana</h1><p>Your <b>order</b>\n   shipped.</p><script>alert(1)</script><p>Line<br>two</p><!-- hidden --></body></html>';
    expect(htmlToText(html)).toBe('Hello Dana\nYour order shipped.\nLine\ntwo');
  });

  it('keeps one empty line at most, none at either end; collapses whitespace of every kind', () => {
    expect(htmlToText('<p></p><p> a </p><br><br><br><div>\tb\u00a0\u00a0c </div><p></p>')).toBe('a\n\nb c');
    expect(htmlToText('<li>one</li><li>two</li>')).toBe('one\ntwo');
    expect(htmlToText('')).toBe('');
    expect(htmlToText('  \n ')).toBe('');
  });

  it('decodes named and numeric entities once (no double decoding)', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39; &#x1F600; &euro;')).toBe('a & b <c> "d" \'e\' 😀 €');
    expect(decodeEntities('&amp;lt;')).toBe('&lt;');
    expect(decodeEntities('&unknown; &#0; &#xD800;')).toBe('&unknown; \uFFFD \uFFFD');
    expect(htmlToText('<p>&lt;b&gt; is bold &amp;amp; stays</p>')).toBe('<b> is bold &amp; stays');
  });

  it('reads markup left open at the end as the regular expressions did: the rest is text as written', () => {
    expect(htmlToText('Hi <!-- <!-- <!--')).toBe('Hi <!-- <!-- <!--');
    expect(htmlToText('Hi <a <a <a ')).toBe('Hi <a <a <a');
    expect(htmlToText('Hi <script>alert(1)')).toBe('Hi alert(1)');
    expect(htmlToText('Hi <script <script')).toBe('Hi <script <script');
    expect(htmlToText('a <!-- b > c')).toBe('a c');
    for (const html of ['Hi <!-- <!-- <!--', 'Hi <a <a <a ', 'Hi <script>alert(1)', 'Hi <script <script', 'a <!-- b > c']) expect(htmlToText(html)).toBe(chainHtmlToText(html));
  });

  it('gives the old output on well-formed html', () => {
    fc.assert(
      fc.property(document, (html) => {
        expect(htmlToText(html)).toBe(chainHtmlToText(html));
      }),
      { numRuns: 2000 },
    );
  });

  it('on any input: the same text read in slices of any size, and no `<` the old output did not have', () => {
    fc.assert(
      fc.property(messy, fc.integer({ min: 1, max: 40 }), (html, slice) => {
        expect(inSteps(html, slice).text()).toBe(htmlToText(html));
      }),
      { numRuns: 3000 },
    );
    // Without entities (a decoded `&lt;` is text, not a tag), every `<` in the text is one the old
    // chain kept too: a `<` with no `>` after it.
    fc.assert(
      fc.property(messyWithoutEntities, (html) => {
        expect(count(htmlToText(html), '<')).toBeLessThanOrEqual(count(chainHtmlToText(html), '<'));
      }),
      { numRuns: 3000 },
    );
  });

  it('searches each character a bounded number of times, whatever the input repeats (linear work)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fragment, entityFragment), { minLength: 1, maxLength: 8 }), fc.integer({ min: 500, max: 5000 }), (parts, times) => {
        const html = parts.join('').repeat(times);
        const scan = inSteps(html, HTML_TEXT_SLICE_CHARS);
        scan.text();
        // Seven kinds of search (`<`, `>`, `-->`, four closing tags), each at most about once over
        // the input, and the text read twice more. The regular expressions read the rest of the
        // input from every opener: thousands of times the input here.
        expect(scan.work).toBeLessThanOrEqual(16 * (html.length + 1));
      }),
      { numRuns: 200 },
    );
  });

  it('converts a megabyte of markup left open in a bounded time (CPU time, not the clock)', () => {
    // The regular expressions took minutes on a megabyte of `<!--` (64 KB: 5 s); the scan takes
    // ~10 ms. The bound sits 200x above the scan and far below the old code, so only a return to
    // quadratic work fails it; CPU time, since a loaded machine stretches the clock, not the work.
    // Linearity itself is held exactly by the work counter above.
    const cpuMs = (html: string): number => {
      let best = Infinity;
      for (let run = 0; run < 5; run++) {
        const before = process.cpuUsage();
        htmlToText(html);
        const used = process.cpuUsage(before);
        best = Math.min(best, (used.user + used.system) / 1000);
      }
      return best;
    };
    for (const opener of ['<!--', '<a ', '<script', '<a\n', '&amp;']) {
      const large = opener.repeat(Math.floor(1_000_000 / opener.length));
      expect(cpuMs(large), opener).toBeLessThan(2_000);
    }
  });

  it('converts in slices, giving the event loop a turn between them', async () => {
    const html = '<p>Hi <a href="https://x.example">there</a> &amp; welcome</p>'.repeat(20_000);
    let turns = 0;
    let ticking = true;
    const tick = (): void => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const text = await htmlToTextInSlices(html);
    ticking = false;
    expect(text).toBe(htmlToText(html));
    expect(turns).toBeGreaterThanOrEqual(Math.floor(html.length / HTML_TEXT_SLICE_CHARS));
  });
});
