import { describe, expect, it } from 'vitest';
import { compileUserPattern, UserPatternError } from './user-pattern.js';

describe('a user-supplied pattern', () => {
  it('matches anywhere in the text, as RegExp.test does', () => {
    const p = compileUserPattern('^Your code');
    expect(p.source).toBe('^Your code');
    expect(p.test('Your code is 1234')).toBe(true);
    expect(p.test('Not your code')).toBe(false);
    expect(compileUserPattern('code \\d+').test('Your code 42 here')).toBe(true);
    expect(compileUserPattern('é+').test('café')).toBe(true);
  });

  it('answers patterns that make a backtracking engine run for ever (no match, at once)', () => {
    expect(compileUserPattern('^(a+)+$').test(`${'a'.repeat(40)}!`)).toBe(false);
    expect(compileUserPattern('(x+x+)+y').test('x'.repeat(5000))).toBe(false);
    expect(compileUserPattern('(x+x+)+y').test(`${'x'.repeat(5000)}y`)).toBe(true);
  });

  it('refuses what RE2 cannot run in linear time (lookarounds, backreferences) and bad syntax, saying why', () => {
    expect(() => compileUserPattern('(?=a)')).toThrow(UserPatternError);
    expect(() => compileUserPattern('(?=a)')).toThrow(/\(\?=.*no lookarounds or backreferences/);
    expect(() => compileUserPattern('(a)\\1')).toThrow(/\\1/);
    expect(() => compileUserPattern('(')).toThrow(UserPatternError);
  });
});
