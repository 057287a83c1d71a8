import { describe, expect, it } from 'vitest';
import { countSegments } from './segments.js';

describe('countSegments', () => {
  it('counts an empty body as 0 GSM-7 segments', () => {
    expect(countSegments('')).toEqual({ encoding: 'GSM-7', units: 0, segments: 0 });
  });

  it('fits 160 ASCII characters in one segment and 161 in two', () => {
    expect(countSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(countSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
  });

  it('uses the flat 160 per segment of contract §4 (no 153 multipart reduction)', () => {
    expect(countSegments('x'.repeat(320)).segments).toBe(2);
    expect(countSegments('x'.repeat(321)).segments).toBe(3);
  });

  it('counts extension characters twice', () => {
    expect(countSegments('€'.repeat(80))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(countSegments('€'.repeat(81))).toEqual({ encoding: 'GSM-7', units: 162, segments: 2 });
    for (const ch of ['^', '{', '}', '\\', '[', '~', ']', '|', '€', '\f']) {
      expect(countSegments(ch)).toEqual({ encoding: 'GSM-7', units: 2, segments: 1 });
    }
    expect(countSegments('a'.repeat(159) + '[').segments).toBe(2);
  });

  it('accepts the whole GSM 03.38 basic table as single septets', () => {
    const basic =
      '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
      '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
    expect(basic.length).toBe(127);
    expect(countSegments(basic)).toEqual({ encoding: 'GSM-7', units: 127, segments: 1 });
  });

  it('switches to UCS-2 for one emoji and counts UTF-16 code units', () => {
    const r = countSegments('a'.repeat(60) + '😀');
    expect(r).toEqual({ encoding: 'UCS-2', units: 62, segments: 1 });
  });

  it('fits 70 UCS-2 units in one segment and 71 in two', () => {
    expect(countSegments('ç'.repeat(70))).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(countSegments('ç'.repeat(71))).toEqual({ encoding: 'UCS-2', units: 71, segments: 2 });
  });

  it('counts a surrogate pair as 2 units', () => {
    expect(countSegments('😀'.repeat(35))).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(countSegments('😀'.repeat(36))).toEqual({ encoding: 'UCS-2', units: 72, segments: 2 });
  });

  it('extension characters count once in a UCS-2 body', () => {
    expect(countSegments('€ç')).toEqual({ encoding: 'UCS-2', units: 2, segments: 1 });
  });

  it('treats lowercase ç as UCS-2 but keeps Ç and è in GSM-7', () => {
    expect(countSegments('ç').encoding).toBe('UCS-2');
    expect(countSegments('Ç').encoding).toBe('GSM-7');
    expect(countSegments('è').encoding).toBe('GSM-7');
  });

  it('rejects characters outside both tables (ESC, tab, backtick, other accents, Ohm sign)', () => {
    for (const ch of ['\u001b', '\t', '`', 'Ê', 'á', '\u2126']) {
      expect(countSegments(ch).encoding).toBe('UCS-2');
    }
  });
});
