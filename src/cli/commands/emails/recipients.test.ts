import { describe, expect, it } from 'vitest';
import { collectAddresses, splitAddresses } from './recipients.js';

describe('recipient flags', () => {
  it('splits comma lists, trims, drops empty parts', () => {
    expect(splitAddresses('a@x.com, b@y.com,,')).toEqual(['a@x.com', 'b@y.com']);
    expect(splitAddresses('a@x.com')).toEqual(['a@x.com']);
  });

  it('keeps commas inside a quoted display name or angle brackets', () => {
    expect(splitAddresses('"Doe, Jane" <jane@x.com>, bob@y.com')).toEqual(['"Doe, Jane" <jane@x.com>', 'bob@y.com']);
    expect(splitAddresses('"A \\", B" <a@x.com>')).toEqual(['"A \\", B" <a@x.com>']);
  });

  it('collects repeated flags in order', () => {
    expect(collectAddresses('c@z.com', collectAddresses('a@x.com,b@y.com', undefined))).toEqual(['a@x.com', 'b@y.com', 'c@z.com']);
  });
});
