import { describe, expect, it } from 'vitest';
import { accessibleAccent, contrastRatio, relativeLuminance } from './contrast.js';
import { SAFE_ACCENT_COLOR, WCAG_AA_TEXT_CONTRAST } from '../../../api/values/hosted-pages.js';

describe('WCAG contrast of the hosted page accent', () => {
  it('computes luminance and ratios as WCAG defines them', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBeCloseTo(1, 10);
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2); // the classic just-failing grey
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2); // the lightest passing grey
  });

  it('keeps an accent that reaches AA against white and replaces one that does not', () => {
    expect(accessibleAccent('#767676')).toBe('#767676');
    expect(accessibleAccent('#0B3D91')).toBe('#0b3d91');
    expect(accessibleAccent('#777777')).toBe(SAFE_ACCENT_COLOR);
    expect(accessibleAccent('#ffeb3b')).toBe(SAFE_ACCENT_COLOR);
    expect(accessibleAccent(null)).toBe(SAFE_ACCENT_COLOR);
    expect(accessibleAccent('red')).toBe(SAFE_ACCENT_COLOR);
  });

  it('the safe colour itself passes AA', () => {
    expect(contrastRatio(SAFE_ACCENT_COLOR, '#ffffff')).toBeGreaterThanOrEqual(WCAG_AA_TEXT_CONTRAST);
  });
});
