import type { Prediction } from '../../../api/schemas/registrations.js';

// The approval prediction as lines, like a linter's report (cli.md "Wizards": `campaigns lint`):
// each check `pass` or `fail` with its suggestion, then the score and band.

export function predictionLines(p: Prediction): string[] {
  const lines: string[] = [];
  for (const c of p.checks) {
    lines.push(`${c.passed ? 'pass' : 'fail'}  ${c.id}  ${c.label}`);
    if (!c.passed && c.suggestion) lines.push(`      suggestion: ${c.suggestion}`);
  }
  const failed = p.checks.filter((c) => !c.passed).length;
  lines.push(`score ${p.score}/100, approval ${p.band}: ${p.checks.length - failed} of ${p.checks.length} checks pass`);
  return lines;
}
