// Loads colors.ts (and chalk with it) only when something is about to be coloured, so importing
// the output layer from main.ts keeps `svc --help` near bare node startup.
import type { Colors } from './colors.js';

export async function loadColors(enabled: boolean): Promise<Colors> {
  const { createColors } = await import('./colors.js');
  return createColors(enabled);
}
