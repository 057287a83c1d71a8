import { describe, expect, it } from 'vitest';
import { reflowHelp } from './help-text.js';

describe('reflowHelp', () => {
  it('pours prose paragraphs into the width and leaves indented blocks and headings as written', () => {
    const text = [
      'A test usually sends first and waits after, so a message already delivered counts: by default any',
      'message delivered in the last minute counts. The',
      'oldest match is printed.',
      '',
      'Examples:',
      '  $ svc emails wait --to ada@example.org --subject-match "^Your code" --timeout 10s -o json',
      '',
    ].join('\n');
    const out = reflowHelp(text, 40).split('\n');
    for (const line of out.filter((l) => !l.startsWith('  $'))) expect([...line].length).toBeLessThanOrEqual(40);
    expect(out.join(' ')).toContain('The oldest match is printed.');
    expect(out).toContain('Examples:');
    expect(out).toContain('  $ svc emails wait --to ada@example.org --subject-match "^Your code" --timeout 10s -o json');
    expect(out.at(-1)).toBe('');
  });
});
