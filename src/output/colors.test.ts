import { describe, expect, it } from 'vitest';
import { createColors } from './colors.js';

describe('createColors', () => {
  it('emits no escape codes when disabled', () => {
    const c = createColors(false);
    const all = [c.success('a'), c.error('b'), c.warn('c'), c.dim('d'), c.bold('e'), c.id('f'), c.status('failed')];
    expect(all).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'failed']);
  });

  it('colours statuses by meaning when enabled', () => {
    const c = createColors(true);
    expect(c.status('delivered')).toBe('\x1b[32mdelivered\x1b[39m');
    expect(c.status('Undelivered')).toBe('\x1b[31mUndelivered\x1b[39m');
    expect(c.status('queued')).toBe('\x1b[33mqueued\x1b[39m');
    expect(c.status('mystery')).toBe('mystery');
    expect(c.bold('x')).toContain('\x1b[1m');
  });
});
