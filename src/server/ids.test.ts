import { describe, expect, it } from 'vitest';
import { newId, randomBase62 } from './ids.js';

describe('ids', () => {
  it('are a prefix and 20 base62 characters, all different, drawing on every character', () => {
    const ids = Array.from({ length: 20_000 }, () => newId('msg'));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(/^msg_[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Across pool refills (20 000 ids draw far more than one 4 KiB pool), every character turns up.
    const seen = new Set(ids.join('').replaceAll('msg_', ''));
    expect(seen.size).toBe(62);
  });

  it('random strings have the length asked for', () => {
    for (const n of [1, 7, 32, 64]) expect(randomBase62(n)).toHaveLength(n);
  });
});
