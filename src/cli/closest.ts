// The valid value nearest to what was typed, to name in a refusal ("did you mean REAL_ESTATE?").

/**
 * Only this much of an answer is compared: the candidates are short words, so a longer answer is
 * far from all of them anyway, and a pasted page costs no more than a word.
 */
export const CLOSEST_INPUT_CHARS = 64;

/** Levenshtein distance (insert, delete, substitute: 1 each), two rows of the table. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_v, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The candidate nearest to `input` (its first CLOSEST_INPUT_CHARS characters): one it begins, when
 * it is two characters or more (an abbreviation such as TECH is far from TECHNOLOGY by edit
 * distance alone), else the least edit distance; the earliest in the list on a tie; undefined only
 * for no candidates.
 */
export function closest<T extends string>(input: string, candidates: readonly T[]): T | undefined {
  const typed = input.slice(0, CLOSEST_INPUT_CHARS);
  const begun = typed.length >= 2 ? candidates.find((c) => c.startsWith(typed)) : undefined;
  if (begun !== undefined) return begun;
  let best: { value: T; distance: number } | undefined;
  for (const value of candidates) {
    const distance = editDistance(typed, value);
    if (!best || distance < best.distance) best = { value, distance };
  }
  return best?.value;
}
