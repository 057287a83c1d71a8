import { describe, it, expect } from 'vitest';
import { jsonNestingExceeds, MAX_JSON_DEPTH } from './json-body.js';

describe('jsonNestingExceeds', () => {
  it('counts arrays and objects together, up to and past the limit', () => {
    expect(jsonNestingExceeds('{"a":[{"b":[]}]}', 4)).toBe(false);
    expect(jsonNestingExceeds('{"a":[{"b":[]}]}', 3)).toBe(true);
    expect(jsonNestingExceeds('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonNestingExceeds('['.repeat(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('siblings do not add up: depth is the deepest path, not the number of containers', () => {
    expect(jsonNestingExceeds(`[${Array.from({ length: 500 }, () => '[[]]').join(',')}]`, 3)).toBe(false);
  });

  it('brackets inside strings are text, escaped quotes included', () => {
    expect(jsonNestingExceeds(JSON.stringify({ a: '[[[[{{{{', b: 'say \\"[[[[" here' }), 1)).toBe(false);
    expect(jsonNestingExceeds(JSON.stringify(['\\', [[]]]), 2)).toBe(true);
  });

  it('a hostile megabyte of brackets is answered without recursion', () => {
    expect(jsonNestingExceeds('['.repeat(1_000_000), MAX_JSON_DEPTH)).toBe(true);
  });
});
