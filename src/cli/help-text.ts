// Help as it reaches the terminal: the prose a verb adds after commander's sections is
// written as paragraphs, so it is poured into the width of the terminal it is shown on, as
// commander does with its own descriptions; indented blocks (examples, tables of values) stay as
// written, for they are copied or aligned.

/** Where help is folded when the output says no width (a pipe without COLUMNS): commander's default. */
export const HELP_WIDTH = 80;

/** Words of `text` in lines of at most `width` characters (a longer word stands alone). */
function fill(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line === '') line = word;
    else if ([...line].length + 1 + [...word].length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * Re-folds each paragraph of help prose to `width`: a paragraph is consecutive lines that start at
 * the margin, ended by a line ending in `:` that introduces an indented block (`Examples:`, or a
 * sentence before a list). Blank and indented lines are kept as they are.
 */
export function reflowHelp(text: string, width: number): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) out.push(...fill(paragraph.join(' ').split(/ +/).filter(Boolean), width));
    paragraph = [];
  };
  lines.forEach((line, i) => {
    const atMargin = line !== '' && !/^\s/.test(line);
    if (!atMargin) {
      flush();
      out.push(line);
      return;
    }
    paragraph.push(line);
    if (line.endsWith(':') && /^\s+\S/.test(lines[i + 1] ?? '')) flush();
  });
  flush();
  return out.join('\n');
}
