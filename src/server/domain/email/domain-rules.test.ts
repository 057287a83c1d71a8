import { describe, expect, it } from 'vitest';
import { canonicalDomain, checkSendingDomain, disposableListsLoaded, normalizeDomainInput } from './domain-rules.js';
import { PUBLIC_MAILBOX_PROVIDERS } from './public-mailbox-providers.js';

// spec: Email domains — public mailbox providers, disposable domains, IP addresses and single-label
// hosts are rejected. Each reason on its own, with real entries of both lists.

const reason = (input: string) => {
  const v = checkSendingDomain(input);
  return v.ok ? 'ok' : v.reason;
};

describe('normalizeDomainInput', () => {
  it('trims, lower-cases and drops one trailing dot', () => {
    expect(normalizeDomainInput('  Mail.Example.COM. ')).toBe('mail.example.com');
  });
});

describe('canonicalDomain', () => {
  it('gives the stored form of a name for lookups', () => {
    expect(canonicalDomain(' Mail.München.DE. ')).toBe('mail.xn--mnchen-3ya.de');
    expect(canonicalDomain('Example.com')).toBe('example.com');
  });
});

describe('checkSendingDomain', () => {
  it('reads the disposable lists only when a check gets that far (first test: nothing loaded them yet)', () => {
    expect(checkSendingDomain('gmail.com').ok).toBe(false);
    expect(checkSendingDomain('1.2.3.4').ok).toBe(false);
    expect(disposableListsLoaded()).toBe(false);
    expect(reason('example.org')).toBe('ok');
    expect(disposableListsLoaded()).toBe(true);
  });

  it('accepts an ordinary domain and returns it normalized', () => {
    expect(checkSendingDomain(' Example.COM. ')).toEqual({ ok: true, domain: 'example.com' });
    expect(checkSendingDomain('mail.acme-widgets.co.uk')).toEqual({ ok: true, domain: 'mail.acme-widgets.co.uk' });
  });

  it('converts an internationalized name to ASCII', () => {
    expect(checkSendingDomain('Mail.München.DE')).toEqual({ ok: true, domain: 'mail.xn--mnchen-3ya.de' });
  });

  it.each(['gmail.com', 'outlook.de', 'hotmail.co.uk', 'yahoo.co.jp', 'icloud.com', 'proton.me', 'web.de', 'qq.com', 'naver.com', 'comcast.net', 'bigpond.com'])(
    'rejects the public mailbox provider %s, naming the rule',
    (d) => {
      const v = checkSendingDomain(d);
      expect(v).toEqual({ ok: false, reason: 'public_mailbox_provider', message: `${d} is a public mailbox provider; add a domain you own` });
    },
  );

  it('rejects a subdomain of a public mailbox provider, naming the provider', () => {
    const v = checkSendingDomain('news.gmail.com');
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.reason).toBe('public_mailbox_provider');
      expect(v.message).toBe('news.gmail.com is under gmail.com, which is a public mailbox provider; add a domain you own');
    }
  });

  it('ships a real provider list: several hundred lower-case registrable domains, no duplicates', () => {
    expect(PUBLIC_MAILBOX_PROVIDERS.length).toBeGreaterThan(400);
    expect(new Set(PUBLIC_MAILBOX_PROVIDERS).size).toBe(PUBLIC_MAILBOX_PROVIDERS.length);
    for (const d of PUBLIC_MAILBOX_PROVIDERS) expect(d).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
  });

  it.each(['mailinator.com', 'guerrillamail.com', 'sharklasers.com', '10minutemail.com', 'yopmail.com'])('rejects the disposable domain %s (index.json)', (d) => {
    const v = checkSendingDomain(d);
    expect(v).toEqual({ ok: false, reason: 'disposable', message: `${d} is a disposable email domain; add a domain you own` });
  });

  it('rejects a subdomain of a wildcard-listed disposable domain (wildcard.json) and of an exact one', () => {
    expect(reason('anything.33mail.com')).toBe('disposable');
    const v = checkSendingDomain('x.guerrillamail.com');
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.message).toContain('is under guerrillamail.com');
  });

  it.each(['192.0.2.10', '10.0.0.1.', '0x7f.1', '::1', '[2001:db8::1]', '2001:db8::1'])('rejects the IP address %s', (d) => {
    const v = checkSendingDomain(d);
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.reason).toBe('ip_address');
      expect(v.message).toContain('is an IP address');
    }
  });

  it.each(['localhost', 'intranet', 'COM.'])('rejects the single-label host %s', (d) => {
    const v = checkSendingDomain(d);
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.reason).toBe('single_label');
      expect(v.message).toContain('single-label host');
    }
  });

  it('holds labels to 63 characters and names to 253', () => {
    const label63 = 'a'.repeat(63);
    expect(reason(`${label63}.com`)).toBe('ok');
    expect(reason(`${label63}a.com`)).toBe('syntax');
    // 253 characters: 3 labels of 63, one of 57, and ".com" → 63*3 + 57 + 4 dots/tld = 253
    const at253 = `${label63}.${label63}.${label63}.${'b'.repeat(57)}.com`;
    expect(at253.length).toBe(253);
    expect(reason(at253)).toBe('ok');
    expect(reason(`c${at253}`)).toBe('syntax');
    const v = checkSendingDomain(`c${at253}`);
    if (!v.ok) expect(v.message).toContain('at most 253');
  });

  it.each(['exa mple.com', 'a..b.com', '-start.com', 'end-.com', 'under_score.com', '.example.com', 'example.123', 'exa$mple.com', ''])(
    'rejects the malformed name %j as syntax',
    (d) => expect(reason(d)).toBe('syntax'),
  );
});
