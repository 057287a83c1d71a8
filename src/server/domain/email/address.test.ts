import { describe, expect, it } from 'vitest';
import { addressProblem, parseMailbox } from './address.js';

const ok = (input: string) => {
  const r = parseMailbox(input);
  if (!r.ok) throw new Error(`expected ${input} to parse: ${r.reason}`);
  return r.mailbox;
};
const reason = (input: string) => {
  const r = parseMailbox(input);
  if (r.ok) throw new Error(`expected ${input} to be refused`);
  return r.reason;
};

describe('parseMailbox (spec: Send email body — a display name may precede the address)', () => {
  it('reads a bare address and lower-cases only the domain it reports', () => {
    expect(ok('Jane.Doe+tag@Example.COM')).toEqual({ displayName: null, address: 'Jane.Doe+tag@Example.COM', domain: 'example.com' });
    expect(ok('  a@b.co  ').address).toBe('a@b.co');
  });

  it('reads an unquoted display name, collapsing its whitespace', () => {
    expect(ok('Acme  Billing <billing@acme.example>')).toEqual({ displayName: 'Acme Billing', address: 'billing@acme.example', domain: 'acme.example' });
  });

  it('reads a quoted display name with specials and escapes', () => {
    expect(ok('"Doe, Jane \\"JD\\" <ops>" <jane@mail.acme.example>')).toEqual({
      displayName: 'Doe, Jane "JD" <ops>',
      address: 'jane@mail.acme.example',
      domain: 'mail.acme.example',
    });
  });

  it('reads angle brackets without a name, and an empty quoted name as none', () => {
    expect(ok('<a@b.example>')).toEqual({ displayName: null, address: 'a@b.example', domain: 'b.example' });
    expect(ok('"" <a@b.example>').displayName).toBeNull();
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['jane', '@'],
    ['@acme.example', 'before @'],
    ['jane@', 'domain'],
    ['jane@localhost', 'dot'],
    ['jane@acme..example', 'not a valid domain'],
    ['jane@-acme.example', 'not a valid domain'],
    ['jane@acme.example.', 'not a valid domain'],
    ['jane@10.0.0.1', 'numeric'],
    ['ja ne@acme.example', 'one address'],
    ['.jane@acme.example', 'local part'],
    ['ja..ne@acme.example', 'local part'],
    ['"ja ne"@acme.example', 'one address'],
    ['a@x.example, b@y.example', 'one address'],
    ['Jane <a@x.example>, Bob <b@y.example>', 'one address'],
    ['Jane <a@x.example', 'nothing may follow'],
    ['Jane a@x.example>', 'without its <'],
    ['Jane <a@x.example> trailing', 'nothing may follow'],
    ['Jane <<a@x.example>>', 'one address'],
    ['Jane@Work <a@x.example>', 'double quotes'],
    ['Doe, Jane <a@x.example>', 'double quotes'],
    ['"Jane <a@x.example>', 'not closed'],
    ['"Jane" Doe <a@x.example>', 'between'],
    ['Jane <a@x.example>\r\nBcc: victim@y.example', 'line breaks'],
    ['Jane <>', '@'],
  ])('refuses %j (%s)', (input, why) => {
    expect(reason(input)).toContain(why);
  });

  it('bounds the local part at 64 and the address at 254 characters', () => {
    expect(addressProblem(`${'a'.repeat(64)}@acme.example`)).toBeNull();
    expect(addressProblem(`${'a'.repeat(65)}@acme.example`)).toContain('64');
    const longDomain = `${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(63)}.example`;
    expect(addressProblem(`${'a'.repeat(64)}@${longDomain}`)).toContain('254');
  });
});
