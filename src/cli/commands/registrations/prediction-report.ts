import type { Prediction } from '../../../api/schemas/registrations.js';

// The approval prediction as lines, like a linter's report (cli.md "Wizards": `campaigns lint`):
// each check `pass` or `fail` with its suggestion, then the score and band. The columns line up:
// every id padded to the longest, a suggestion under the id column.

const VERDICT_WIDTH = 'pass'.length;
const GAP = '  ';

export function predictionLines(p: Prediction): string[] {
  const idWidth = Math.max(0, ...p.checks.map((c) => c.id.length));
  const under = ' '.repeat(VERDICT_WIDTH + GAP.length);
  const lines: string[] = [];
  for (const c of p.checks) {
    lines.push(`${c.passed ? 'pass' : 'fail'}${GAP}${c.id.padEnd(idWidth)}${GAP}${c.label}`);
    if (!c.passed && c.suggestion) lines.push(`${under}suggestion: ${c.suggestion}`);
  }
  const failed = p.checks.filter((c) => !c.passed).length;
  lines.push(`score ${p.score}/100, approval ${p.band}: ${p.checks.length - failed} of ${p.checks.length} checks pass`);
  return lines;
}
