/** A word as a POSIX shell reads it back: bare when safe, else single-quoted ('it'\''s'). */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_\-+=/.,:@%^]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function shellLine(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
