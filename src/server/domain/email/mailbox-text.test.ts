import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlToText, renderedParts } from './mailbox-text.js';

describe('mail sandbox text parts (contract §8)', () => {
  it('strips tags, drops script and style, breaks lines at blocks', () => {
    const html = '<html><head><title>T</title><style>p{color:red}</style></head><body><h1>Hello&nbsp;Dana</h1><p>Your <b>order</b>\n   shipped.</p><script>alert(1)</script><p>Line<br>two</p><!-- hidden --></body></html>';
    expect(htmlToText(html)).toBe('Hello Dana\nYour order shipped.\nLine\ntwo');
  });

  it('decodes named and numeric entities once (no double decoding)', () => {
    expect(decodeEntities('a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39; &#x1F600; &euro;')).toBe('a & b <c> "d" \'e\' 😀 €');
    expect(decodeEntities('&amp;lt;')).toBe('&lt;');
    expect(decodeEntities('&unknown; &#0; &#xD800;')).toBe('&unknown; \uFFFD \uFFFD');
  });

  it('keeps the text given, derives it from html only when absent, html as given or null', () => {
    expect(renderedParts({ text: 'plain', html: '<p>rich</p>' })).toEqual({ text: 'plain', html: '<p>rich</p>' });
    expect(renderedParts({ text: null, html: '<p>rich &amp; bold</p>' })).toEqual({ text: 'rich & bold', html: '<p>rich &amp; bold</p>' });
    expect(renderedParts({ text: 'only text', html: null })).toEqual({ text: 'only text', html: null });
  });
});
