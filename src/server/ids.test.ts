import { describe, expect, it } from 'vitest';
import { ID_TIME_LENGTH, newId, randomBase62 } from './ids.js';

describe('ids', () => {
  it('are a prefix and 20 base62 characters, all different, drawing on every character', () => {
    const ids = Array.from({ length: 20_000 }, () => newId('msg'));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(id).toMatch(/^msg_[0-9A-Za-z]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Across pool refills (20 000 ids draw far more than one 4 KiB pool), every character turns up.
    const seen = new Set(ids.map((id) => id.slice(4 + ID_TIME_LENGTH)).join(''));
    expect(seen.size).toBe(62);
  });

  it('lead with the creation time, so ids made later sort after (the indexes append)', () => {
    const before = newId('evt');
    const start = Date.now();
    while (Date.now() === start) {
      /* the next millisecond */
    }
    const after = newId('evt');
    expect(after > before).toBe(true);
    expect(after.slice(0, 4 + ID_TIME_LENGTH) > before.slice(0, 4 + ID_TIME_LENGTH)).toBe(true);
    // The time part is the millisecond in base62: a 2026 id and one from 2081 keep the same width.
    expect(newId('evt')).toHaveLength(4 + 20);
  });

  it('random strings have the length asked for', () => {
    for (const n of [1, 7, 32, 64]) expect(randomBase62(n)).toHaveLength(n);
  });
});
