import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { clickedUrl, HARD_BOUNCE, mailServerScript, simulatorAddressOf, SOFT_BOUNCE } from './mail-server.js';
import { MAIL_SIMULATOR_TIMINGS as T, SIMULATOR_DEFAULT_CLICK_URL } from '../../api/values/email.js';

const noClick = () => SIMULATOR_DEFAULT_CLICK_URL;

/** The regular expression `clickedUrl` replaced, the reference it is compared with (quadratic: short inputs only). */
function regexClickedUrl(html: string | null): string {
  const m = html && /<a\b[^>]*?\bhref\s*=\s*(?:"(https?:\/\/[^"]+)"|'(https?:\/\/[^']+)'|(https?:\/\/[^\s>]+))/i.exec(html);
  return m ? (m[1] ?? m[2] ?? m[3])! : SIMULATOR_DEFAULT_CLICK_URL;
}

/** The least CPU time (ms) of a few runs: unlike the clock, not stretched when the process waits for a core. */
function cpuMs(fn: () => unknown): number {
  let best = Infinity;
  for (let run = 0; run < 5; run++) {
    const before = process.cpuUsage();
    fn();
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}
const types = (address: string) => mailServerScript(address, noClick).map((s) => s.outcome.type);

describe('simulated mail server (contract §8)', () => {
  it('reads the local part on simulator.test, ignoring a +label and case', () => {
    expect(simulatorAddressOf('bounce@simulator.test')).toBe('bounce');
    expect(simulatorAddressOf('Bounce+a@SIMULATOR.test')).toBe('bounce');
    expect(simulatorAddressOf('soft-bounce+x+y@simulator.test')).toBe('soft-bounce');
    expect(simulatorAddressOf('bounce@example.com')).toBeUndefined();
    expect(simulatorAddressOf('bouncer@simulator.test')).toBeUndefined();
    expect(simulatorAddressOf('bounce@sub.simulator.test')).toBeUndefined();
  });

  it('gives each simulator address its script, in time order', () => {
    expect(types('bounce@simulator.test')).toEqual(['email.bounced']);
    expect(types('soft-bounce@simulator.test')).toEqual(['email.bounced']);
    expect(types('defer@simulator.test')).toEqual(['email.deferred', 'email.delivered']);
    expect(types('complaint@simulator.test')).toEqual(['email.delivered', 'email.complained']);
    expect(types('open@simulator.test')).toEqual(['email.delivered', 'email.opened']);
    expect(types('click@simulator.test')).toEqual(['email.delivered', 'email.opened', 'email.clicked']);
    expect(types('unsubscribe@simulator.test')).toEqual(['email.delivered', 'email.unsubscribed']);
    for (const a of ['defer@simulator.test', 'click@simulator.test', 'complaint@simulator.test']) {
      const at = mailServerScript(a, noClick).map((s) => s.afterSecs);
      expect(at).toEqual([...at].sort((x, y) => x - y));
      expect(new Set(at).size).toBe(at.length);
    }
  });

  it('delivers every other address, on any domain, after the delivery delay', () => {
    for (const a of ['dana@example.com', 'bounce@example.com', 'someone@simulator.test']) {
      expect(mailServerScript(a, noClick)).toEqual([{ afterSecs: T.deliverAfterSecs, outcome: { type: 'email.delivered' } }]);
    }
  });

  it('bounces hard with 550 and soft with 452; retries a deferral after the retry delay', () => {
    expect(mailServerScript('bounce@simulator.test', noClick)[0]!.outcome).toEqual({ type: 'email.bounced', bounce: HARD_BOUNCE });
    expect(HARD_BOUNCE).toMatchObject({ class: 'hard', code: 550 });
    expect(mailServerScript('soft-bounce@simulator.test', noClick)[0]!.outcome).toEqual({ type: 'email.bounced', bounce: SOFT_BOUNCE });
    expect(SOFT_BOUNCE).toMatchObject({ class: 'soft', code: 452 });
    const [deferred, delivered] = mailServerScript('defer@simulator.test', noClick);
    expect(delivered!.afterSecs - deferred!.afterSecs).toBe(T.deferRetryAfterSecs);
  });

  it('unsubscribes by one click', () => {
    expect(mailServerScript('unsubscribe@simulator.test', noClick)[1]!.outcome).toEqual({ type: 'email.unsubscribed', method: 'one_click' });
  });

  it('clicks the first http(s) link of the html, or the default', () => {
    const html = '<p><a href="mailto:x@y.z">mail</a> <a class="c" href="https://shop.example/a?b=1">shop</a> <a href="http://later.example">x</a></p>';
    expect(mailServerScript('click@simulator.test', () => clickedUrl(html))[2]!.outcome).toEqual({ type: 'email.clicked', url: 'https://shop.example/a?b=1' });
    expect(clickedUrl("<a href='http://single.example/q'>s</a>")).toBe('http://single.example/q');
    expect(clickedUrl('<a href=https://bare.example/x>b</a>')).toBe('https://bare.example/x');
    expect(clickedUrl('<p>no links</p>')).toBe(SIMULATOR_DEFAULT_CLICK_URL);
    expect(clickedUrl(null)).toBe(SIMULATOR_DEFAULT_CLICK_URL);
  });

  it('finds the link the regular expression found, on any input', () => {
    const piece = fc.constantFrom('<a', '<A', '<a ', '<ab', '<', '>', ' ', '\n', 'href', 'HREF', 'xhref', '=', ' = ', '"', "'", 'http://', 'https://', 'HTTP://', 'x', '/y.z', '"http://e.x"', "'https://s.q'");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (parts) => {
        const html = parts.join('');
        expect(clickedUrl(html)).toBe(regexClickedUrl(html));
      }),
      { numRuns: 5000 },
    );
  });

  it('finds the link in a megabyte of tags left open in a bounded time (CPU time, not the clock)', () => {
    // The regular expression read from every `<a` to the end of its tag: 128 KB of `<a ` took 4 s,
    // a megabyte minutes; one pass takes milliseconds. The bound only fails a return to that.
    for (const unit of ['<a ', '<a href="http://', "<a href='http://", '<a href=x ', '<a><b href="http://x">', '<a href=http:// ']) {
      const large = unit.repeat(Math.floor(1_000_000 / unit.length)) + '<a href="https://found.example">';
      expect(cpuMs(() => clickedUrl(large)), unit).toBeLessThan(2_000);
    }
  });

  it('looks for the clicked link only for a recipient that clicks', () => {
    let asked = 0;
    const clickUrl = () => (asked++, 'https://x.example');
    for (const a of ['dana@example.com', 'open@simulator.test', 'defer@simulator.test', 'unsubscribe@simulator.test']) mailServerScript(a, clickUrl);
    expect(asked).toBe(0);
    mailServerScript('click@simulator.test', clickUrl);
    expect(asked).toBe(1);
  });
});
