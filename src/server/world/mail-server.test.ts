import { describe, expect, it } from 'vitest';
import { clickedUrl, HARD_BOUNCE, mailServerScript, simulatorAddressOf, SOFT_BOUNCE } from './mail-server.js';
import { MAIL_SIMULATOR_TIMINGS as T, SIMULATOR_DEFAULT_CLICK_URL } from '../../api/values/email.js';

const types = (address: string, html: string | null = null) => mailServerScript(address, html).map((s) => s.outcome.type);

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
      const at = mailServerScript(a, null).map((s) => s.afterSecs);
      expect(at).toEqual([...at].sort((x, y) => x - y));
      expect(new Set(at).size).toBe(at.length);
    }
  });

  it('delivers every other address, on any domain, after the delivery delay', () => {
    for (const a of ['dana@example.com', 'bounce@example.com', 'someone@simulator.test']) {
      expect(mailServerScript(a, null)).toEqual([{ afterSecs: T.deliverAfterSecs, outcome: { type: 'email.delivered' } }]);
    }
  });

  it('bounces hard with 550 and soft with 452; retries a deferral after the retry delay', () => {
    expect(mailServerScript('bounce@simulator.test', null)[0]!.outcome).toEqual({ type: 'email.bounced', bounce: HARD_BOUNCE });
    expect(HARD_BOUNCE).toMatchObject({ class: 'hard', code: 550 });
    expect(mailServerScript('soft-bounce@simulator.test', null)[0]!.outcome).toEqual({ type: 'email.bounced', bounce: SOFT_BOUNCE });
    expect(SOFT_BOUNCE).toMatchObject({ class: 'soft', code: 452 });
    const [deferred, delivered] = mailServerScript('defer@simulator.test', null);
    expect(delivered!.afterSecs - deferred!.afterSecs).toBe(T.deferRetryAfterSecs);
  });

  it('unsubscribes by one click', () => {
    expect(mailServerScript('unsubscribe@simulator.test', null)[1]!.outcome).toEqual({ type: 'email.unsubscribed', method: 'one_click' });
  });

  it('clicks the first http(s) link of the html, or the default', () => {
    const html = '<p><a href="mailto:x@y.z">mail</a> <a class="c" href="https://shop.example/a?b=1">shop</a> <a href="http://later.example">x</a></p>';
    expect(mailServerScript('click@simulator.test', html)[2]!.outcome).toEqual({ type: 'email.clicked', url: 'https://shop.example/a?b=1' });
    expect(clickedUrl("<a href='http://single.example/q'>s</a>")).toBe('http://single.example/q');
    expect(clickedUrl('<a href=https://bare.example/x>b</a>')).toBe('https://bare.example/x');
    expect(clickedUrl('<p>no links</p>')).toBe(SIMULATOR_DEFAULT_CLICK_URL);
    expect(clickedUrl(null)).toBe(SIMULATOR_DEFAULT_CLICK_URL);
  });
});
