import { describe, it, expect } from 'vitest';
import { jsonNestingExceeds, scanJson } from './json-body.js';
import { MAX_JSON_DEPTH } from '../../api/values/http.js';
import { MAX_ERROR_DETAILS } from '../../api/schemas/errors.js';

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

describe('scanJson', () => {
  const known = new Set(['to', 'body', 'a"b']);

  it('counts object members and array elements at every depth, as JSON.parse would see them', () => {
    const text = JSON.stringify({ to: 'x', list: [1, [], [2, 3], { k: ['a,b', '{"c":1}'] }], empty: {}, none: [] });
    const scan = scanJson(text, MAX_JSON_DEPTH);
    // members: to, list, empty, none, k; elements: 4 in list, 2 in [2,3], 2 in k
    expect(scan.members).toBe(5);
    expect(scan.values).toBe(5 + 8);
    expect(scan.tooDeep).toBe(false);
  });

  it('names the top-level members a strict schema lacks (decoded), not nested ones, and counts past the first 100', () => {
    const scan = scanJson(JSON.stringify({ to: 1, 'a"b': 2, 'x\\y': 3, nested: { deep: 1 }, body: 'to' }), MAX_JSON_DEPTH, known);
    expect(scan.unknown).toEqual(['x\\y', 'nested']);
    expect(scan.unknownCount).toBe(2);
    const many: Record<string, number> = {};
    for (let i = 0; i < 250; i++) many[`k${i}`] = i;
    const big = scanJson(JSON.stringify(many), MAX_JSON_DEPTH, known);
    expect(big.unknown).toEqual(Array.from({ length: MAX_ERROR_DETAILS }, (_, i) => `k${i}`));
    expect(big.unknownCount).toBe(250);
  });

  it('a string value that looks like a member name is not one', () => {
    const scan = scanJson('{"to":"x","body":"\\"unknown\\":1"}', MAX_JSON_DEPTH, known);
    expect(scan.unknownCount).toBe(0);
    expect(scan.members).toBe(2);
  });
});
