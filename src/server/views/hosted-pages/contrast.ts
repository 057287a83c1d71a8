import { SAFE_ACCENT_COLOR, WCAG_AA_TEXT_CONTRAST } from '../../../api/values/hosted-pages.js';

// WCAG 2.1 contrast (success criterion 1.4.3, AA): the page's accent colour is the background of
// the submit button (white text) and the colour of links on the white page, so it must reach 4.5:1
// against white either way; a brand's colour that does not is replaced by a safe one.

const HEX = /^#([0-9a-fA-F]{6})$/;

/** WCAG relative luminance of an sRGB colour given as #rrggbb. */
export function relativeLuminance(hex: string): number {
  const m = HEX.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const channel = (i: number): number => {
    const c = parseInt(m[1]!.slice(i * 2, i * 2 + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG contrast ratio of two colours, 1 to 21, whichever order they are given in. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export const PAGE_BACKGROUND = '#ffffff';

/** The accent the page uses: the brand's when it reads at AA against white, else the safe colour. */
export function accessibleAccent(accent: string | null | undefined): string {
  if (accent && HEX.test(accent) && contrastRatio(accent, PAGE_BACKGROUND) >= WCAG_AA_TEXT_CONTRAST) return accent.toLowerCase();
  return SAFE_ACCENT_COLOR;
}
